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
    expect: { poll: { timeout: 120_000 } },
    hookTimeout: 240_000,
    // The browser tests mostly wait (for the page, its transitions, the outbox): two files at a
    // time, each with its own Chromium and its own customers, against the one server, halve their
    // time for little CPU. The accessibility checks are two files (one per colour scheme), so the
    // two workers share them.
    maxWorkers: 2,
  },
});
