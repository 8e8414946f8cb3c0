import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { onServerCores } from './cores';

export const root = path.resolve(import.meta.dirname, '..');

export function ensureWebBuild() {
  if (existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('web build failed');
}

import { freePort } from '../apps/server/test/free-port';

export { freePort };

/** Runs `npm start` (scripts/start.mjs) and resolves with the time until the server reports ready. */
export async function startPortal(
  env: Record<string, string>,
): Promise<{ ms: number; child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const t0 = performance.now();
  const child = spawn(...onServerCores(process.execPath, [path.join(root, 'scripts/start.mjs')]), {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean; url?: string }) => m.ready && resolve(m.url ?? ''));
    child.on('exit', (code) => reject(new Error(`portal exited with ${code}`)));
  });
  const ms = performance.now() - t0;
  return {
    ms,
    child,
    url,
    stop: () =>
      new Promise((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The portal exactly as `npm start` runs it (scripts/start.mjs: the server bundle under plain node,
 * NODE_ENV=production), on a free port of 127.0.0.1 with the console off. Answers the server
 * process's own pid (not npm start's), so its CPU time can be read. With `nodeArgs` (a CPU profile:
 * node refuses it in NODE_OPTIONS) the bundle npm start runs is started directly with them, after
 * npm start's own build step.
 */
export async function startServerOfNpmStart(
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; quiet?: boolean } = {},
): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const childEnv = { ...env, HOST: '127.0.0.1', PORT: String(port), CONSOLE_PORT: '0' };
  let args = [path.join(root, 'scripts/start.mjs')];
  if (opts.nodeArgs) {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), '--if-stale'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the server bundle could not be built');
    args = [...opts.nodeArgs, '--enable-source-maps', path.join(root, 'apps/server/dist/server.mjs')];
    Object.assign(childEnv, { NODE_ENV: 'production' });
  }
  const child = spawn(...onServerCores(process.execPath, args), {
    cwd: root,
    env: childEnv,
    // quiet: the server's own log lines are discarded, errors still shown.
    stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const pid = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean; pid?: number }) => {
      if (m.ready && m.pid) resolve(m.pid);
    });
    child.once('exit', (code, signal) => reject(new Error(`the server exited with ${code ?? signal} before it was ready`)));
  });
  return {
    port,
    pid,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', kill);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
