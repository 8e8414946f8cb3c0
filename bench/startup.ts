import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureWebBuild, freePort, round, startPortal } from './support';

/** Time from `npm start` to ready on the embedded defaults: a first start and a later one. */
export async function startupBench() {
  ensureWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  try {
    const port = String(await freePort());
    const env = { DATA_DIR: dataDir, PORT: port };
    const first = await startPortal(env);
    await first.stop();
    const later: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await startPortal(env);
      later.push(p.ms);
      await p.stop();
    }
    later.sort((a, b) => a - b);
    return {
      'first start (ms)': { value: round(first.ms), target: '' },
      'later start, median of 3 (ms)': { value: round(later[1]!), target: '< 3000' },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
