import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** Where `vite` (dev) and `vite preview` send /api: the server's default address unless overridden. */
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:3000';

/**
 * Form state and validation: zod and the contract's modules that build schemas with it, the kit's
 * form library and number input, and our form hook. Only the pages with forms load them.
 */
const FORM_CODE =
  /node_modules[\\/](zod|@mantine[\\/]form|mantine-form-zod-resolver|klona|fast-deep-equal|react-number-format|@mantine[\\/]core[\\/]esm[\\/]components[\\/]NumberInput)[\\/]|src[\\/](components[\\/]form|lib[\\/]field-errors)/;
const isFormCode = (id: string) =>
  FORM_CODE.test(id) || (/packages[\\/]contract[\\/]src[\\/]/.test(id) && /from 'zod'/.test(readFileSync(id, 'utf8')));

/** Text files worth compressing (fonts and images are compressed formats already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (.br, best quality) and a gzip (.gz) copy beside every compressible file of the
 * build, once: the server sends them as they are (@fastify/static's preCompressed) instead of
 * compressing on every request. A copy that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const raw = readFileSync(file);
        if (raw.length < 256) continue;
        const br = brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * Preloads the latin subset of the shipped Inter font from index.html: the browser fetches it
 * beside the stylesheet instead of after it, so that text shows in Inter from the first paint.
 */
export function preloadFont(): Plugin {
  return {
    name: 'portal-preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(f));
        if (!font) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

export default defineConfig({
  root: here('.'),
  plugins: [react(), preloadFont(), precompress()],
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
    // The first screen's code in one chunk (`app`); pages load lazily. Code that two or more lazy
    // chunks share goes to a few chunks by kind instead of one per combination of pages (dozens of
    // 1 KB chunks, which a phone fetches six at a time): the UI kit, the form and validation code
    // (only pages with forms load it), and our shared components. docs/decisions/038.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'kit', test: (id) => /node_modules[\\/]/.test(id) && !isFormCode(id), minShareCount: 2, priority: 2 },
            { name: 'forms', test: isFormCode, minShareCount: 2, priority: 1 },
            { name: 'shared', test: /apps[\\/]web[\\/]src[\\/](components|lib)[\\/]/, minShareCount: 2 },
          ],
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
