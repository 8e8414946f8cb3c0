import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Hang guards, not budgets: the suite must pass on a machine four times slower.
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
