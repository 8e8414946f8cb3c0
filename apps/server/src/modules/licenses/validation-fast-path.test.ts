import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { Database } from '../../db/client';
import { manualClock } from '../../lib/clock';
import { memoryRateLimiter } from '../../lib/rate-limiter';
import { createTestDatabase, memoryMailer, ORIGIN, testConfig } from '../../../test/helpers';
import { rawRequest, requestBytes, type RawAnswer, type RequestParts } from '../../../test/raw-http';
import { generateLicenseKey } from './license-key';

/**
 * The validation fast path (validation-fast-path.ts) answers exactly as the Fastify route does:
 * two apps on one database, one with the fast path and one without, get the same requests over
 * real connections, and every answer must match byte for byte (status line, every header in
 * order but Date, the body, hence the signature), including the metrics they count. Each case
 * also says whether the fast path must answer it or hand it on to Fastify.
 */

const DAY = 86_400_000;
const clock = manualClock(new Date('2026-11-24T12:00:00.000Z'));
let database: Database;
let dataDir: string;

type Side = { app: FastifyInstance; port: number };
type Pair = { fast: Side; plain: Side; close: () => Promise<void> };

async function pair(env: Record<string, string> = {}): Promise<Pair> {
  const config = testConfig(dataDir, env);
  const side = async (validationFastPath: boolean): Promise<Side> => {
    // Rate-limit windows on the test clock, so Retry-After is the same on both sides.
    const limiter = memoryRateLimiter(() => clock.now().getTime());
    const app = await buildApp(config, {
      database: { ...database, notifications: alwaysFresh },
      mailer: memoryMailer(),
      clock,
      limiter,
      serveWeb: false,
      logger: false,
      validationFastPath,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, port: (app.server.address() as AddressInfo).port };
  };
  const fast = await side(true);
  const plain = await side(false);
  return { fast, plain, close: async () => void (await Promise.all([fast.app.close(), plain.app.close()])) };
}

/** A license made with plain SQL (as a restored database holds it), with `nodes` activated fingerprints. */
async function license(opts: { maxNodes: number; nodes: number; status?: string; expiresInDays?: number }) {
  const key = generateLicenseKey();
  const expiresAt = new Date(clock.now().getTime() + (opts.expiresInDays ?? 30) * DAY).toISOString();
  await database.db.execute(
    sql`insert into licenses (key, max_nodes, active_nodes, expires_at, status, revoked_at)
        values (${key}, ${opts.maxNodes}, ${opts.nodes}, ${expiresAt}::timestamptz, ${opts.status ?? 'active'},
                ${opts.status === 'suspended' ? expiresAt : null}::timestamptz)`,
  );
  for (let i = 0; i < opts.nodes; i++) {
    await database.db.execute(
      sql`insert into nodes (license_id, fingerprint, hostname)
          select id, ${`fp-${i}`}, ${`host-${i}`} from licenses where key = ${key}`,
    );
  }
  return key;
}

/** The answer without its Date header (the two sides may answer in different seconds). */
const dropDate = (a: RawAnswer) => ({
  ...a,
  headers: a.headers.filter(([k]) => k !== 'date'),
  head: a.head.replace(/\r\ndate: [^\r]*/i, ''),
});

/** Sends `r` to both sides; expects the same answer, and the fast side to answer it itself or hand it on. */
async function compare(p: Pair, r: RequestParts, fast: 'answers' | 'hands on'): Promise<RawAnswer> {
  if (fast === 'answers') await caughtUp();
  const before = p.fast.app.ctx.validationFastPath()!;
  const mine = await rawRequest(p.fast.port, requestBytes(p.fast.port, r));
  const after = p.fast.app.ctx.validationFastPath()!;
  const theirs = await rawRequest(p.plain.port, requestBytes(p.plain.port, r));
  expect(dropDate(mine)).toEqual(dropDate(theirs));
  expect(mine.body.equals(theirs.body)).toBe(true);
  expect(after.answered - before.answered).toBe(fast === 'answers' ? 1 : 0);
  expect(after.handedOn - before.handedOn).toBe(fast === 'answers' ? 0 : 1);
  return mine;
}

/**
 * Memory answers only while the database's notifications are caught up (on PostgreSQL, their
 * heartbeat came back within 800 ms; validation-cache.ts). What this file compares is the answers,
 * not that bound (validation-cache.test.ts and the several-instances system test hold it): the
 * apps see notifications that always count as fresh, so a busy machine's late heartbeat cannot
 * send a case to the database instead, and each case first waits for a recent heartbeat, so every
 * change made before it has been delivered.
 */
const alwaysFresh: Database['notifications'] = {
  subscribe: (channel, subscriber) => database.notifications.subscribe(channel, subscriber),
  freshThrough: () => performance.now(),
  close: async () => {},
};

async function caughtUp() {
  while (performance.now() - database.notifications.freshThrough() > 200) await new Promise((r) => setTimeout(r, 10));
}

const json = { 'content-type': 'application/json' };
const validate = (key: string, body?: unknown, headers: Record<string, string> = json): RequestParts => ({
  path: `/api/licenses/${key}/validate`,
  headers,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
const codeOf = (a: RawAnswer) => (JSON.parse(a.body.toString('utf8')) as { code: string }).code;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-fast-path-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the validation fast path answers as the route does', () => {
  let p: Pair;
  const keys = { fleet: '', full: '', suspended: '', expired: '', unknown: generateLicenseKey() };
  beforeAll(async () => {
    keys.fleet = await license({ maxNodes: 5, nodes: 3 });
    keys.full = await license({ maxNodes: 2, nodes: 2 });
    keys.suspended = await license({ maxNodes: 5, nodes: 1, status: 'suspended' });
    keys.expired = await license({ maxNodes: 5, nodes: 1, expiresInDays: -1 });
    p = await pair();
    // The first validation of a key loads its license (Fastify's route); later ones come from memory.
    for (const key of Object.values(keys)) await compare(p, validate(key, { nonce: 'warm' }), 'hands on');
  });
  afterAll(() => p.close());

  it.each([
    ['an activated node', () => validate(keys.fleet, { fingerprint: 'fp-1', nonce: 'n-1' }), 'VALID'],
    ['the key alone', () => validate(keys.fleet, { nonce: 'n-2' }), 'VALID'],
    ['no body at all', () => validate(keys.fleet, undefined, {}), 'VALID'],
    ['an empty object', () => validate(keys.fleet, {}), 'VALID'],
    ['a node not activated, a slot free', () => validate(keys.fleet, { fingerprint: 'new-node', nonce: 'n' }), 'NOT_ACTIVATED'],
    ['a node not activated, every slot taken', () => validate(keys.full, { fingerprint: 'new-node' }), 'NODE_LIMIT_REACHED'],
    ['a node of a full license', () => validate(keys.full, { fingerprint: 'fp-0', nonce: 'x' }), 'VALID'],
    ['a suspended license', () => validate(keys.suspended, { fingerprint: 'fp-0', nonce: 's' }), 'SUSPENDED'],
    ['an expired license', () => validate(keys.expired, { nonce: 'e' }), 'EXPIRED'],
    ['an unknown key', () => validate(keys.unknown, { fingerprint: 'fp-0', nonce: 'u' }), 'NOT_FOUND'],
    [
      'a JSON type with its charset',
      () => validate(keys.fleet, { nonce: 'c' }, { 'content-type': 'application/json; charset=utf-8' }),
      'VALID',
    ],
    ['the portal’s own Origin', () => validate(keys.fleet, { nonce: 'o' }, { ...json, origin: ORIGIN }), 'VALID'],
    ['a nonce beyond ASCII', () => validate(keys.fleet, { fingerprint: 'fp-2', nonce: 'né ✓ 🔑' }), 'VALID'],
    [
      'the longest nonce and fingerprint',
      () => validate(keys.fleet, { fingerprint: 'f'.repeat(256), nonce: 'n'.repeat(128) }),
      'NOT_ACTIVATED',
    ],
  ])('%s: answered from memory', async (_name, make, code) => {
    expect(codeOf(await compare(p, make(), 'answers'))).toBe(code);
  });

  it.each([
    ['a key in lower case', () => validate(keys.fleet.toLowerCase(), { nonce: 'l' }), 200],
    ['a key with a typo', () => validate(`${keys.fleet.slice(0, -1)}${keys.fleet.endsWith('2') ? '3' : '2'}`, {}), 400],
    ['a malformed key', () => validate('NOT-A-KEY', {}), 400],
    ['a body that is not JSON', () => ({ ...validate(keys.fleet), body: '{"nonce":' }), 400],
    ['an unknown field', () => validate(keys.fleet, { nonce: 'n', extra: 1 }), 400],
    ['a prototype key', () => ({ ...validate(keys.fleet), body: '{"__proto__":{"x":1}}' }), 400],
    ['a fingerprint with a space', () => validate(keys.fleet, { fingerprint: 'fp 1' }), 400],
    ['a fingerprint the schema trims', () => validate(keys.fleet, { fingerprint: ' fp-1 ' }), 200],
    ['a fingerprint too long', () => validate(keys.fleet, { fingerprint: 'f'.repeat(257) }), 400],
    ['a fingerprint that is not text', () => validate(keys.fleet, { fingerprint: 12 }), 400],
    ['a nonce too long', () => validate(keys.fleet, { nonce: 'n'.repeat(129) }), 400],
    ['a nonce with NUL', () => validate(keys.fleet, { nonce: 'a\u0000b' }), 400],
    ['a null nonce', () => validate(keys.fleet, { nonce: null }), 400],
    ['a JSON null body', () => validate(keys.fleet, null), 200],
    ['a JSON array body', () => validate(keys.fleet, [1]), 400],
    ['a JSON type with an empty body', () => ({ ...validate(keys.fleet), body: '' }), 400],
    [
      'bytes that are not UTF-8',
      () => ({
        ...validate(keys.fleet),
        body: Buffer.from([0x7b, 0x22, 0x6e, 0x6f, 0x6e, 0x63, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      }),
      200,
    ],
    ['a body over 16 KiB', () => validate(keys.fleet, { nonce: 'n'.repeat(17 * 1024) }), 413],
    ['a text body', () => ({ ...validate(keys.fleet, undefined, { 'content-type': 'text/plain' }), body: 'hello' }), 415],
    [
      'a form body',
      () => ({ ...validate(keys.fleet, undefined, { 'content-type': 'application/x-www-form-urlencoded' }), body: 'nonce=n' }),
      415,
    ],
    ['a body without a type', () => ({ ...validate(keys.fleet, undefined, {}), body: '{}' }), 415],
    ['a chunked body', () => ({ ...validate(keys.fleet, { nonce: 'c' }), chunked: true }), 200],
    ['another site’s Origin', () => validate(keys.fleet, {}, { ...json, origin: 'https://evil.example' }), 403],
    ['a cross-site fetch', () => validate(keys.fleet, {}, { ...json, 'sec-fetch-site': 'cross-site' }), 403],
    [
      'a query string',
      () => ({ ...validate(keys.fleet, { nonce: 'q' }), path: `/api/licenses/${keys.fleet}/validate?x=1` }),
      200,
    ],
    ['another method', () => ({ ...validate(keys.fleet), method: 'GET' }), 404],
    ['a license not in memory yet', () => validate(generateLicenseKey(), { nonce: 'new' }), 200],
  ] as const)('%s: handed on to Fastify', async (_name, make, status) => {
    expect((await compare(p, make() as RequestParts, 'hands on')).status).toBe(status);
  });

  it('an Origin naming the address the request was sent to: handed on, and accepted', async () => {
    const mine = await rawRequest(
      p.fast.port,
      requestBytes(p.fast.port, validate(keys.fleet, {}, { ...json, origin: `http://127.0.0.1:${p.fast.port}` })),
    );
    const theirs = await rawRequest(
      p.plain.port,
      requestBytes(p.plain.port, validate(keys.fleet, {}, { ...json, origin: `http://127.0.0.1:${p.plain.port}` })),
    );
    expect(dropDate(mine)).toEqual(dropDate(theirs));
    expect(mine.status).toBe(200);
  });

  it('a suspension reaches the fast path’s answers as it reaches the route’s', async () => {
    await database.db.execute(sql`update licenses set status = 'suspended', revoked_at = now() where key = ${keys.full}`);
    // Both sides get every request, so that their metrics stay comparable.
    const both = async (r: RequestParts) => {
      const [mine, theirs] = await Promise.all([p.fast, p.plain].map((s) => rawRequest(s.port, requestBytes(s.port, r))));
      return [codeOf(mine!), codeOf(theirs!)];
    };
    await expect.poll(() => both(validate(keys.full, { fingerprint: 'fp-0' }))).toEqual(['SUSPENDED', 'SUSPENDED']);
    await compare(p, validate(keys.full, { fingerprint: 'fp-0', nonce: 'after' }), 'answers');
  });

  it('counts the same metrics', async () => {
    const counters = async (side: Side) => {
      const res = await side.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      return res.body
        .split('\n')
        .filter((l) => l.startsWith('http_requests_total{') && l.includes('/validate'))
        .sort();
    };
    const mine = await counters(p.fast);
    expect(mine.length).toBeGreaterThan(3);
    expect(mine).toEqual(await counters(p.plain));
  });
});

describe('rate limits on the fast path', () => {
  let p: Pair;
  let a: string;
  let b: string;
  const from = (key: string, address: string, nonce = 'r') => validate(key, { nonce }, { ...json, 'x-forwarded-for': address });
  beforeAll(async () => {
    a = await license({ maxNodes: 5, nodes: 1 });
    b = await license({ maxNodes: 5, nodes: 1 });
    p = await pair({ RATE_LIMIT_LICENSE: '2', TRUST_PROXY: 'true' });
    await compare(p, from(a, '10.1.0.1'), 'hands on');
    await compare(p, from(b, '10.1.0.2'), 'hands on');
  });
  afterAll(() => p.close());

  it('answers 429 per key and per client with the route’s messages and Retry-After', async () => {
    expect((await compare(p, from(a, '10.2.0.1'), 'answers')).status).toBe(200);
    const byKey = await compare(p, from(a, '10.2.0.1'), 'answers');
    expect(byKey.status).toBe(429);
    expect(byKey.body.toString()).toContain('Too many requests for this license key.');
    expect(byKey.headers.find(([k]) => k === 'retry-after')?.[1]).toBe('60');
    const byClient = await compare(p, from(a, '10.2.0.1'), 'answers');
    expect(byClient.body.toString()).toContain('Too many license requests from this address.');
    expect((await compare(p, from(b, '10.3.0.1'), 'answers')).status).toBe(200);
    expect((await compare(p, from(b, '10.3.0.2'), 'answers')).status).toBe(429);
  });

  it('hands on a request that passed several proxies (Fastify reads their addresses)', async () => {
    expect((await compare(p, from(a, '10.4.0.1, 10.4.0.2'), 'hands on')).status).toBe(429);
  });
});

describe('when the fast path stands aside', () => {
  it('is off at LOG_LEVEL=debug, where the route logs every call', async () => {
    const app = await buildApp(testConfig(dataDir, { LOG_LEVEL: 'debug' }), {
      database,
      mailer: memoryMailer(),
      serveWeb: false,
      logger: false,
    });
    expect(app.ctx.validationFastPath()).toBeUndefined();
    await app.close();
  });
});
