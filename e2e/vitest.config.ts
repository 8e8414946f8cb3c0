import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    // Waits, not checks: a busy 2-core machine can take seconds to settle a transition.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    // One browser at a time on a 2-core machine; files share the one server.
    fileParallelism: false,
  },
});
