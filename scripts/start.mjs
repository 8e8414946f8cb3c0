// `npm start`: build the web app and the vendor console when they have not been built yet, bundle
// the server when a source changed since the last bundle, then serve both from the bundle with
// plain node.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, SERVER_BUNDLE, serverBundleStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APPS = [
  { workspace: 'apps/web', name: 'the web app' },
  { workspace: 'apps/console', name: 'the vendor console' },
];

for (const app of APPS) {
  if (existsSync(path.join(root, app.workspace, 'dist/index.html')) && !process.argv.includes('--rebuild')) continue;
  console.log(`Building ${app.name} (first start only)...`);
  const build = spawnSync('npm', ['run', 'build', '-w', app.workspace], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBundleStale()) await buildServer();

// Source maps: stack traces in the logs name the TypeScript sources.
const server = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { NODE_ENV: 'production', ...process.env },
});
// Forward readiness to a parent process (the start-up benchmark listens for it).
server.on('message', (m) => process.send?.(m));
// The server exits within its 10 s grace period by itself; should it ever not, it is killed
// a little later, so `npm start` never outlives a stop request.
let backstop;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.kill(signal);
    backstop ??= setTimeout(() => {
      console.error(`The server did not exit within 15 s of ${signal}: killing it.`);
      server.kill('SIGKILL');
    }, 15_000).unref();
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
