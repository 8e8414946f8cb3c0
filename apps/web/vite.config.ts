import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compileHints, precompress, preloadFont, sectionPage } from '../../packages/ui/build/vite-plugins';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** Where `vite` (dev) and `vite preview` send /api: the server's default address unless overridden. */
const apiTarget = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:3000';

/**
 * Form state and validation: zod and the contract's modules that build schemas with it, the kit's
 * form library and number input, and our form hook. Only the pages with forms load them.
 */
const FORM_CODE =
  /node_modules[\\/](zod|@mantine[\\/]form|klona|fast-deep-equal|react-number-format|@mantine[\\/]core[\\/]esm[\\/]components[\\/]NumberInput)[\\/]|apps[\\/]web[\\/]src[\\/]components[\\/]form|packages[\\/]ui[\\/]src[\\/](form|field-errors)/;
/**
 * Our own code that pages share (the form code aside): it goes to one chunk, which the signed-in
 * shell's page preloads, instead of a chunk of 1 KB per combination of pages that each page fetches
 * once its own chunk has run (docs/decisions/132).
 */
const SHARED_CODE =
  /apps[\\/]web[\\/]src[\\/](components|lib|features[\\/][^\\/]+[\\/]api\.ts)|packages[\\/](ui|contract)[\\/]src[\\/]/;
/**
 * The billing details' rules (every country's name, the tax ID formats) are the billing page's and
 * its validation code's alone: they go to the billing feature's chunk, not to the chunk every
 * signed-in page loads (docs/decisions/140).
 */
const BILLING_RULES = /packages[\\/]contract[\\/]src[\\/]billing-details-rules\./;
const isSharedCode = (id: string) => SHARED_CODE.test(id) && !BILLING_RULES.test(id);
/**
 * The components a feature's page shares with its dialogs: one chunk per feature (`billing`),
 * which only that feature's page and dialogs load.
 */
const FEATURE_CODE = /apps[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]components[\\/]/;
/**
 * Validation: zod and the contract's modules that build schemas with it. The billing page loads
 * them at the customer's first key or pointer press, off its first paint (docs/decisions/140);
 * other pages with forms load them with the form code, in the same round.
 */
const isValidationCode = (id: string) =>
  /node_modules[\\/]zod[\\/]/.test(id) ||
  (/packages[\\/]contract[\\/]src[\\/]/.test(id) && /from 'zod'/.test(readFileSync(id, 'utf8')));
const isFormCode = (id: string) => FORM_CODE.test(id) || isValidationCode(id);

export default defineConfig({
  root: here('.'),
  // app.html: index.html with the signed-in shell's code preloaded, for pages under /app (docs/decisions/125).
  // The first screen's code (the first chunk, the kit, the signed-in shell) is compiled while it
  // downloads (docs/decisions/131).
  plugins: [
    react(),
    preloadFont(),
    sectionPage('src/app/layouts/app-layout.tsx', 'app.html'),
    compileHints((chunk) => chunk.isEntry || chunk.name === 'kit' || chunk.name === 'app-layout'),
    precompress(),
  ],
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
    // (only pages with forms load it), and our shared code: components, the features' API
    // endpoints, the UI kit's and the contract's modules (docs/decisions/038, 132).
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'kit', test: (id) => /node_modules[\\/]/.test(id) && !isFormCode(id), minShareCount: 2, priority: 2 },
            // Without the modules they import (the contract's plain rules, which pages use as they render).
            {
              name: 'validation',
              test: isValidationCode,
              minShareCount: 2,
              priority: 1.5,
              includeDependenciesRecursively: false,
            },
            { name: 'forms', test: isFormCode, minShareCount: 2, priority: 1 },
            { name: 'shared', test: isSharedCode, minShareCount: 2 },
            {
              name: (id) => (BILLING_RULES.test(id) ? 'billing' : FEATURE_CODE.exec(id)?.[1]),
              test: (id) => FEATURE_CODE.test(id) || BILLING_RULES.test(id),
              minShareCount: 2,
            },
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
