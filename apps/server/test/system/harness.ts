import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { vi } from 'vitest';
import { SERVER_BUNDLE } from '../../../../scripts/build-server.mjs';
import { freePort, portTaken } from '../free-port';

// These tests start whole server processes (tsx, migrations, PGlite): on a busy 2-core machine one
// start can take a minute, so they wait for the signal they expect rather than for a clock.
// Hang guards only (never budgets): a machine four times slower, busy with another suite, must pass.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 600_000 });

/**
 * Process-level test harness: real `server.ts` processes (spawned the way e2e/global-setup.ts does),
 * databases on the shared PostgreSQL, a throwaway PostgreSQL server the tests may stop, and the
 * outbox's .eml files. Every process and server started here is registered, so `cleanup()` in an
 * afterEach/afterAll ends it even when a test fails half-way.
 */

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/src/server.ts');
/** The bundle `npm start` runs (scripts/build-server.mjs); in tests, one per run (vitest.config.ts). */
export { SERVER_BUNDLE };
export const WEB_INDEX = path.join(ROOT, 'apps/web/dist/index.html');

export const SHARED_DATABASE_URL =
  process.env.SYSTEM_TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.SYSTEM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
/**
 * For a server whose test is about data surviving a kill or several instances, not about latency:
 * on a busy CI machine (three suites on two cores) a request waited more than the default 5 s for
 * a connection or a query and answered 503, so these tests give PostgreSQL a minute (ADR 137).
 * Tests of the timeout itself keep the default.
 */
export const PATIENT_DATABASE = { DATABASE_TIMEOUT_MS: '60000' } as const;
const PG_BIN = process.env.SYSTEM_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = process.env.SYSTEM_TEST_REDIS_SERVER ?? '/usr/bin/redis-server';

const processes = new Set<() => Promise<void>>();
const resources: (() => Promise<void>)[] = [];
/**
 * Ends every server process this file started and is still running, then drops its databases,
 * stops its PostgreSQL and removes its folders; call from afterEach/afterAll.
 */
export async function cleanup() {
  await Promise.allSettled([...processes].map((stop) => stop()));
  processes.clear();
  for (const release of resources.splice(0).reverse()) await release().catch(() => {});
}

/** Registers a process (or anything else) that `cleanup()` must end. */
export function track(stop: () => Promise<void>, done: Promise<unknown>) {
  processes.add(stop);
  void done.then(() => processes.delete(stop));
}

/** A process's state letter from /proc/<pid>/stat (R, S, Z for a zombie, ...); undefined once it is gone. Linux. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** The processes of process group `pgid` that still run (zombies, which have finished, are left out). Linux. */
export function liveProcessesInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const d of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(d));
    } catch {
      // gone while we looked
    }
  }
  return live;
}

export const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  resources.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

export const uniqueId = () => randomBytes(4).toString('hex');

export { freePort };

/** Polls `check` until it answers a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  // A hang guard, not a budget: a machine four times slower, or running another suite beside
  // this one, takes as long as it takes (a sign-in e-mail once took over 10 s under load 25).
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: Error | undefined;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err instanceof Error ? err : new Error(JSON.stringify(err));
    }
    if (Date.now() > until)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// ---------------------------------------------------------------- server processes

export type ServerOptions = {
  /** Configuration on top of the defaults below (PORT, PUBLIC_URL, DATA_DIR, LOG_LEVEL=warn). */
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
  /** What runs: the TypeScript sources with tsx (default), or the bundle `npm start` runs. */
  entry?: 'source' | 'bundle';
};

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A server's environment: nothing of the caller's configuration leaks in, only what a shell needs, then ours. */
export function serverEnv(port: number, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The console's listener has a fixed default port: servers started side by side would collide.
    // A test that wants the console passes CONSOLE_PORT (a freePort()) in `extra`.
    CONSOLE_PORT: '0',
    ...extra,
  };
}

/** Node's arguments for the TypeScript sources (tsx) or the bundle `npm start` runs. */
export const serverArgs = (entry: 'source' | 'bundle' = 'source') =>
  entry === 'bundle' ? ['--enable-source-maps', SERVER_BUNDLE] : ['--import', 'tsx', SERVER_ENTRY];

