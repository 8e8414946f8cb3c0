import path from 'node:path';
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    // One worker runs file after file in one module graph (and, for jsdom, one environment): a file
    // re-imported and re-set-up its whole graph, over half of the unit runs' time (ADR 044). Each file
    // sets up what it tests and restores what it changes.
    isolate: false,
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    env: {
      // The server bundle goes to a folder of this run's own (built and removed by the global set-up):
      // two runs side by side never rewrite the file the other is starting.
      SERVER_BUNDLE: path.join(import.meta.dirname, 'dist', `test-run-${process.pid}`, 'server.mjs'),
    },
    // Hang guards, not budgets: the suite must pass on a machine four times slower, and beside
    // another suite (a system test's steps each wait up to 120 s for their signal).
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
