import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  freePort,
  processState,
  request,
  ROOT,
  runToExit,
  serverArgs,
  serverEnv,
  someDatabase,
  startServer,
  tempDir,
  track,
  waitFor,
  WEB_INDEX,
} from './harness';

/** `.env.example` as `node --env-file` reads it, less what the harness sets for each server. */
function envExample(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n')) {
    const m = line.match(/^([A-Z0-9_]+)=(.*)$/);
    if (m && !['PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR', 'LOG_LEVEL', 'CONSOLE_PORT'].includes(m[1]!)) env[m[1]!] = m[2]!;
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

  it.runIf(existsSync('/proc/self/stat'))(
    'a restart right after kill -9 starts while the killed server is still a zombie (not yet reaped by its parent)',
    async () => {
      const dataDir = tempDir('portal-sys-zombie-');
      const port = await freePort();
      // The first server's parent is `sleep`, which never reaps children: once killed, the server
      // stays a zombie, as it does until a supervisor (or npm start's node) gets round to it.
      const parent = spawn('sh', ['-c', '"$0" "$@" & echo "pid $!" >&2; exec sleep 600', process.execPath, ...serverArgs()], {
        cwd: ROOT,
        env: serverEnv(port, dataDir),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let output = '';
      parent.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const parentExited = new Promise((resolve) => parent.once('exit', resolve));
      track(async () => {
        parent.kill('SIGKILL');
        await parentExited;
      }, parentExited);
      const pid = await waitFor('the first server to start', () => Number(output.match(/^pid (\d+)$/m)?.[1]) || undefined);
      track(async () => {
        if (processState(pid) && processState(pid) !== 'Z') process.kill(pid, 'SIGKILL');
      }, parentExited);
      await waitFor(
        `the first server to be ready:\n${output}`,
        () => request(`http://localhost:${port}/api/health/ready`).then((r) => r.status === 200),
        300_000,
        200,
      );

      process.kill(pid, 'SIGKILL');
      await waitFor('the killed server to be a zombie', () => processState(pid) === 'Z');
      const restarted = await startServer({ dataDir });
      expect((await request(`${restarted.url}/api/health/ready`)).status).toBe(200);
      // It started while the crashed one was still a zombie.
      expect(processState(pid)).toBe('Z');
      expect((await restarted.stop()).code).toBe(0);
    },
  );

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
