// License validation benchmark (`npm run bench -- validation`): the portal as `npm start` runs it
// (the server bundle under plain node, with its workers and log writer) on the embedded database
// (PGlite, the default) and on PostgreSQL, beside two node:http references measured in the same run
// with the same load generator:
//   wire    a bare node:http server answering a small JSON body
//   signed  node:http parsing the body, looking the node up in memory and answering the same kind
//           of answer signed with Ed25519: the limit of a signed answer on one core (the target's
//           reference: the portal's throughput is given as a share of it)
//   signed-pool  the same, signing on libuv's thread pool as the portal does: the limit of one
//           process whose signing runs on other cores (shown beside, for what the pool adds)
// The signed reference is measured again just before each closed-loop portal scenario, and the
// scenario's share is taken against that measurement (a shared machine's speed moves within
// minutes); the run reports how far the reference moved over the run and warns past 15 %.
//
// Scenarios, each with 50 keep-alive connections (BENCH_CONNECTIONS) and a fresh nonce in every
// request:
//   fleet   the 50 activated nodes of one license in turn (closed loop: as fast as answered)
//   mixed   a 10k-node license (60%), a small license (10%), unknown keys (10%), suspended (5%) and
//           expired (5%) keys, fingerprints not activated (10%)
//   steady  fleet and mixed offered at a steady BENCH_RATE (default 1000) req/s (open loop); the
//           signed reference too, so that the machine's own share of the tail shows
//
// Settings: BENCH_DURATION (s, default 10), BENCH_WARMUP_MS (default 2000), BENCH_CONNECTIONS,
// BENCH_RATE, BENCH_DATABASES (pglite,postgres), BENCH_DATABASE_URL (see seed.ts),
// BENCH_PROFILE=1 (CPU profiles of the signed reference and of the portal, summarized; files kept
// in bench/results/profile-reference-signed/ and bench/results/profile-<database>/).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { SIGNATURE_HEADER } from '@portal/contract';
import { openDatabase } from '../apps/server/src/db/client';
import { startChild, type Server } from './api';
import { startServerOfNpmStart } from './support';
import { runLoad, type Req } from './load';
import { summarizeProfile } from './profile';
import { benchServerUrl, makeLicenseKeys } from './seed';
import { runSteady } from './steady';
import { root, round } from './support';

type Rows = Record<string, { value: unknown; target: string }>;

const durationMs = 1000 * Number(process.env.BENCH_DURATION ?? '10');
const warmupMs = Number(process.env.BENCH_WARMUP_MS ?? (durationMs >= 10_000 ? 2000 : 500));
const connections = Number(process.env.BENCH_CONNECTIONS ?? '50');
const rate = Number(process.env.BENCH_RATE ?? '1000');
const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').filter(Boolean);
const profile = process.env.BENCH_PROFILE === '1';

const FLEET_NODES = 50;
const BIG_NODES = 10_000;

type Fleet = { fleetKey: string; bigKey: string; suspendedKey: string; expiredKey: string; unknownKeys: string[] };

/** The licenses of the scenarios, made with plain SQL (as a restored database would hold them). */
async function seed(open: Parameters<typeof openDatabase>[0]): Promise<Fleet> {
  const database = await openDatabase(open);
  const [fleetKey, bigKey, suspendedKey, expiredKey, ...unknownKeys] = makeLicenseKeys(104) as [string, string, string, string];
  try {
    const add = async (key: string, maxNodes: number, nodes: number, prefix: string, extra?: ReturnType<typeof sql>) => {
      const rows = await database.db.execute<{ id: string }>(
        sql`insert into licenses (key, max_nodes, active_nodes, expires_at, status)
            values (${key}, ${maxNodes}, ${nodes}, now() + interval '30 days', 'active') returning id`,
      );
      // Both drivers answer { rows }.
      const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]!.id;
      // Last seen within the past minute, spread evenly: the steady state of a fleet validating
      // more often than once a minute, whose stored times move on a minute at a time (ADR 043), so
      // every scenario writes its share of them, whenever it runs.
      await database.db.execute(
        sql`insert into nodes (license_id, fingerprint, hostname, last_seen_at)
            select ${id}::uuid, ${prefix} || g, 'host-' || g, now() - random() * interval '60 seconds'
            from generate_series(0, ${nodes - 1}) g`,
      );
      if (extra) await database.db.execute(sql`update licenses set ${extra} where id = ${id}::uuid`);
    };
    await add(fleetKey, FLEET_NODES + 10, FLEET_NODES, 'fleet-');
    await add(bigKey, 2 * BIG_NODES, BIG_NODES, 'big-');
    await add(suspendedKey, 10, 5, 'suspended-', sql`status = 'suspended', revoked_at = now()`);
    await add(expiredKey, 10, 5, 'expired-', sql`expires_at = now() - interval '1 day'`);
  } finally {
    await database.close();
  }
  return { fleetKey, bigKey, suspendedKey, expiredKey, unknownKeys };
}

