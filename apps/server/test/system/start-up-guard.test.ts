import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, request, ROOT, runToExit, someDatabase, startServer, tempDir, WEB_INDEX } from './harness';

/** `.env.example` as `node --env-file` reads it, less what the harness sets for each server. */
function envExample(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n')) {
    const m = line.match(/^([A-Z0-9_]+)=(.*)$/);
    if (m && !['PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR', 'LOG_LEVEL'].includes(m[1]!)) env[m[1]!] = m[2]!;
  }
  return env;
}

/** Start-up refuses what would corrupt data or run misconfigured, and says why. */
describe('start-up guard', () => {
  afterAll(cleanup);

  it('a second server on the same PGlite DATA_DIR refuses to start, naming the running one; a crashed one leaves no obstacle', async () => {
    const dataDir = tempDir('portal-sys-guard-');
    const first = await startServer({ dataDir });

    const second = await runToExit({ dataDir });
    expect(second.code).not.toBe(0);
    expect(second.code).not.toBeNull();
    expect(second.output).toContain(`Another portal process (pid ${first.pid}) is using DATA_DIR`);
    // The refused start did not disturb the running server.
    expect((await request(`${first.url}/api/health/ready`)).status).toBe(200);

    // A crash leaves the lock file behind with a dead pid: the next start takes it over.
    first.kill('SIGKILL');
    await first.waitForExit();
    const third = await startServer({ dataDir });
    expect((await request(`${third.url}/api/health/ready`)).status).toBe(200);
    const exit = await third.stop();
    expect(exit.code).toBe(0);
  });

  it.concurrent.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'ftp://portal.example.com'],
    ['SESSION_IDLE_DAYS', '0'],
  ])('a bad %s stops start-up with exit code 78 and a message naming it', async (name, value) => {
    const { code, output } = await runToExit({ env: { [name]: value } });
    expect(code).toBe(78);
    expect(output).toContain('Invalid configuration');
    expect(output).toMatch(new RegExp(`^\\s*${name}: `, 'm'));
  });

  // `npm start` serves the built web app beside the API; a start-up crash with the build present
  // once went unnoticed by the API tests, which never serve it.
  // npm test builds the web app before the unit tests, so this always runs there.
  it.runIf(existsSync(WEB_INDEX) || !!process.env.CI)('starts with the built web app and serves it beside the API', async () => {
    const server = await startServer({ env: await someDatabase() });
    const page = await request(`${server.url}/licenses`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const missing = await request(`${server.url}/api/no-such-thing`);
    expect(missing.status).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });

  it('starts with every variable set as .env.example sets it', async () => {
    const server = await startServer({ env: envExample() });
    expect((await request(`${server.url}/api/health/ready`)).status).toBe(200);
  });

  it('a bad TRUST_PROXY stops start-up with exit code 78 and a message naming it', async () => {
    const { code, output } = await runToExit({ env: { TRUST_PROXY: 'proxy.internal' } });
    expect(output).toMatch(/^\s*TRUST_PROXY: /m);
    expect(code).toBe(78);
  });
});
