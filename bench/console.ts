// The vendor console's benchmark (`npm run bench -- console`): the console's API on the API bench's
// seed (bench/seed.ts: 100k customers, 120k licenses, 1M nodes, 360k invoices on PostgreSQL), as
// staff use it, 4 connections per scenario (BENCH_CONNECTIONS changes it), beside a bare Fastify
// route measured in the same run. Settings as bench/api.ts (BENCH_SCALE, BENCH_DURATION,
// BENCH_WARMUP_MS, BENCH_KEEP=1 reuses the seed).
//
// Scenarios: search with rare terms (an e-mail, a part of a license key, a hostname, an invoice
// number) and common ones (`pve`, `com`, `an`, `bench`, `node`), customer pages, the overview,
// each list at page 1 and page 200, the subscriptions filtered by "payment failing", and the CSV
// export of every customer (time and the server's memory while it streams). Each row prints
// p50/p95, the reference's beside it, and pass or fail against the target (design brief, section 10).
import { randomBytes, createHash } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CONSOLE_SESSION_COOKIE } from '@portal/contract';
import { startChild, type Server } from './api';
import { runLoad, type LoadResult, type Req } from './load';
import { seedDatabase, type Seeded } from './seed';
import { round } from './support';

type Rows = Record<string, { value: unknown; target: string }>;
type Json = Record<string, unknown>;
type Check = (status: number, body: Json) => string | undefined;
type Scenario = { label: string; reqs: Req[]; check: Check; p95: number };

const SEARCH_P95 = 50;
const PAGE_P95 = 50;
const OVERVIEW_P95 = 200;
const EXPORT_SECONDS = 10;
/** What "flat" means for the export: the server's resident memory grows by less than this. */
const EXPORT_MEMORY_MB = 64;

function settings() {
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  if (!(scale > 0 && scale <= 10)) throw new Error(`BENCH_SCALE must be above 0 and at most 10, not ${process.env.BENCH_SCALE}`);
  const durationMs = 1000 * Number(process.env.BENCH_DURATION ?? (scale >= 1 ? 10 : 3));
  const warmupMs = Number(process.env.BENCH_WARMUP_MS ?? (durationMs >= 10_000 ? 2000 : 500));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? '4');
  if (!(durationMs > 0) || !(warmupMs >= 0) || !(Number.isInteger(connections) && connections > 0)) {
    throw new Error('BENCH_DURATION, BENCH_WARMUP_MS and BENCH_CONNECTIONS must be positive numbers');
  }
  return { scale, durationMs, warmupMs, connections, keep: process.env.BENCH_KEEP === '1' };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const cycle = <T>(list: T[], seq: number) => list[seq % list.length]!;

/** A staff owner and a session of theirs, written as the console's sign-in would: the cookie. */
async function staffCookie(c: pg.Client): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  const [member] = (
    await c.query<{ id: string }>(
      `insert into staff (email, role) values ('bench-owner@vendor.example', 'owner')
       on conflict (lower(email)) do update set disabled_at = null returning id`,
    )
  ).rows;
  await c.query(
    `insert into staff_sessions (id_hash, staff_id, created_at, last_seen_at, expires_at)
     values ($1, $2, now(), now(), now() + interval '1 day')`,
    [sha256(secret), member!.id],
  );
  return `${CONSOLE_SESSION_COOKIE}=${secret}`;
}

/** What staff look up: real e-mails, key parts, hostnames, invoice numbers and customers of the seed. */
async function workload(c: pg.Client, seeded: Seeded) {
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await c.query<T>(text, values)).rows;
  const emails = (await q<{ email: string }>(`select email from users tablesample bernoulli (1) limit 200`)).map((r) => r.email);
  const hostnames = (
    await q<{ hostname: string }>(`select hostname from nodes tablesample bernoulli (0.1) where hostname is not null limit 200`)
  ).map((r) => r.hostname);
  const numbers = (await q<{ number: string }>(`select number from invoices tablesample bernoulli (0.1) limit 200`)).map(
    (r) => r.number,
  );
  const customers = (
    await q<{ id: string }>(`select id from users where lower(email) = any($1)`, [
      (await q<{ email: string }>(`select email from users tablesample bernoulli (1) limit 200`)).map((r) => r.email),
    ])
  ).map((r) => r.id);
  const [reseller] = await q<{ user_id: string }>(`select user_id from licenses where id = $1`, [seeded.big.id]);
  const [counts] = await q<{ users: number }>(`select count(*)::int as users from users`);
  return {
    emails,
    keyParts: seeded.anyKeys.slice(0, 200).map((k) => k.slice(6, 17)),
    hostnames,
    numbers,
    customers,
    reseller: reseller!.user_id,
    users: counts!.users,
  };
}