const nonce = () => randomBytes(8).toString('hex');
const validate = (key: string, fingerprint: string | undefined): Req => ({
  method: 'POST',
  path: `/api/licenses/${key}/validate`,
  body: JSON.stringify({ ...(fingerprint ? { fingerprint } : {}), nonce: nonce() }),
});

function fleetRequests(f: Fleet) {
  return (seq: number) => validate(f.fleetKey, `fleet-${seq % FLEET_NODES}`);
}

/** Per 100 requests, in a fixed shuffled order. */
function mixedRequests(f: Fleet) {
  const kinds: Array<(seq: number) => Req> = [];
  const add = (n: number, make: (seq: number) => Req) => {
    for (let i = 0; i < n; i++) kinds.push(make);
  };
  const rnd = (n: number) => Math.floor(Math.random() * n);
  add(60, () => validate(f.bigKey, `big-${rnd(BIG_NODES)}`));
  add(10, (seq) => validate(f.fleetKey, `fleet-${seq % FLEET_NODES}`));
  add(10, (seq) => validate(f.unknownKeys[seq % f.unknownKeys.length]!, `fp-${rnd(1000)}`));
  add(5, () => validate(f.suspendedKey, `suspended-${rnd(5)}`));
  add(5, () => validate(f.expiredKey, undefined));
  add(10, () => validate(f.bigKey, `new-${rnd(1_000_000)}`));
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return (seq: number) => kinds[seq % kinds.length]!(seq);
}

