// The jest-dom matchers (loaded by the kit's test setup, packages/ui/src/test/setup.ts) for the type checker.
import '@testing-library/jest-dom/vitest';
