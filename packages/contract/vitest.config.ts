import { defineProject } from 'vitest/config';

// Pure functions: no isolation needed between files (ADR 044).
export default defineProject({ test: { name: 'contract', environment: 'node', include: ['src/**/*.test.ts'], isolate: false } });
