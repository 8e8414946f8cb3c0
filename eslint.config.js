// Lint: typed TypeScript rules, and the dependency boundaries (features do not import
// each other; the web app never imports server code; the contract depends on zod alone), with
// ESLint's own no-restricted-imports (see docs/decisions/017-lint-boundaries.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FEATURES = ['auth', 'onboarding', 'dashboard', 'licenses', 'billing', 'support', 'downloads', 'profile'];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

// The two apps never import each other: what both use is the UI kit (packages/ui, `@portal/ui`) and
// the contract's display rules (ADR 036).
const CONSOLE_FEATURES = ['auth', 'search', 'customers', 'overview', 'lists', 'staff', 'audit', 'webhooks', 'security'];
const NO_SERVER = {
  group: ['**/apps/server/**', '@portal/server', '@portal/server/*'],
  message: 'The apps never import server code.',
};
const CONSOLE_BASE = [
  NO_SERVER,
  {
    group: ['@web', '@web/*', '**/apps/web/**', '**/web/src/**', '@portal/web', '@portal/web/*'],
    message: 'The console never imports the portal app: shared UI is in @portal/ui, display rules in @portal/contract.',
  },
];
const WEB_BASE = [
  NO_SERVER,
  {
    group: ['**/apps/console/**', '**/console/src/**', '@portal/console', '@portal/console/*'],
    message: 'The portal never imports the console app: shared UI is in @portal/ui, display rules in @portal/contract.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/drizzle/**',
      'data/**',
      '.tmp/**',
      'coverage/**',
      'examples/**',
      '**/*.config.*',
      'scripts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-control-regex': 'off',
    },
  },
  { files: ['apps/web/**'], rules: restrict(WEB_BASE) },
  {
    files: ['packages/ui/**'],
    rules: restrict([
      {
        group: ['**/apps/**', '@web', '@web/*', '@portal/server', '@portal/web', '@portal/console'],
        message: 'The UI kit depends on no app.',
      },
    ]),
  },
  {
    files: ['apps/server/**'],
    rules: restrict([
      { group: ['**/apps/web/**', '@portal/web', '@portal/web/*'], message: 'The server never imports web code.' },
    ]),
  },
  {
    // Outside systems sit behind interfaces the domain calls; they never reach back into it.
    files: ['apps/server/src/providers/**'],
    rules: restrict([
      {
        group: ['**/modules/**', '../modules/*', '../../modules/*'],
        message: 'Providers do not import modules; the domain calls them.',
      },
      { group: ['**/apps/web/**', '@portal/web', '@portal/web/*'], message: 'The server never imports web code.' },
    ]),
  },
  {
    files: ['packages/contract/**'],
    rules: restrict([{ group: ['**/apps/**', '@portal/server', '@portal/web'], message: 'The contract depends on zod alone.' }]),
  },
  {
    files: ['apps/web/src/components/**', 'apps/web/src/lib/**'],
    rules: restrict([
      { group: ['**/features/**', '**/app/**'], message: 'Shared code does not depend on features or the app shell.' },
      ...WEB_BASE,
    ]),
  },
  ...FEATURES.map((f) => ({
    files: [`apps/web/src/features/${f}/**`],
    // Tests may build the real store of the app around the feature they test.
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: restrict([
      {
        group: FEATURES.filter((o) => o !== f).flatMap((o) => [
          `**/features/${o}`,
          `**/features/${o}/**`,
          ...['..', '../..', '../../..'].flatMap((up) => [`${up}/${o}`, `${up}/${o}/**`]),
        ]),
        message: 'Features do not import each other; compose them in src/app.',
      },
      { group: ['**/app/**', '../../app/*'], message: 'Features do not import the app shell.' },
      // A later block replaces this rule for the files it matches, so the web-wide boundary is repeated.
      ...WEB_BASE,
    ]),
  })),
  { files: ['apps/console/**'], rules: restrict(CONSOLE_BASE) },
  {
    files: ['apps/console/src/components/**', 'apps/console/src/lib/**'],
    rules: restrict([
      ...CONSOLE_BASE,
      {
        group: ['../features/**', '../../features/**', '../app/**', '../../app/**'],
        message: 'Shared code does not depend on features or the app shell.',
      },
    ]),
  },
  ...CONSOLE_FEATURES.map((f) => ({
    files: [`apps/console/src/features/${f}/**`],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: restrict([
      ...CONSOLE_BASE,
      {
        group: CONSOLE_FEATURES.filter((o) => o !== f).flatMap((o) => [
          ...['..', '../..', '../../..'].flatMap((up) => [`${up}/${o}`, `${up}/${o}/**`]),
        ]),
        message: 'Console features do not import each other; compose them in src/app.',
      },
      { group: ['../../app/**', '../../../app/**'], message: 'Features do not import the app shell.' },
    ]),
  })),
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', '**/test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
