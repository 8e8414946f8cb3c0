import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    // One worker runs file after file in one module graph (and, for jsdom, one environment): a file
    // re-imported and re-set-up its whole graph, over half of the unit runs' time (ADR 044). Each file
    // sets up what it tests and restores what it changes.
    isolate: false,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['../../packages/ui/src/test/setup.ts'],
    css: false,
    // Typing into jsdom forms is slow while other suites share the cores: a hang guard, not a budget.
    testTimeout: 120_000,
  },
});