/** A few answers checked before the load: status, code, the signature header. */
async function probe(port: number, f: Fleet) {
  const cases: Array<[Req, string]> = [
    [validate(f.fleetKey, 'fleet-1'), 'VALID'],
    [validate(f.bigKey, 'big-9999'), 'VALID'],
    [validate(f.bigKey, 'not-activated'), 'NOT_ACTIVATED'],
    [validate(f.unknownKeys[0]!, 'x'), 'NOT_FOUND'],
    [validate(f.suspendedKey, 'suspended-1'), 'SUSPENDED'],
    [validate(f.expiredKey, undefined), 'EXPIRED'],
  ];
  for (const [req, code] of cases) {
    const res = await fetch(`http://127.0.0.1:${port}${req.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: req.body!,
    });
    const body = (await res.json()) as { code?: string };
    if (res.status !== 200 || body.code !== code || !res.headers.get(SIGNATURE_HEADER))
      throw new Error(`${req.path} answered ${res.status} ${JSON.stringify(body)}, expected a signed ${code}`);
  }
}

async function closedLoop(server: Server, next: (seq: number) => Req) {
  const r = await runLoad({ port: server.port, connections, durationMs, warmupMs, next, serverPid: server.pid });
  // The server's CPU time per answer (µs): on a busy machine, throughput measures the contention as
  // much as the server; CPU time per answer much less so. One saturated core serves 1e6/this req/s.
  const perAnswer = (percent: number) => ((percent / 100) * r.seconds * 1e6) / Math.max(1, r.requests);
  // The event loop's share is what one process cannot spread over more cores: a process serves at
  // most 1e6/loopUs req/s however many cores it has, using cpuUs/loopUs of them at that rate.
  return { ...r, cpuUs: perAnswer(r.cpu.server), loopUs: perAnswer(r.cpu.serverLoop) };
}

const log = (label: string, text: string) => console.log(`  ${label}: ${text}`);

let signedPoolRps = NaN;
/** The signed reference's throughput, first measured and then before each portal scenario. */
const signedMeasured: number[] = [];
/** A machine whose speed moved more than this between the signed reference's measurements gives no comparable ratios. */
const DRIFT_LIMIT = 0.15;

const referenceRequests = (seq: number) => validate('REFER-ENCER-EFERE-NCERE-FEREN', `fleet-${seq % FLEET_NODES}`);

async function references(out: Rows): Promise<void> {
  const env = { PATH: process.env.PATH ?? '' };
  for (const mode of ['wire', 'signed', 'signed-pool'] as const) {
    // With BENCH_PROFILE=1 the signed reference is profiled too, so that both CPU times per answer
    // carry the profiler's cost and the two profiles can be read side by side.
    const profileDir = path.join(root, 'bench/results', 'profile-reference-signed');
    const profiled = profile && mode === 'signed';
    if (profiled) {
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
    }
    const server = await startChild(
      'bench/reference-server.ts',
      { ...env, REFERENCE: mode },
      profiled ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {},
    );
    try {
      const r = await closedLoop(server, referenceRequests);
      log(
        `${mode} reference`,
        `${round(r.rps)} req/s, p99 ${round(r.p99, 2)} ms, CPU server ${round(r.cpu.server)}%, ${round(r.cpuUs)} µs CPU an answer (event loop ${round(r.loopUs)})`,
      );
      out[`${mode} reference req/s`] = { value: round(r.rps), target: '' };
      out[`${mode} reference CPU per answer (µs)`] = { value: round(r.cpuUs), target: '' };
      out[`${mode} reference event loop CPU per answer (µs)`] = { value: round(r.loopUs), target: '' };
      if (mode === 'signed-pool') signedPoolRps = r.rps;
      if (mode === 'signed') {
        signedMeasured.push(r.rps);
        out['signed reference share of wire'] = {
          value: round(r.rps / (out['wire reference req/s']!.value as number), 3),
          target: '',
        };
        // The same steady rate as the portal's: on a shared machine the tail comes partly from the
        // machine (other processes taking the cores), which the reference shows as well.
        const s = await runSteady({ port: server.port, rate, connections, durationMs, warmupMs, next: referenceRequests });
        log(
          `signed reference at ${rate} req/s`,
          `${s.answered} of ${s.offered} answered, errors ${s.errors}, p50 ${round(s.p50, 2)} p99 ${round(s.p99, 2)} max ${round(s.max, 1)} ms`,
        );
        out[`signed reference at ${rate}/s p99 (ms)`] = { value: round(s.p99, 2), target: '' };
      }
    } finally {
      await server.stop();
    }
    if (profiled) {
      const top = summarizeProfile(profileDir);
      console.log(`  signed reference profile (whole run, self time):\n${top.map((l) => `    ${l}`).join('\n')}`);
    }
  }
}

/**
 * Starts the portal on `db`, probes it, runs the four scenarios; answers rows prefixed by the
 * database. Each closed-loop scenario is shared against the signed reference (`signed`, kept
 * running) measured just before it: a shared virtual machine's speed moves within minutes (the
 * same code's CPU time per answer was seen to double within one run), far less within seconds.
 */
async function portalRuns(db: string, env: Record<string, string>, f: Fleet, signed: Server, out: Rows) {
  const dataDir = env.DATA_DIR!;
  const profileDir = path.join(root, 'bench/results', `profile-${db}`);
  if (profile) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  // What `npm start` runs (the server bundle, its workers, its log writer), as a vendor runs it.
  const server = await startServerOfNpmStart(
    {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      // The production default: validation writes no per-request lines (its route logs at warn).
      LOG_LEVEL: 'info',
      // The load generator would meet the per-key limit within a second; the reference has none.
      RATE_LIMIT_LICENSE: '0',
      ...env,
    },
    { quiet: true, ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}) },
  );
  try {
    await probe(server.port, f);
    const ratioTarget = '>= 0.70 (aim 0.9)';
    for (const [name, next] of [
      ['fleet', fleetRequests(f)],
      ['mixed', mixedRequests(f)],
    ] as const) {
      const ref = await closedLoop(signed, referenceRequests);
      signedMeasured.push(ref.rps);
      const r = await closedLoop(server, next);
      const ratio = r.rps / ref.rps;
      log(
        `${db} ${name}`,
        `${round(r.rps)} req/s (${round(ratio, 3)} of signed just before: ${round(ref.rps)} req/s, ${round(ref.cpuUs)} µs; ${round(r.rps / signedPoolRps, 3)} of signed-pool), p50 ${round(r.p50, 2)} p99 ${round(r.p99, 2)} ms, errors ${r.errors}, CPU server ${round(r.cpu.server)}% host ${round(r.cpu.host)}%, ${round(r.cpuUs)} µs CPU an answer (${round(ref.cpuUs / r.cpuUs, 3)} of signed), event loop ${round(r.loopUs)} µs (one process's ceiling ${round(1e6 / r.loopUs)} req/s on ${round(r.cpuUs / r.loopUs, 2)} cores)`,
      );
      out[`${db} ${name} signed reference just before (req/s)`] = { value: round(ref.rps), target: '' };
      out[`${db} ${name} req/s`] = { value: round(r.rps), target: '' };
      out[`${db} ${name} share of signed`] = { value: round(ratio, 3), target: ratioTarget };
      out[`${db} ${name} share of signed-pool`] = { value: round(r.rps / signedPoolRps, 3), target: '' };
      out[`${db} ${name} CPU per answer (µs)`] = { value: round(r.cpuUs), target: '' };
      out[`${db} ${name} share of signed by CPU per answer`] = { value: round(ref.cpuUs / r.cpuUs, 3), target: '' };
      out[`${db} ${name} event loop CPU per answer (µs)`] = { value: round(r.loopUs), target: '' };
      out[`${db} ${name} one process's ceiling (req/s)`] = { value: round(1e6 / r.loopUs), target: '' };
      out[`${db} ${name} errors`] = { value: r.errors, target: '0' };
    }
    for (const [name, next] of [
      ['fleet', fleetRequests(f)],
      ['mixed', mixedRequests(f)],
    ] as const) {
      const s = await runSteady({ port: server.port, rate, connections, durationMs, warmupMs, next });
      log(
        `${db} ${name} at ${rate} req/s`,
        `${s.answered} of ${s.offered} answered, errors ${s.errors}, p50 ${round(s.p50, 2)} p99 ${round(s.p99, 2)} max ${round(s.max, 1)} ms`,
      );
      out[`${db} ${name} at ${rate}/s unanswered or failed`] = { value: s.errors, target: '0' };
      out[`${db} ${name} at ${rate}/s p99 (ms)`] = { value: round(s.p99, 2), target: '<= 10' };
    }
  } finally {
    await server.stop();
  }
  if (profile) {
    const top = summarizeProfile(profileDir);
    console.log(`  ${db} profile (whole run, self time):\n${top.map((l) => `    ${l}`).join('\n')}`);
    out[`${db} profile top`] = { value: top.slice(0, 8).join(' | '), target: '' };
  }
}

