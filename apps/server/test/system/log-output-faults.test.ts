import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canConnect,
  cleanup,
  createDatabase,
  freePort,
  liveProcessesInGroup,
  request,
  ROOT,
  SHARED_DATABASE_URL,
  tempDir,
  track,
  waitFor,
  type Exit,
} from './harness';

const START = path.join(ROOT, 'scripts/start.mjs');
/** The server's own force-exit timer (server.ts): the longest a shutdown may take. */
const GRACE_MS = 10_000;
/** Hang guard only: generous enough for a machine four times slower, still far short of "never". */
const HANG_GUARD_MS = GRACE_MS + 50_000;

/**
 * `npm start`'s process tree (scripts/start.mjs and the server it runs) in a process group of its
 * own, with its standard output going to a reader the test controls: `cat` into /dev/null, which
 * stands for a `| tee` in a terminal or a supervisor's log collector. SIGSTOP makes it stall with
 * the pipe still open; SIGKILL makes it go away.
 */
async function startBehindReader(database: Record<string, string>) {
  const reader = spawn('cat', [], { stdio: ['pipe', 'ignore', 'ignore'] });
  const readerExited = new Promise((resolve) => reader.once('exit', resolve));
  track(async () => {
    reader.kill('SIGKILL');
    await readerExited;
  }, readerExited);

  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [START], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', reader.stdin!, 'pipe', 'ipc'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      CONSOLE_PORT: '0',
      DATA_DIR: tempDir('portal-sys-log-'),
      // Two lines per request: load fills a stalled pipe within a few thousand requests.
      LOG_LEVEL: 'info',
      // This run's bundle (vitest.config.ts), fresh: `npm start` need not bundle the server again.
      ...(process.env.SERVER_BUNDLE ? { SERVER_BUNDLE: process.env.SERVER_BUNDLE } : {}),
      ...database,
    },
  });
  // From now on only the server's processes hold the pipe's writing end.
  reader.stdin!.destroy();
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-20_000)));
  const pgid = child.pid!;
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  track(async () => {
    for (const pid of liveProcessesInGroup(pgid)) process.kill(pid, 'SIGKILL');
    await exited;
  }, exited);
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean }) => m?.ready && resolve());
    void exited.then((e) => reject(new Error(`exited (${e.code ?? e.signal}) before it was ready:\n${stderr}`)));
  });
  return { url, reader, pgid, exited, stderr: () => stderr };
}

/** Sends `count` health checks, twenty at a time; answers how many were answered 200. */
async function load(url: string, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  let sent = 0;
  let ok = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      // A hang guard: a server whose main thread is blocked never answers at all.
      const res = await request(`${url}/api/health/live`, { agent, timeoutMs: 30_000 });
      if (res.status === 200) ok++;
    }
  };
  try {
    await Promise.all(Array.from({ length: 20 }, worker));
  } finally {
    agent.destroy();
  }
  return ok;
}

const hasPostgres = await canConnect(SHARED_DATABASE_URL);
const databases: [string, boolean, () => Promise<Record<string, string>>][] = [
  ['PGlite', true, async () => ({})],
  ['PostgreSQL', hasPostgres, async () => ({ DATABASE_URL: await createDatabase() })],
];

/**
 * Logs are written off the request path: a log reader that stalls or goes away costs log lines,
 * never answers, and never a shutdown. (Before: synchronous writes to a full pipe blocked the main
 * thread in a retry loop, so requests hung and SIGTERM's force-exit timer never ran.)
 */
describe.each(databases)('standard output whose reader stalls or goes away (%s)', (_name, available, database) => {
  afterEach(cleanup);

  it.runIf(available).each(['stalls', 'goes away'] as const)(
    'the reader %s under load: requests are still answered, and SIGTERM to the process group ends every process within the grace period',
    async (fate) => {
      const portal = await startBehindReader(await database());
      expect(await load(portal.url, 200)).toBe(200);

      // The reader stops reading: the pipe fills after a few hundred requests' logs.
      portal.reader.kill('SIGSTOP');
      expect(await load(portal.url, 4000)).toBe(4000);

      // As Ctrl-C on `npm start | tee` or a supervisor stopping the service and its log collector.
      process.kill(-portal.pgid, 'SIGTERM');
      if (fate === 'goes away') portal.reader.kill('SIGKILL');

      await waitFor('every process of the group to exit', () => liveProcessesInGroup(portal.pgid).length === 0, HANG_GUARD_MS);
      // A graceful exit, not the force-exit timer's exit code 1 nor a kill.
      expect(await portal.exited, portal.stderr()).toEqual({ code: 0, signal: null });
    },
  );

  it.runIf(available)(
    'the reader stalls and a request never finishes: the force-exit timer still runs and ends every process within the grace period',
    async () => {
      const portal = await startBehindReader(await database());
      portal.reader.kill('SIGSTOP');
      expect(await load(portal.url, 4000)).toBe(4000);
      // Headers taken (100 Continue), body never sent: in flight until the request timeout (30 s),
      // so closing cannot finish within the grace period.
      const hung = http.request(`${portal.url}/api/auth/link`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': '100', expect: '100-continue' },
      });
      hung.on('error', () => {});
      await new Promise((resolve) => hung.once('continue', resolve));

      process.kill(-portal.pgid, 'SIGTERM');
      await waitFor('every process of the group to exit', () => liveProcessesInGroup(portal.pgid).length === 0, HANG_GUARD_MS);
      hung.destroy();
      // The server's own timer ended it (exit 1), not npm start's backstop kill.
      expect(await portal.exited, portal.stderr()).toEqual({ code: 1, signal: null });
      expect(portal.stderr()).not.toContain('did not exit within');
    },
  );
});
