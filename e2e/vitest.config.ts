import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 180_000,
    // Hang guards, not budgets: a machine four times slower, or one running another suite beside
    // this one, can take many seconds to settle a transition.
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 240_000,
    // One browser at a time on a 2-core machine; files share the one server.
    fileParallelism: false,
  },
});
