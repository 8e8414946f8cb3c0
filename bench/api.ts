// API benchmarks (`npm run bench -- api lists`): the real portal on a seeded PostgreSQL database,
// in a child process, against a bare Fastify route measured with the same load generator.
//
// Settings (environment):
//   BENCH_SCALE        1 = 100k users, 1M nodes (default); the smoke run uses 0.01
//   BENCH_DURATION     seconds measured per scenario (default 10 at scale >= 1, else 3)
//   BENCH_WARMUP_MS    unmeasured warm-up per scenario (default 2000 for >= 10 s runs, else 500)
//   BENCH_CONNECTIONS  concurrent keep-alive connections (default 50)
//   BENCH_CLIENT       raw (default) or http (node:http with a keep-alive Agent)
//   BENCH_DATABASE_URL, BENCH_KEEP=1: see bench/seed.ts
//
// Each scenario is first probed (a few requests whose answers are checked: status, code, sizes),
// then loaded. Rows: req/s, p50/p95/p99 (ms), ratio (req/s over the bare route's, same method),
// errors (answers outside the expected statuses) and CPU use of server/load generator/host.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIGNATURE_HEADER } from '@portal/contract';
import { onServerCores } from './cores';
import { runLoad, type LoadResult, type Req } from './load';
import { makeLicenseKeys, NEW_NODE_PREFIX, seedDatabase, type Seeded } from './seed';
import { root, round } from './support';

type Settings = { scale: number; durationMs: number; warmupMs: number; connections: number; keep: boolean };

function settings(): Settings {
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  if (!(scale > 0 && scale <= 10))
    throw new Error(`BENCH_SCALE must be a number above 0 and at most 10, not ${process.env.BENCH_SCALE}`);
  const durationMs = 1000 * Number(process.env.BENCH_DURATION ?? (scale >= 1 ? 10 : 3));
  const warmupMs = Number(process.env.BENCH_WARMUP_MS ?? (durationMs >= 10_000 ? 2000 : 500));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? '50');
  if (!(durationMs > 0) || !(warmupMs >= 0) || !(Number.isInteger(connections) && connections > 0)) {
    throw new Error('BENCH_DURATION, BENCH_WARMUP_MS and BENCH_CONNECTIONS must be positive numbers');
  }
  return { scale, durationMs, warmupMs, connections, keep: process.env.BENCH_KEEP === '1' };
}

export type Server = { port: number; pid: number; stop: () => Promise<void> };

