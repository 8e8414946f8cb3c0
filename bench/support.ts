import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function ensureWebBuild() {
  if (existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('web build failed');
}

export { freePort } from '../e2e/portal-server';

/** Runs `npm start` (scripts/start.mjs) and resolves with the time until the server reports ready. */
export async function startPortal(
  env: Record<string, string>,
): Promise<{ ms: number; child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
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

export const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
