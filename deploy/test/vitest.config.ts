import { defineConfig } from 'vitest/config';

// The container tests (`npm run test:containers`, and `npm test -- --containers`): one file at a
// time, since each starts containers that need the machine's CPU; the global setup builds the
// stand-in base images and the portal's image first.
export default defineConfig({
  test: {
    name: 'containers',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    // Hang guards, not budgets: starting a stack on a busy 2-core machine can take minutes.
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
