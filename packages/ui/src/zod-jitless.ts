import { config } from 'zod';

// The contract's schemas validate without generated code: zod would otherwise probe `new Function`,
// which the Content-Security-Policy forbids (a reported violation on every page that validates).
// zod decides when a schema is built, so this module is main.tsx's first import: it runs before
// any module that builds a schema at load time (the contract, the form resolver).
config({ jitless: true });
