import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** Where `vite` (dev) and `vite preview` send /api: the server's default address unless overridden. */
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      // The API runs on its own port in development; in production the server serves this build.
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    // Every page is its own lazy chunk; the default splitting keeps /login small without
    // manual chunks.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
      treeshake: {
        // The contract is pure zod schemas and constants: let unused schemas drop out of the
        // sign-in bundle (its package.json does not declare sideEffects).
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
