import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'ui',
    // As in the apps (ADR 044): one module graph and one jsdom for all files; each file sets up what it tests.
    isolate: false,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Typing into jsdom forms is slow while other suites share the cores: a hang guard, not a budget.
    testTimeout: 120_000,
  },
});
