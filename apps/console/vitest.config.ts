import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  resolve: { alias: { '@web': fileURLToPath(new URL('../web/src', import.meta.url)) } },
  test: {
    name: 'console',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // The portal's jsdom shims (matchMedia, ResizeObserver, relative Request URLs) serve here too.
    setupFiles: ['../web/src/test/setup.ts', './src/test/setup.ts'],
    css: false,
    // Typing into jsdom forms is slow while other suites share the cores: a hang guard, not a budget.
    testTimeout: 120_000,
  },
});
