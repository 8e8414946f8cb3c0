import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'packages/ui', 'apps/server', 'apps/web', 'apps/console', 'bench'],
    // Each server test file gets its own database; two workers keep a 2-core machine busy without thrashing.
    maxWorkers: 2,
  },
});
