// The server as one ES module bundle (apps/server/dist/server.mjs): `npm start` runs it with plain
// node, which starts about a second sooner than compiling the TypeScript sources with tsx on every
// start. Dependencies stay in node_modules (external); the contract package is bundled from source.
// `node scripts/build-server.mjs` builds; `--if-stale` builds only when a source is newer.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/server.mjs');
const SOURCES = ['apps/server/src', 'packages/contract/src'].map((d) => path.join(root, d));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** True when the bundle is missing or older than a source file. */
export function serverBundleStale() {
  let built = 0;
  try {
    built = statSync(SERVER_BUNDLE).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((dir) => newestSource(dir) > built);
}

export async function buildServer() {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@portal/contract': path.join(root, 'packages/contract/src/index.ts') },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || serverBundleStale()) {
    const t0 = performance.now();
    await buildServer();
    console.log(`Server bundle written to ${path.relative(root, SERVER_BUNDLE)} in ${Math.round(performance.now() - t0)} ms`);
  }
}