const items = (b: Json) => (Array.isArray(b.items) ? (b.items as unknown[]) : undefined);
const ok200: Check = (s) => (s === 200 ? undefined : `expected 200`);
const searchFinds =
  (atLeast: number): Check =>
  (s, b) =>
    s !== 200 ? 'expected 200' : (items(b)?.length ?? -1) >= atLeast ? undefined : `${items(b)?.length} results`;
const pageOf =
  (want: number): Check =>
  (s, b) =>
    s !== 200 ? 'expected 200' : items(b)?.length === want ? undefined : `${items(b)?.length} rows, expected ${want}`;

function scenarios(w: Awaited<ReturnType<typeof workload>>, cookie: string): Scenario[] {
  const headers = { cookie };
  const get = (p: string): Req => ({ method: 'GET', path: `/api/console${p}`, headers });
  const search = (terms: string[]) => terms.map((t) => get(`/search?q=${encodeURIComponent(t)}`));
  const lists = ['customers', 'subscriptions', 'licenses', 'invoices'];
  return [
    { label: 'search: an e-mail', reqs: search(w.emails), check: searchFinds(1), p95: SEARCH_P95 },
    { label: 'search: a part of a license key', reqs: search(w.keyParts), check: searchFinds(1), p95: SEARCH_P95 },
    { label: 'search: a hostname', reqs: search(w.hostnames), check: searchFinds(1), p95: SEARCH_P95 },
    { label: 'search: an invoice number', reqs: search(w.numbers), check: searchFinds(1), p95: SEARCH_P95 },
    {
      label: 'search: common terms (pve, com, an, bench, node)',
      reqs: search(['pve', 'com', 'an', 'bench', 'node']),
      check: searchFinds(0),
      p95: SEARCH_P95,
    },
    { label: 'customer page', reqs: w.customers.map((id) => get(`/customers/${id}`)), check: ok200, p95: PAGE_P95 },
    { label: 'customer page (the reseller, 110k nodes)', reqs: [get(`/customers/${w.reseller}`)], check: ok200, p95: PAGE_P95 },
    { label: 'overview', reqs: [get('/overview')], check: ok200, p95: OVERVIEW_P95 },
    // The seed has no failing payment: the filter finds none, its worst case (nothing to stop early on).
    {
      label: 'subscriptions: payment failing',
      reqs: [get('/subscriptions?status=past_due&page=1&size=20')],
      check: ok200,
      p95: PAGE_P95,
    },
    ...lists.flatMap((list): Scenario[] => [
      { label: `${list} page 1`, reqs: [get(`/${list}?page=1&size=20`)], check: pageOf(20), p95: PAGE_P95 },
      { label: `${list} page 200`, reqs: [get(`/${list}?page=200&size=20`)], check: pageOf(20), p95: PAGE_P95 },
    ]),
  ];
}