export class ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<Exit>;
  output = '';
  private exit: Exit | undefined;

  private constructor(
    readonly options: Required<Omit<ServerOptions, 'env' | 'entry'>> & {
      env: Record<string, string>;
      entry: 'source' | 'bundle';
    },
  ) {
    this.url = `http://localhost:${options.port}`;
    const env = serverEnv(options.port, options.dataDir, options.env);
    const args = serverArgs(options.entry);
    this.child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const keep = (chunk: Buffer) => {
      // Enough to explain a failure; a chatty server must not grow the test's memory without bound.
      this.output = (this.output + chunk.toString()).slice(-100_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
    const stop = async () => {
      if (this.alive) this.child.kill('SIGKILL');
      await this.exited;
    };
    processes.add(stop);
    void this.exited.then(() => processes.delete(stop));
  }

  /** Spawns a server and resolves once it has sent its IPC ready message. */
  static async start(opts: ServerOptions & { port: number }): Promise<ServerProcess> {
    const server = ServerProcess.spawn(opts);
    await server.ready();
    return server;
  }

  /** Spawns a server without waiting (for start-ups expected to fail). */
  static spawn(opts: ServerOptions & { port: number }): ServerProcess {
    return new ServerProcess({
      env: opts.env ?? {},
      dataDir: opts.dataDir ?? tempDir('portal-sys-'),
      port: opts.port,
      entry: opts.entry ?? 'source',
    });
  }

  /**
   * Resolves on the IPC ready message; rejects with the server's output if it exits first, or if
   * it is still not ready after `timeoutMs`: a hang guard, far beyond a start on a busy machine.
   */
  ready(timeoutMs = 300_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server not ready within ${timeoutMs} ms:\n${this.output}`)), timeoutMs);
      this.child.on('message', (m: { ready?: boolean }) => {
        if (m?.ready) {
          clearTimeout(timer);
          resolve();
        }
      });
      void this.exited.then((e) => {
        clearTimeout(timer);
        reject(new Error(`server exited (code ${e.code}, signal ${e.signal}) before it was ready:\n${this.output}`));
      });
    });
  }

  get pid() {
    return this.child.pid!;
  }
  get port() {
    return this.options.port;
  }
  get dataDir() {
    return this.options.dataDir;
  }
  get alive() {
    return this.exit === undefined;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM') {
    this.child.kill(signal);
  }

  /** Resolves with how the process ended, or rejects if it is still running after `timeoutMs`. */
  async waitForExit(timeoutMs = 60_000): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`process ${this.pid} still running after ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the process (SIGKILL unless given) and starts a new one on the same port, DATA_DIR and env. */
  async restart(signal: NodeJS.Signals = 'SIGKILL'): Promise<ServerProcess> {
    if (this.alive) {
      this.kill(signal);
      await this.waitForExit();
    }
    return ServerProcess.start(this.options);
  }

  /** Graceful stop; SIGKILL after `timeoutMs` (a hang guard: the server force-exits after 10 s). */
  async stop(timeoutMs = 60_000) {
    if (!this.alive) return this.exit!;
    this.kill('SIGTERM');
    try {
      return await this.waitForExit(timeoutMs);
    } catch {
      this.kill('SIGKILL');
      return this.exited;
    }
  }
}

/**
 * Starts a server on a free port (PORT=0 would leave PUBLIC_URL unknown); on a port taken in the
 * moment before the server bound it (another run beside this one), again on another.
 */
export async function startServer(opts: ServerOptions = {}) {
  if (opts.port !== undefined) return ServerProcess.start({ ...opts, port: opts.port });
  for (let attempt = 1; ; attempt++) {
    const server = ServerProcess.spawn({ ...opts, port: await freePort() });
    try {
      await server.ready();
      return server;
    } catch (err) {
      if (attempt >= 5 || server.alive || !portTaken(server.output)) throw err;
    }
  }
}

/** Runs a server that is expected to refuse to start; resolves with its exit and output. */
export async function runToExit(opts: ServerOptions = {}, timeoutMs = 300_000) {
  const server = ServerProcess.spawn({ ...opts, port: opts.port ?? (await freePort()) });
  const exit = await server.waitForExit(timeoutMs);
  return { ...exit, output: server.output };
}

// ---------------------------------------------------------------- HTTP

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever shape each endpoint answers
export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; json: () => any };
export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * The whole exchange must finish within this, else the promise rejects with code 'TIMEOUT'. By
   * default a hang guard (60 s), not a budget; a test of a time bound the server promises sets it.
   */
  timeoutMs?: number;
  agent?: http.Agent;
};

