import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress, preloadFont } from '../../packages/ui/build/vite-plugins';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** Where `vite` (dev) and `vite preview` send /api: the console listener's default address unless overridden. */
const apiTarget = process.env.CONSOLE_API_URL ?? 'http://127.0.0.1:3001';

export default defineConfig({
  root: here('.'),
  plugins: [react(), preloadFont(), precompress()],
  // `vite` and `vite preview` on their own port, the console's API proxied to its listener.
  server: { host: '127.0.0.1', port: 5174, proxy: { '/api': apiTarget } },
  preview: { host: '127.0.0.1', port: 4174, proxy: { '/api': apiTarget } },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    // The charts (recharts) are one lazy chunk of their own, loaded with the overview.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      treeshake: {
        // The contract is pure zod schemas and constants (its package.json declares no sideEffects).
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