/** Starts `entry` with tsx in a child process and waits for its { ready, port } message. */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; quiet?: boolean } = {},
): Promise<Server> {
  const [command, args] = onServerCores(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(root, entry)]);
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    env,
    // quiet: the server's own log lines (LOG_LEVEL=info) are discarded, errors still shown.
    stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} was not ready within 60 s`)), 60_000);
    child.on('message', (m: { ready?: boolean; port?: number }) => {
      if (m.ready && m.port) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code ?? signal} before it was ready`));
    });
  });
  return {
    port,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', kill);
        if (exited()) return resolve();
        const force = setTimeout(kill, 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

type Ctx = {
  s: Settings;
  seeded: Seeded;
  portal: Server;
  bare: Server;
  dataDir: string;
  /** Seed figures, reported by the first section that runs. */
  seedRows: Record<string, { value: unknown; target: string }> | undefined;
};

let shared: Promise<Ctx> | undefined;
let interrupted = false;
/** Ctrl-C: the servers die with the process group; the seeded database is still dropped. */
const onInterrupt = () => {
  if (interrupted) return;
  interrupted = true;
  console.log('\nInterrupted: stopping the servers and dropping the benchmark database');
  void closeApiBench().finally(() => process.exit(130));
};
/** Seeding and the servers are shared by the sections of one run; closeApiBench() ends them. */
const context = () => (shared ??= setUp());

async function setUp(): Promise<Ctx> {
  const s = settings();
  console.log(
    `  scale ${s.scale}, ${s.connections} connections, ${s.durationMs / 1000} s per scenario after ${s.warmupMs} ms warm-up`,
  );
  const t0 = performance.now();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  const seeded = await seedDatabase({ scale: s.scale, keep: s.keep, log: (l) => console.log(l) });
  const setupSeconds = round((performance.now() - t0) / 1000, 1);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-api-'));
  const servers: Server[] = [];
  try {
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dataDir, NODE_ENV: 'production' };
    const portal = await startChild('bench/api-server.ts', {
      ...base,
      DATABASE_URL: seeded.databaseUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      WORKERS: 'false',
      RATE_LIMIT_LICENSE: '0',
      RATE_LIMIT_AUTH: '0',
      RATE_LIMIT_LINK_PER_ADDRESS: '0',
    });
    servers.push(portal);
    const bare = await startChild('bench/bare-server.ts', base);
    servers.push(bare);
    const seedRows = {
      'seed (s)': { value: seeded.reused ? `reused (seeded in ${seeded.seedSeconds})` : seeded.seedSeconds, target: '' },
      'seed and load workload (s)': { value: setupSeconds, target: '' },
      'seeded rows': {
        value: Object.entries(seeded.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
        target: '',
      },
    };
    return { s, seeded, portal, bare, dataDir, seedRows };
  } catch (err) {
    for (const srv of servers) await srv.stop();
    await seeded.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

let closing: Promise<void> | undefined;
/**
 * Stops the servers and drops the database (unless BENCH_KEEP=1); safe to call when nothing ran.
 * Every caller (the runner's finally, an interrupt) waits for the same close.
 */
export function closeApiBench(): Promise<void> {
  if (!shared) return closing ?? Promise.resolve();
  const pending = shared;
  shared = undefined;
  return (closing = (async () => {
    const c = await pending.catch(() => undefined);
    if (!c) return;
    await c.portal.stop();
    await c.bare.stop();
    await c.seeded.close();
    rmSync(c.dataDir, { recursive: true, force: true });
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  })());
}

// ---------------------------------------------------------------------------------------------
// Scenarios

type Json = Record<string, unknown> & { items?: unknown[]; total?: number; code?: string };
type Expect = (status: number, body: Json, headers: Headers) => string | undefined;
type Entry = { req: Req; expect: Expect };
type Targets = { p95?: string; p99?: string; ratio?: string };
type Scenario = {
  label: string;
  /** The portal, or the bare baseline. */
  target: 'portal' | 'bare';
  next: (seq: number) => Req;
  /** Checked one by one before the load. */
  probes: Entry[];
  targets?: Targets;
  ok?: (status: number) => boolean;
};

const cookie = (secret: string) => ({ cookie: `portal_session=${secret}` });
const get = (p: string, headers?: Record<string, string>): Req => ({ method: 'GET', path: p, ...(headers ? { headers } : {}) });
const post = (p: string, body: unknown, headers?: Record<string, string>): Req => ({
  method: 'POST',
  path: p,
  body: JSON.stringify(body),
  ...(headers ? { headers } : {}),
});
const nonce = () => randomBytes(8).toString('hex');
const cycle = <T>(list: T[], seq: number) => list[seq % list.length]!;
function shuffle<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

const status =
  (want: number, check: (b: Json) => string | undefined = () => undefined): Expect =>
  (got, body) =>
    got !== want ? `expected ${want}` : check(body);
const signed =
  (inner: Expect): Expect =>
  (got, body, headers) =>
    headers.get(SIGNATURE_HEADER) ? inner(got, body, headers) : `no ${SIGNATURE_HEADER} header`;
const validation = (...codes: string[]) =>
  signed(status(200, (b) => (codes.includes(String(b.code)) ? undefined : `code ${b.code}, expected ${codes.join(' or ')}`)));
const page = (check: (items: unknown[], total: number) => string | undefined) =>
  status(200, (b) => (Array.isArray(b.items) && typeof b.total === 'number' ? check(b.items, b.total) : 'not a page'));

function validateMix(seeded: Seeded): Entry[] {
  const at = (p: string) => `/api/licenses/${p}/validate`;
  const pool: Entry[] = [];
  const add = (n: number, make: (k: number) => Entry) => {
    for (let k = 0; k < n; k++) pool.push(make(k));
  };
  const unknownKeys = makeLicenseKeys(100);
  // Per 1000 requests: 600 activated nodes (540 on regular licenses, 50 on medium ones, 10 on the
  // 10k-node license), 200 key-only checks (any status), 100 unknown fingerprints, 100 unknown keys.
  add(540, (k) => {
    const p = cycle(seeded.regularPairs, k);
    return { req: post(at(p.key), { fingerprint: p.fingerprint, nonce: nonce() }), expect: validation('VALID') };
  });
  add(50, (k) => {
    const p = cycle(seeded.mediumPairs, k);
    return { req: post(at(p.key), { fingerprint: p.fingerprint, nonce: nonce() }), expect: validation('VALID') };
  });
  add(10, (k) => ({
    req: post(at(seeded.big.key), { fingerprint: cycle(seeded.big.fingerprints, k), nonce: nonce() }),
    expect: validation('VALID'),
  }));
  add(200, (k) => ({
    req: post(at(cycle(seeded.anyKeys, k)), { nonce: nonce() }),
    expect: validation('VALID', 'EXPIRED', 'SUSPENDED'),
  }));
  add(100, (k) => ({
    req: post(at(cycle(seeded.activeKeys, k)), { fingerprint: `unknown-${nonce()}`, nonce: nonce() }),
    expect: validation('NOT_ACTIVATED', 'NODE_LIMIT_REACHED'),
  }));
  add(100, (k) => ({
    req: post(at(cycle(unknownKeys, k)), { fingerprint: `unknown-${nonce()}`, nonce: nonce() }),
    expect: validation('NOT_FOUND'),
  }));
  return pool;
}

/** A few probes of each kind: the first and last entries of every block, before the pool is shuffled. */
const probesOf = (pool: Entry[]) =>
  [0, 1, 539, 540, 589, 590, 599, 600, 799, 800, 899, 900, 999].map((i) => pool[i]!).filter(Boolean);

function fromPool(label: string, pool: Entry[], targets?: Targets, probes = pool.slice(0, 5)): Scenario {
  const probeList = probes;
  const shuffled = shuffle([...pool]);
  return { label, target: 'portal', next: (seq) => cycle(shuffled, seq).req, probes: probeList, ...(targets ? { targets } : {}) };
}

function bareScenario(label: string, method: 'GET' | 'POST'): Scenario {
  const req = method === 'GET' ? get('/ok') : post('/ok', { fingerprint: 'fp-1-1-0123456789abcdef', nonce: '0123456789abcdef' });
  return {
    label,
    target: 'bare',
    next: () => req,
    probes: [{ req, expect: status(200, (b) => (b.ok === true ? undefined : 'not { ok: true }')) }],
  };
}

const VALIDATE_TARGETS: Targets = { ratio: '>= 0.25', p99: '< 20' };
const LIST_TARGETS: Targets = { p95: '< 20' };

function apiScenarios(seeded: Seeded): Scenario[] {
  const mix = validateMix(seeded);
  const bigValidate = seeded.big.fingerprints.map((fingerprint): Entry => ({
    req: post(`/api/licenses/${seeded.big.key}/validate`, { fingerprint, nonce: nonce() }),
    expect: validation('VALID'),
  }));
  const reactivate = seeded.regularPairs.slice(0, 1000).map((p): Entry => ({
    req: post(`/api/licenses/${p.key}/activate`, { fingerprint: p.fingerprint, ...(p.hostname ? { hostname: p.hostname } : {}) }),
    expect: signed(
      status(200, (b) =>
        (b.node as { fingerprint?: string } | undefined)?.fingerprint === p.fingerprint ? undefined : 'another node',
      ),
    ),
  }));
  const run = randomBytes(3).toString('hex');
  const newNode = (seq: number | string) =>
    post(`/api/licenses/${seeded.big.key}/activate`, {
      fingerprint: `${NEW_NODE_PREFIX}${run}-${seq}`,
      hostname: `bench-${seq}.example`,
    });
  const sessions = seeded.users.map((u): Entry => ({
    req: get('/api/auth/session', cookie(u.cookie)),
    expect: status(200, (b) => (b.user ? undefined : 'no user')),
  }));
  // Read-only, but it sums the customer's invoices (creditBalance): a check on the invoices table.
  const previews = seeded.users.flatMap((u): Entry[] =>
    u.changeable
      ? [
          {
            req: post(
              `/api/billing/subscriptions/${u.changeable.stripeId}/preview`,
              { quantity: u.changeable.quantity + 1 },
              cookie(u.cookie),
            ),
            expect: status(200, (b) => (typeof b.amountDue === 'number' ? undefined : 'no amountDue')),
          },
        ]
      : [],
  );
  return [
    fromPool('validate (mix)', mix, VALIDATE_TARGETS, probesOf(mix)),
    fromPool(`validate (${seeded.big.nodes}-node license)`, bigValidate, VALIDATE_TARGETS),
    fromPool('activate (re-activation)', reactivate),
    {
      label: `activate (new node, ${seeded.big.nodes}-node license)`,
      target: 'portal',
      next: (seq) => newNode(seq),
      probes: [{ req: newNode('probe'), expect: signed(status(201)) }],
    },
    fromPool('GET /api/auth/session', sessions),
    fromPool('POST billing preview (quantity change)', previews),
  ];
}

function listScenarios(seeded: Seeded): Scenario[] {
  const { big, reseller, users } = seeded;
  const licenses = users.map((u): Entry => ({
    req: get('/api/licenses/?page=1&size=20', cookie(u.cookie)),
    expect: page((items, total) =>
      items.length >= 1 && items.length === total ? undefined : `${items.length} of ${total} licenses`,
    ),
  }));
  const resellerLicenses: Entry = {
    req: get('/api/licenses/?page=1&size=20', cookie(reseller.cookie)),
    expect: page((items, total) =>
      items.length === Math.min(20, reseller.licenses) && total === reseller.licenses
        ? undefined
        : `${items.length} of ${total}, expected ${reseller.licenses}`,
    ),
  };
  const lastPage = Math.ceil(big.nodes / 20);
  const nodesPage = (n: number): Entry => ({
    req: get(`/api/licenses/${big.key}/nodes?page=${n}&size=20`, cookie(reseller.cookie)),
    expect: page((items, total) =>
      total === big.nodes && items.length === Math.min(20, big.nodes - (n - 1) * 20)
        ? undefined
        : `${items.length} items of ${total}, expected ${big.nodes}`,
    ),
  });
  const subscriptions = users.map((u): Entry => ({
    req: get('/api/billing/subscriptions/', cookie(u.cookie)),
    expect: status(200, (b) => (Array.isArray(b.items) && b.items.length >= 1 ? undefined : 'no subscriptions')),
  }));
  const invoices = users.map((u): Entry => ({
    req: get(`/api/billing/subscriptions/${u.stripeId}/invoices`, cookie(u.cookie)),
    expect: status(200, (b) =>
      Array.isArray(b.items) && b.items.length === 3 ? undefined : `${b.items?.length} invoices, expected 3`,
    ),
  }));
  return [
    fromPool('GET licenses page 1 (1-2 licenses)', licenses, LIST_TARGETS),
    fromPool(`GET licenses page 1 (reseller, ${reseller.licenses} licenses)`, [resellerLicenses], LIST_TARGETS),
    fromPool(`GET nodes page 1 (${big.nodes}-node license)`, [nodesPage(1)], LIST_TARGETS),
    fromPool(`GET nodes page ${lastPage} (${big.nodes}-node license)`, [nodesPage(lastPage)], LIST_TARGETS),
    fromPool('GET billing subscriptions', subscriptions, LIST_TARGETS),
    fromPool('GET billing invoices of a subscription', invoices, LIST_TARGETS),
  ];
}

// ---------------------------------------------------------------------------------------------
// Measuring

type Rows = Record<string, { value: unknown; target: string }>;

async function probe(port: number, label: string, e: Entry) {
  const { req } = e;
  const res = await fetch(`http://127.0.0.1:${port}${req.path}`, {
    method: req.method,
    headers: {
      accept: 'application/json',
      ...req.headers,
      ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(req.body !== undefined ? { body: req.body } : {}),
  });
  const text = await res.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    // Checked below as an empty object.
  }
  const problem = e.expect(res.status, body, res.headers);
  if (problem) throw new Error(`${label}: ${req.method} ${req.path} answered ${res.status} ${text.slice(0, 300)}: ${problem}`);
}

async function measure(c: Ctx, sc: Scenario): Promise<LoadResult> {
  if (interrupted) throw new Error('Interrupted');
  const server = sc.target === 'portal' ? c.portal : c.bare;
  for (const e of sc.probes) await probe(server.port, sc.label, e);
  const r = await runLoad({
    port: server.port,
    connections: c.s.connections,
    durationMs: c.s.durationMs,
    warmupMs: c.s.warmupMs,
    next: sc.next,
    serverPid: server.pid,
    ...(sc.ok ? { ok: sc.ok } : {}),
  });
  if (interrupted) throw new Error('Interrupted');
  const statuses = Object.entries(r.statuses)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  console.log(
    `  ${sc.label}: ${round(r.rps)} req/s, p50 ${round(r.p50, 2)} ms, p95 ${round(r.p95, 2)} ms, p99 ${round(r.p99, 2)} ms, max ${round(r.max, 1)} ms [${statuses}] ` +
      `CPU server ${round(r.cpu.server)}%, client ${round(r.cpu.client)}%, host ${round(r.cpu.host)}% of ${r.cpu.hostCores * 100}%`,
  );
  if (r.requests === 0) throw new Error(`${sc.label}: no request completed`);
  return r;
}

function rows(label: string, r: LoadResult, baseline: number | undefined, t: Targets = {}): Rows {
  const out: Rows = {
    [`${label} req/s`]: { value: round(r.rps), target: '' },
    [`${label} p50 (ms)`]: { value: round(r.p50, 2), target: '' },
    [`${label} p95 (ms)`]: { value: round(r.p95, 2), target: t.p95 ?? '' },
    [`${label} p99 (ms)`]: { value: round(r.p99, 2), target: t.p99 ?? '' },
  };
  if (baseline !== undefined) out[`${label} ratio to bare`] = { value: round(r.rps / baseline, 3), target: t.ratio ?? '' };
  out[`${label} errors`] = { value: r.errors, target: '0' };
  out[`${label} CPU % server/client/host`] = {
    value: `${round(r.cpu.server)}/${round(r.cpu.client)}/${round(r.cpu.host)} of ${r.cpu.hostCores * 100}`,
    target: '',
  };
  return out;
}

/** Runs the portal scenarios, each against the bare route of its method. */
async function runScenarios(
  c: Ctx,
  scenarios: Scenario[],
  baselines: Partial<Record<'GET' | 'POST', number>>,
  after?: (sc: Scenario) => Promise<void>,
) {
  const out: Rows = {};
  for (const sc of scenarios) {
    const r = await measure(c, sc);
    Object.assign(out, rows(sc.label, r, baselines[sc.next(0).method], sc.targets));
    await after?.(sc);
  }
  return out;
}

async function bare(c: Ctx, method: 'GET' | 'POST', out: Rows): Promise<number> {
  const label = `bare Fastify ${method} /ok`;
  const r = await measure(c, bareScenario(label, method));
  Object.assign(out, rows(label, r, undefined));
  return r.rps;
}

function takeSeedRows(c: Ctx): Rows {
  const out = c.seedRows ?? {};
  c.seedRows = undefined;
  return { ...out };
}

/** Section 'api': seeding, the bare baselines, validate, activate and the session lookup. */
export async function apiBench(): Promise<Rows> {
  const c = await context();
  await c.seeded.resetMutations();
  const out = takeSeedRows(c);
  const baselines = { POST: await bare(c, 'POST', out), GET: await bare(c, 'GET', out) };
  Object.assign(
    out,
    await runScenarios(c, apiScenarios(c.seeded), baselines, async (sc) => {
      // New activations grow the big license: remove them so later scenarios see the seeded data.
      if (sc.label.startsWith('activate (new node')) await c.seeded.resetMutations();
    }),
  );
  return out;
}

/** Section 'lists': the paged lists of a signed-in customer (licenses, nodes, billing). */
export async function listsBench(): Promise<Rows> {
  const c = await context();
  await c.seeded.resetMutations();
  const out = takeSeedRows(c);
  const baselines = { GET: await bare(c, 'GET', out) };
  Object.assign(out, await runScenarios(c, listScenarios(c.seeded), baselines));
  return out;
}