/** One HTTP exchange over node:http, so a refused or reset connection surfaces as its errno code. */
export function request(url: string, opts: RequestOptions = {}): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...opts.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' })),
      timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(payload);
  });
}

/**
 * Sends again, as a well-behaved client does, while the server answers 503 with Retry-After
 * (its database did not answer in time: a restart on a busy machine), waiting as it asks; at most
 * `tries` sends. Only for requests that are safe to repeat.
 */
export async function honouringRetryAfter(send: () => Promise<Answer>, tries = 5): Promise<Answer> {
  for (let i = 1; ; i++) {
    const answer = await send();
    const wait = Number(answer.headers['retry-after']);
    if (answer.status !== 503 || !(wait > 0) || i >= tries) return answer;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

export const cookieOf = (answer: Answer, name = 'portal_session') => {
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));
  return set?.split(';')[0];
};

// ---------------------------------------------------------------- the outbox's e-mails

export type Mail = { file: string; to: string; secret: string };

/**
 * Every sign-in e-mail in `$DATA_DIR/outbox`. Files without a readable link (one being written, or
 * cut short by a SIGKILL) are listed in `unreadable`.
 */
export function readMails(dataDir: string): { mails: Mail[]; unreadable: string[] } {
  const dir = path.join(dataDir, 'outbox');
  const mails: Mail[] = [];
  const unreadable: string[] = [];
  if (!existsSync(dir)) return { mails, unreadable };
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    const file = path.join(dir, name);
    // Quoted-printable: undo soft line breaks and the escaped '='.
    const raw = readFileSync(file, 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/gi, '=');
    const to = raw
      .match(/^To: *(.+?)\r?$/im)?.[1]
      ?.trim()
      .toLowerCase();
    const secret = raw.match(/[?&]link=([A-Za-z0-9_-]{43})/)?.[1];
    if (to && secret) mails.push({ file, to, secret });
    else unreadable.push(file);
  }
  return { mails, unreadable };
}

export const tokenHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Waits for the sign-in e-mail to `email` in any of `dataDirs` and answers its link secret. */
export async function waitForLink(dataDirs: string | string[], email: string, timeoutMs?: number): Promise<string> {
  const dirs = ([] as string[]).concat(dataDirs);
  return waitFor(
    `a sign-in e-mail to ${email}`,
    () => dirs.flatMap((dir) => readMails(dir).mails).find((m) => m.to === email)?.secret,
    timeoutMs,
  );
}

/**
 * Requests a link on `via` and redeems it on `redeemOn`: answers the cookie. The e-mail is read
 * from the outbox folder of each of `mailers`: with several instances on one database, whichever
 * instance's outbox worker claims the row writes the e-mail into its own DATA_DIR.
 */
export async function signIn(
  via: ServerProcess,
  email: string,
  redeemOn: ServerProcess = via,
  mailers: ServerProcess[] = [via, redeemOn],
): Promise<string> {
  const link = await request(`${via.url}/api/auth/link`, { method: 'POST', body: { email } });
  if (link.status !== 202) throw new Error(`link request answered ${link.status}: ${link.body}`);
  const secret = await waitForLink(
    mailers.map((m) => m.dataDir),
    email,
  );
  const redeemed = await request(`${redeemOn.url}/api/auth/link/${secret}`);
  const cookie = cookieOf(redeemed);
  if (redeemed.status !== 200 || !cookie) throw new Error(`redeeming answered ${redeemed.status}: ${redeemed.body}`);
  return cookie;
}

// ---------------------------------------------------------------- PostgreSQL

