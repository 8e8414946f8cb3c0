import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { manualClock } from '../../lib/clock';
import { createTestDatabase, memoryMailer, ORIGIN } from '../../../test/helpers';

/**
 * A full card number is never stored, logged or returned. The app runs with trace logging into a
 * buffer and the file mailer; afterwards every table, every log line, every answer and every
 * e-mail file is searched for the numbers that were typed in.
 */

const NUMBERS = [
  '4242 4242 4242 4242',
  '4000 0000 0000 0002',
  '4000 0000 0000 9995',
  '4242 4242 4242 4241',
  '5555-5555-5555-4444',
];
const needles = NUMBERS.flatMap((n) => [n, n.replace(/\D/g, ''), n.replace(/\D/g, '').slice(0, 12)]);

let app: FastifyInstance;
let database: Database;
let dataDir: string;
const logs: string[] = [];
const answers: string[] = [];
const mailer = memoryMailer();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cards-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    WORKERS: 'false',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_LINK_PER_ADDRESS: '0',
  });
  database = await createTestDatabase();
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  app = await buildApp(config, {
    database,
    mailer,
    clock: manualClock(new Date()),
    serveWeb: false,
    logger: { level: 'trace', stream },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Waits for a delivery already in flight, then delivers the rest. */
async function flush() {
  await app.ctx.services.outbox.kick();
  await app.ctx.services.outbox.drain();
}

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: Record<string, unknown>) {
  const res = await app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
  answers.push(res.body, JSON.stringify(res.headers));
  return res;
}

it('never stores, logs or returns a full card number', async () => {
  await call('POST', '/api/auth/link', undefined, { email: 'pan@example.com' });
  await flush();
  const secret = mailer.messages.at(-1)!.text.match(/link=([A-Za-z0-9_-]{43})/)![1];
  const signIn = await call('GET', `/api/auth/link/${secret}`);
  const cookie = `portal_session=${signIn.cookies.find((c) => c.name === 'portal_session')!.value}`;
  await call('POST', '/api/users/onboarding', cookie, { fname: 'Pan', lname: 'Holder' });

  const statuses: number[] = [];
  for (const number of NUMBERS) {
    const { clientSecret } = (await call('POST', '/api/billing/intents/setup', cookie)).json();
    const res = await call('POST', '/api/billing/local/confirm-setup', cookie, {
      clientSecret,
      number,
      expMonth: 12,
      expYear: 2099,
      cvc: '123',
    });
    statuses.push(res.statusCode);
  }
  expect(statuses).toEqual([201, 402, 201, 400, 201]);
  // An expired card and a malformed body go through the error paths as well.
  const { clientSecret } = (await call('POST', '/api/billing/intents/setup', cookie)).json();
  const confirm = (card: Record<string, unknown>) =>
    call('POST', '/api/billing/local/confirm-setup', cookie, { clientSecret, number: NUMBERS[0]!, expMonth: 1, ...card });
  expect((await confirm({ expYear: 2001, cvc: '123' })).statusCode).toBe(400);
  expect((await confirm({ expYear: 2030 })).statusCode).toBe(400);
  expect((await call('POST', '/api/billing/intents/checkout', cookie, { interval: 'month', quantity: 2 })).statusCode).toBe(201);
  await call('GET', '/api/billing/methods/', cookie);
  await call('GET', '/api/billing/subscriptions/', cookie);
  await flush();

  const tables = (await database.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as {
    rows: { table_name: string }[];
  };
  const dump: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = (await database.db.execute(sql.raw(`select row_to_json(t)::text as j from "${table_name}" t`))) as unknown as {
      rows: { j: string }[];
    };
    dump.push(...rows.rows.map((r) => r.j));
  }
  expect(dump.join('\n')).toContain('4242');
  expect(logs.length).toBeGreaterThan(10);
  expect(logs.join('')).toContain('/api/billing/local/confirm-setup');
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => readFileSync(path.join(f.parentPath, f.name), 'latin1'));
  const mails = mailer.messages.map((m) => JSON.stringify(m));
  for (const needle of needles) {
    for (const [where, texts] of [
      ['the database', dump],
      ['the logs', logs],
      ['the answers', answers],
      ['the e-mails', mails],
      ['the data directory', files],
    ] as const) {
      expect(
        texts.some((s) => s.includes(needle)),
        `${needle} found in ${where}`,
      ).toBe(false);
    }
  }
});
