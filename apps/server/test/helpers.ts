import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOverrides } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, PGLITE_EXTENSIONS, type Database } from '../src/db/client';
import { manualClock } from '../src/lib/clock';
import { smtpMailer, type MailMessage, type Mailer } from '../src/providers/mail/mailer';
import { reportingStall } from './stall-report';

/** The PGlite template's bytes (40 MB), read once per worker: the files of a run share one module graph. */
let template: { file: string; bytes: Buffer } | undefined;

/**
 * The template as PGlite reads a dump: it asks only for the bytes. A Blob of the file's contents
 * cost each clone a copy on creation and a slow chunked read back (about a third of a clone's CPU
 * time); this hands over a copy of the bytes read once.
 */
class TemplateDump extends Blob {
  constructor(private readonly contents: ArrayBuffer) {
    super([]);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.contents);
  }
}

function templateDump(): Blob {
  const file = inject('pgliteTemplate');
  if (template?.file !== file) template = { file, bytes: readFileSync(file) };
  // A copy per clone: what PGlite keeps of the dump never reaches another file's database.
  return new TemplateDump(new Uint8Array(template.bytes).buffer);
}

/**
 * A fresh, migrated database for one test file: a clone of the PGlite template, or a copy of the
 * migrated template database on the PostgreSQL server of TEST_DATABASE_URL (dropped again on close;
 * `url` is its address).
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    return openDatabase({ pglite: new PGlite({ loadDataDir: templateDump(), extensions: PGLITE_EXTENSIONS }) });
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // A copy of the run's migrated template (global-setup.ts); opening it below finds every migration run.
  const template = inject('pgTemplate');
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  // The query timeout is a hang guard here, not the server's 5 s: on a busy machine (CI runs the
  // browser tests beside this run) a plain count waited past 5 s for the CPU and failed the test.
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 20, timeoutMs: 120_000 });
  return {
    ...database,
    url: target.toString(),
    close: async () => {
      await reportingStall(
        `closing test database ${name}`,
        () => database.close(),
        () => sessionsOf(url, name),
      );
      await reportingStall(
        `dropping test database ${name}`,
        async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`);
          await c.end();
        },
        () => sessionsOf(url, name),
      );
    },
  };
}

/** The sessions PostgreSQL has open on database `name`, one line each (for a stall report). */
async function sessionsOf(url: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
  await c.connect();
  try {
    const { rows } = await c.query<Record<string, unknown>>(
      `select pid, application_name, state, wait_event_type, wait_event, now() - xact_start as in_transaction, left(query, 200) as query
         from pg_stat_activity where (datname = $1 or query ilike '%' || $1 || '%') and pid <> pg_backend_pid()`,
      [name],
    );
    return rows.map((r) => JSON.stringify(r)).join('\n') || '(no sessions)';
  } finally {
    await c.end();
  }
}

/**
 * Puts the migrated PGlite template in `dataDir`, as a server that has run there leaves it (a new
 * DATA_DIR would cost an initdb and every migration, many seconds, to the one who opens it).
 */
export function seedDataDir(dataDir: string): void {
  const db = path.join(dataDir, 'db');
  mkdirSync(db, { recursive: true });
  const tar = spawnSync('tar', ['-xf', inject('pgliteTemplate'), '-C', db], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
}

/** Keeps every message sent; with `forward`, also sends it on (to a test's SMTP server). */
export function memoryMailer(forward?: Mailer): Mailer & { messages: MailMessage[] } {
  const messages: MailMessage[] = [];
  return {
    kind: 'outbox',
    messages,
    async send(msg) {
      if (forward) await forward.send(msg);
      messages.push(msg);
    },
    async close() {
      await forward?.close();
    },
  };
}

export const ORIGIN = 'http://localhost:3000';

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/** The API tests' configuration: quiet, no background workers, no rate limits; `env` on top. */
export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    WORKERS: 'false',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_LICENSE: '0',
    RATE_LIMIT_LINK_PER_ADDRESS: '0',
    // Never the real VIES: a closed local port (VIES unreachable) unless a test starts its stand-in.
    VIES_URL: 'http://127.0.0.1:9/check-vat-number',
    ...env,
  });
}

/**
 * The real application on a fresh database, a captured mailbox and a clock tests can move; with
 * `webDist`, serving that web build too.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  overrides: Pick<AppOverrides, 'webhookTransport' | 'webDist'> = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-data-'));
  const config = testConfig(dataDir, env);
  const database = await createTestDatabase();
  // With SMTP_URL, messages also go through the real SMTP mailer to that server.
  const mailer = memoryMailer(config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : undefined);
  const clock = manualClock(new Date());
  const app: FastifyInstance = await buildApp(config, {
    database,
    mailer,
    clock,
    serveWeb: overrides.webDist !== undefined,
    logger: false,
    ...overrides,
  });
  await app.ready();

  /** Requests a link for `email` and returns the secret from the delivered e-mail. */
  async function requestLink(email: string, to?: string): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/api/auth/link', payload: { email, ...(to ? { to } : {}) } });
    if (res.statusCode !== 202) throw new Error(`link request failed: ${res.statusCode} ${res.body}`);
    await app.ctx.services.outbox.kick();
    const mail = [...mailer.messages].reverse().find((m) => m.to === email.toLowerCase());
    const match = mail?.text.match(/[?&]link=([A-Za-z0-9_-]{43})/);
    if (!match) throw new Error(`no sign-in e-mail for ${email}`);
    return match[1]!;
  }

  /** Signs in (creating the user) and answers the session cookie header value. */
  async function signIn(email: string, opts: { onboard?: boolean } = { onboard: true }): Promise<string> {
    const secret = await requestLink(email);
    const res = await app.inject({ method: 'GET', url: `/api/auth/link/${secret}` });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    const setCookie = res.cookies.find((c) => c.name === 'portal_session');
    if (!setCookie) throw new Error('no session cookie');
    const cookie = `portal_session=${setCookie.value}`;
    if (opts.onboard !== false) {
      const ob = await app.inject({
        method: 'POST',
        url: '/api/users/onboarding',
        headers: { cookie },
        payload: { fname: 'Test', lname: 'User' },
      });
      if (ob.statusCode !== 200) throw new Error(`onboarding failed: ${ob.body}`);
    }
    return cookie;
  }

  return {
    app,
    config,
    database,
    db: database.db,
    mailer,
    clock,
    requestLink,
    signIn,
    async close() {
      await reportingStall('closing a test app', () => app.close());
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The real application serving a web build that `write` puts into a new temporary folder (which
 * has an empty `assets/`), on a fresh database.
 */
export async function buildWebTestApp(prefix: string, write: (dir: string) => void) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dir, 'assets'));
  write(dir);
  const database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: path.join(dir, 'data'), WORKERS: 'false' });
  const app = await buildApp(config, { database, webDist: dir, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await reportingStall('closing a test app', () => app.close());
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