export async function canConnect(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

export async function query<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** A new, empty database on the server of `serverUrl`; dropped (with force) at cleanup. */
export async function createDatabase(serverUrl: string = SHARED_DATABASE_URL): Promise<string> {
  const name = `portal_sys_${uniqueId()}`;
  await query(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  resources.push(async () => {
    await query(serverUrl, `drop database if exists ${name} with (force)`).catch(() => {});
  });
  return url.toString();
}

export const hasPostgresBinaries = () => existsSync(path.join(PG_BIN, 'initdb')) && existsSync(path.join(PG_BIN, 'pg_ctl'));

/**
 * A PostgreSQL server of our own, which the tests may stop and start: the machine's shared one must
 * never be. PostgreSQL refuses to run as root, so as root its tools run as the postgres user.
 */
export async function throwawayPostgres() {
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pg-'));
  const pgData = path.join(dir, 'data');
  const port = await freePort();
  const as = async (cmd: string, args: string[]) => {
    const [file, argv] = root
      ? ['runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args]]
      : [path.join(PG_BIN, cmd), args];
    return run(file, argv, { timeout: 60_000 });
  };
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await as('initdb', ['-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const pgCtl = (...args: string[]) => as('pg_ctl', ['-D', pgData, ...args]);
  let running = false;
  const self = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCtl('-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start');
      running = true;
    },
    /**
     * SIGSTOP (or SIGCONT) to the postmaster and every backend: connections stay open but nothing
     * answers, as with a hung host or a network partition.
     */
    freeze(signal: 'SIGSTOP' | 'SIGCONT' = 'SIGSTOP') {
      const postmaster = Number(readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .filter((d) => {
          try {
            // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
            const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
            return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
          } catch {
            return false;
          }
        })
        .map(Number);
      for (const pid of [postmaster, ...children]) process.kill(pid, signal);
    },
    thaw() {
      self.freeze('SIGCONT');
    },
    /** `immediate` is a crash as far as clients can tell: connections drop without goodbye. */
    async stop(mode: 'fast' | 'immediate' = 'fast') {
      await pgCtl('-m', mode, '-w', 'stop');
      running = false;
    },
  };
  resources.push(async () => {
    if (running) {
      try {
        self.thaw();
      } catch {
        // already gone
      }
      await self.stop('immediate').catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  });
  await self.start();
  return self;
}

/**
 * Whether the shared PostgreSQL (and with `redis`, the shared Redis) answers; warns that `tests` are
 * skipped when not. CI has every service: there a missing one fails the tests instead of skipping
 * them, so callers skip with `describe.skipIf(!reachable && !process.env.CI)`.
 */
export async function sharedServicesReachable(tests: string, { redis = false } = {}): Promise<boolean> {
  const reachable = (await canConnect(SHARED_DATABASE_URL)) && (!redis || (await redisReachable()));
  if (!reachable)
    console.warn(`${tests} tests skipped: need PostgreSQL at ${SHARED_DATABASE_URL}${redis ? ` and Redis at ${REDIS_URL}` : ''}`);
  return reachable;
}

async function redisReachable() {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The database for a test that needs one but does not test it: PostgreSQL when reachable, else PGlite. */
export async function someDatabase(): Promise<Record<string, string>> {
  return (await canConnect(SHARED_DATABASE_URL)) ? { DATABASE_URL: await createDatabase() } : {};
}

// ---------------------------------------------------------------- Redis

export const hasRedisServer = () => existsSync(REDIS_SERVER);

/** A Redis server of our own, which the tests may stop and start again on the same port. */
export async function throwawayRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const self = {
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      const c = child;
      exited = new Promise((resolve) => c.once('exit', resolve));
      await waitFor('redis to listen', () => canConnectTcp(port), 120_000, 50);
    },
    /** SIGKILL: clients see their connections reset, as when the host fails. */
    async stop() {
      child?.kill('SIGKILL');
      await exited;
      child = undefined;
    },
  };
  const stop = () => self.stop();
  processes.add(stop);
  await self.start();
  return self;
}

function canConnectTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function drizzleMigrationCount(url: string): Promise<number> {
  const [row] = await query<{ n: number }>(url, 'select count(*)::int as n from drizzle.__drizzle_migrations');
  return row!.n;
}

export const migrationFiles = () =>
  (JSON.parse(readFileSync(path.join(ROOT, 'apps/server/drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries
    .length;
