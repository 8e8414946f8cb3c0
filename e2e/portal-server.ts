import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, portTaken } from '../apps/server/test/free-port';

const root = path.resolve(import.meta.dirname, '..');

export type Portal = {
  baseUrl: string;
  /** The vendor console's origin (its own listener on another free port). */
  consoleUrl: string;
  dataDir: string;
  /** The server's own PostgreSQL database, when it runs on one. */
  databaseUrl: string | undefined;
  stop: () => Promise<void>;
};

/** The console's first owner in every browser test server (CONSOLE_BOOTSTRAP_EMAIL). */
export const CONSOLE_OWNER = 'owner@vendor.example';

/**
 * Starts the real server (production build of the web app and the console) in its own process: its
 * own DATA_DIR, a free port for the portal and another for the vendor console (whose first owner is
 * CONSOLE_OWNER), and a new PostgreSQL database instead of PGlite when TEST_DATABASE_URL is set.
 * `env` adds to or overrides the embedded defaults (for example Stripe's settings).
 */
export async function startPortal(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<Portal> {
  // A port taken in the moment before the server bound it (another run beside this one): again on others.
  for (let attempt = 1; ; attempt++) {
    const started = await startPortalOnce(env, opts.postgres ?? process.env.TEST_DATABASE_URL);
    if (started.portal) return started.portal;
    if (attempt >= 5 || !portTaken(started.output)) throw started.error;
  }
}

export type StartOptions = {
  /**
   * A PostgreSQL server (any database's URL on it) where the server gets a new database of its own,
   * even when the run is on PGlite: for tests that must reach the server's data (databaseUrl).
   */
  postgres?: string | undefined;
};

async function startPortalOnce(
  env: Record<string, string>,
  postgres: string | undefined,
): Promise<{ portal: Portal; output?: undefined; error?: undefined } | { portal?: undefined; output: string; error: Error }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const consolePort = await freePort();
  const consoleUrl = `http://localhost:${consolePort}`;
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (postgres) {
    dbName = `portal_e2e_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: postgres });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(postgres);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const all: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_LINK_PER_ADDRESS: '0',
    RATE_LIMIT_LICENSE: '0',
    DOCS_URL: 'https://docs.example.com',
    // The demo ISO is the default only on the embedded database; the download tests need it on PostgreSQL too.
    DEMO_RELEASE: 'true',
    CONSOLE_PORT: String(consolePort),
    CONSOLE_HOST: '127.0.0.1',
    CONSOLE_PUBLIC_URL: consoleUrl,
    CONSOLE_BOOTSTRAP_EMAIL: CONSOLE_OWNER,
    // The console's specs are about what staff do; the second factor's spec starts a server of its
    // own with the shipped default (owner,billing) and goes through it in the browser.
    CONSOLE_REQUIRE_SECOND_FACTOR: 'none',
    ...env,
  };
  delete all.DATABASE_URL;
  if (databaseUrl) all.DATABASE_URL = databaseUrl;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')], {
    cwd: root,
    env: all,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  // The server's errors go to the run's log, and are kept to tell a taken port from other failures.
  let output = '';
  server.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    output = (output + chunk.toString()).slice(-20_000);
  });
  const removeData = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const c = new pg.Client({ connectionString: postgres });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    }
  };
  const error = await new Promise<Error | undefined>((resolve) => {
    // Waits for the ready message; the timer only guards against a hang.
    const timer = setTimeout(() => resolve(new Error('server did not start within 180 s')), 180_000);
    server.on('message', (m: { ready?: boolean }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      resolve(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  if (error) {
    if (server.exitCode === null) server.kill('SIGKILL');
    await removeData();
    return { output, error };
  }
  return {
    portal: {
      baseUrl,
      consoleUrl,
      dataDir,
      databaseUrl,
      stop: async () => {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
        await removeData();
      },
    },
  };
}