/** Section 'validation'. */
export async function validationBench(): Promise<Rows> {
  console.log(
    `  ${connections} connections, ${durationMs / 1000} s per scenario after ${warmupMs} ms warm-up; steady ${rate} req/s`,
  );
  const out: Rows = {};
  signedMeasured.length = 0;
  await references(out);
  // The signed reference again, kept running beside the portal (idle while the portal is measured).
  const signed = await startChild('bench/reference-server.ts', { PATH: process.env.PATH ?? '', REFERENCE: 'signed' });
  try {
    for (const db of databases) await onDatabase(db, signed, out);
  } finally {
    await signed.stop();
  }
  reportDrift(out);
  return out;
}

/** Seeds a fresh database of kind `db` (its own data directory, and on PostgreSQL its own database), runs the portal's scenarios on it, removes it. */
async function onDatabase(db: string, signed: Server, out: Rows) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `portal-bench-validation-${db}-`));
  try {
    if (db === 'pglite') {
      const f = await seed({ dataDir });
      await portalRuns(db, { DATA_DIR: dataDir }, f, signed, out);
    } else if (db === 'postgres') {
      const name = `portal_bench_validation_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: benchServerUrl() });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(benchServerUrl());
      url.pathname = `/${name}`;
      try {
        const f = await seed({ databaseUrl: url.toString() });
        await portalRuns(db, { DATA_DIR: dataDir, DATABASE_URL: url.toString() }, f, signed, out);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    } else throw new Error(`BENCH_DATABASES: unknown database ${db} (pglite, postgres)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * How far the machine's speed moved during the run, by the signed reference's measurements (the
 * first, and one before each portal scenario); a run where they differ by more than DRIFT_LIMIT
 * says so plainly, since its shares compare the portal with a machine of another speed.
 */
function reportDrift(out: Rows) {
  const slowest = Math.min(...signedMeasured);
  const fastest = Math.max(...signedMeasured);
  const drift = fastest / slowest - 1;
  log(
    'signed reference over the run',
    `${signedMeasured.map((r) => round(r)).join(', ')} req/s (the fastest ${round(100 * drift, 1)}% above the slowest)`,
  );
  out['machine drift over the run (%)'] = { value: round(100 * drift, 1), target: `<= ${100 * DRIFT_LIMIT}` };
  if (drift > DRIFT_LIMIT) {
    console.log(
      `  THE MACHINE'S SPEED MOVED by ${round(100 * drift, 1)}% during this run: its figures are not comparable with another run's. Run it again on a quiet machine.`,
    );
  }
}
