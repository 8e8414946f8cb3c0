// The server as one ES module bundle (apps/server/dist/server.mjs): `npm start` runs it with plain
// node, which starts about a second sooner than compiling the TypeScript sources with tsx on every
// start. Dependencies stay in node_modules (external); the contract package is bundled from source.
// `node scripts/build-server.mjs` builds; `--if-stale` builds only when a source is newer.
// SERVER_BUNDLE in the environment moves the bundle (somewhere under apps/server, where it finds
// its migrations): each test run bundles into a folder of its own, so two runs side by side never
// rewrite the file the other is starting.
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = process.env.SERVER_BUNDLE
  ? path.resolve(process.env.SERVER_BUNDLE)
  : path.join(root, 'apps/server/dist/server.mjs');
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

/**
 * Bundles the server to `outfile` (SERVER_BUNDLE unless given). Each file is written beside its place and renamed into it,
 * so a server starting meanwhile reads the old bundle or the new one, never half of one.
 */
export async function buildServer(outfile = SERVER_BUNDLE) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@portal/contract': path.join(root, 'packages/contract/src/index.ts') },
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  // The map before the bundle that names it.
  const isMap = (file) => file.path.endsWith('.map');
  for (const file of [...outputFiles.filter(isMap), ...outputFiles.filter((f) => !isMap(f))]) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || serverBundleStale()) {
    const t0 = performance.now();
    await buildServer();
    console.log(`Server bundle written to ${path.relative(root, SERVER_BUNDLE)} in ${Math.round(performance.now() - t0)} ms`);
  }
}