async function probe(port: number, sc: Scenario) {
  for (const req of sc.reqs.slice(0, 3)) {
    const res = await fetch(`http://127.0.0.1:${port}${req.path}`, { headers: { accept: 'application/json', ...req.headers } });
    const text = await res.text();
    let body: Json = {};
    try {
      body = JSON.parse(text) as Json;
    } catch {
      // Checked as an empty object.
    }
    const problem = sc.check(res.status, body);
    if (problem) throw new Error(`${sc.label}: GET ${req.path} answered ${res.status} ${text.slice(0, 300)}: ${problem}`);
  }
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** One CSV export of every customer, read as it arrives; the server's memory sampled meanwhile. */
async function exportOnce(server: Server, cookie: string, expectRows: number) {
  const before = rssMb(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${server.port}/api/console/customers?format=csv`, { headers: { cookie } });
  let firstByte = NaN;
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(firstByte)) firstByte = performance.now() - t0;
    bytes += value.length;
    for (const b of value) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(server.pid));
  if (res.status !== 200) throw new Error(`CSV export answered ${res.status}`);
  if (lines - 1 !== expectRows) throw new Error(`CSV export: ${lines - 1} rows, expected ${expectRows}`);
  return { seconds, firstByteMs: firstByte, mb: bytes / 1e6, before, growth: peak - before };
}

const verdict = (p95: number, target: number) => (p95 <= target ? 'pass' : 'FAIL');

export async function consoleBench(): Promise<Rows> {
  const s = settings();
  console.log(
    `  scale ${s.scale}, ${s.connections} connections, ${s.durationMs / 1000} s per scenario after ${s.warmupMs} ms warm-up`,
  );
  const seeded = await seedDatabase({ scale: s.scale, keep: s.keep, log: (l) => console.log(l) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-console-'));
  const c = new pg.Client({ connectionString: seeded.databaseUrl });
  const servers: Server[] = [];
  try {
    await c.connect();
    const cookie = await staffCookie(c);
    const w = await workload(c, seeded);
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dataDir, NODE_ENV: 'production' };
    const portal = await startChild('bench/console-server.ts', {
      ...base,
      DATABASE_URL: seeded.databaseUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      CONSOLE_PORT: '0',
      // The bench's owner session is written directly, without the second factor a real sign-in
      // asks for: what is measured is the console's reads behind the guard, not the sign-in.
      CONSOLE_REQUIRE_SECOND_FACTOR: 'none',
      LOG_LEVEL: 'silent',
      WORKERS: 'false',
    });
    servers.push(portal);
    const bare = await startChild('bench/bare-server.ts', base);
    servers.push(bare);

    const load = (port: number, pid: number, next: (seq: number) => Req): Promise<LoadResult> =>
      runLoad({ port, connections: s.connections, durationMs: s.durationMs, warmupMs: s.warmupMs, next, serverPid: pid });
    const ref = await load(bare.port, bare.pid, () => ({ method: 'GET', path: '/ok' }));
    const refText = `${round(ref.p50, 2)} / ${round(ref.p95, 2)}`;
    console.log(`  bare Fastify GET /ok: ${round(ref.rps)} req/s, p50 ${round(ref.p50, 2)} ms, p95 ${round(ref.p95, 2)} ms`);
    const out: Rows = {
      'seed (s)': { value: seeded.reused ? `reused (seeded in ${seeded.seedSeconds})` : seeded.seedSeconds, target: '' },
      'bare Fastify GET /ok req/s': { value: round(ref.rps), target: '' },
      'bare Fastify GET /ok p50 / p95 (ms)': { value: refText, target: '' },
    };
    for (const sc of scenarios(w, cookie)) {
      await probe(portal.port, sc);
      const shuffled = [...sc.reqs].sort(() => Math.random() - 0.5);
      const r = await load(portal.port, portal.pid, (seq) => cycle(shuffled, seq));
      const statuses = Object.entries(r.statuses)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      const pass = r.errors === 0 ? verdict(r.p95, sc.p95) : 'FAIL (errors)';
      console.log(
        `  ${sc.label}: ${round(r.rps)} req/s, p50 ${round(r.p50, 2)} ms, p95 ${round(r.p95, 2)} ms, p99 ${round(r.p99, 2)} ms ` +
          `[${statuses}] (reference p50/p95 ${refText} ms): ${pass}`,
      );
      out[`${sc.label}: p50 / p95 (ms), reference ${refText}`] = {
        value: `${round(r.p50, 1)} / ${round(r.p95, 1)}${r.errors ? `, ${r.errors} errors` : ''}`,
        target: `p95 <= ${sc.p95}: ${pass}`,
      };
    }
    for (let k = 1; k <= 3; k++) {
      const e = await exportOnce(portal, cookie, w.users);
      const pass = e.seconds <= EXPORT_SECONDS && e.growth < EXPORT_MEMORY_MB ? 'pass' : 'FAIL';
      console.log(
        `  CSV export of ${w.users} customers (${k}): ${round(e.seconds, 2)} s, first byte ${round(e.firstByteMs)} ms, ` +
          `${round(e.mb, 1)} MB, server memory ${round(e.before)} MB + at most ${round(e.growth, 1)} MB: ${pass}`,
      );
      out[`CSV export of ${w.users} customers (${k}): s, server memory growth (MB)`] = {
        value: `${round(e.seconds, 2)} s, +${round(e.growth, 1)} MB (of ${round(e.before)})`,
        target: `<= ${EXPORT_SECONDS} s, < ${EXPORT_MEMORY_MB} MB: ${pass}`,
      };
    }
    return out;
  } finally {
    for (const srv of servers) await srv.stop();
    await c.query(`delete from staff where email = 'bench-owner@vendor.example'`).catch(() => {});
    await c.end().catch(() => {});
    await seeded.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
