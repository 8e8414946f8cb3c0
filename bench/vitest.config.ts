import { defineProject } from 'vitest/config';

// The benchmarks' own helpers (pure functions); the benchmarks themselves run with `npm run bench`.
export default defineProject({ test: { name: 'bench', environment: 'node', include: ['*.test.ts'], isolate: false } });
