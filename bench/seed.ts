// Seeds a PostgreSQL database for the API benchmarks: 100k customers' worth at BENCH_SCALE=1.
//
//   users            N = 100k x scale (all onboarded), one payment customer each
//   licenses         one per user, a second one for every fifth user (about 1.2 N), plus the
//                    "reseller" (user 1): the big license (10k nodes) and M = 100 x scale medium
//                    licenses (1k nodes each); 3% expired, 1% suspended (revoked), 10% at their limit
//   subscriptions    one per regular license (quantity = max_nodes <= 99), provider 'local'; the
//                    reseller's licenses are vendor-issued (no subscription, as `admin license issue`
//                    makes them); the big one admits 20k nodes (above the CLI's 10k cap) so that the
//                    benchmark can activate new nodes on it
//   invoices         three per subscription (the first and two renewals)
//   nodes            1M x scale in all (at least 2 per regular license on average), skewed: the
//                    10k-node license, the medium ones, then 0..3x the average per regular license
//   sessions         for 200 sample users and the reseller (cookies known to the benchmark), plus
//                    10% of users with sessions of their own (a realistically sized table)
//
// Rows are made by INSERT ... SELECT over generate_series; license keys (random symbols and a check
// character) are made in Node and sent in batches as arrays (unnest). Secondary indexes are dropped
// during the load and rebuilt after it, then VACUUM ANALYZE, as a restored production database is.
//
// Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is the server;
// a fresh database portal_bench_<random> is made and dropped at the end, or with BENCH_KEEP=1 the
// database portal_bench is kept and reused by later runs at the same scale within a day (dates such
// as license expiry are relative to the seed, so an older seed is made again).
//
// `node --import tsx bench/seed.ts` seeds (BENCH_KEEP=1 implied) and prints what it made.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import pg from 'pg';
import { LICENSE_KEY_ALPHABET, licenseKeyCheckCharacter } from '@portal/contract';
import { openDatabase } from '../apps/server/src/db/client';
import { round } from './support';

/** Bump when the shape of the seed changes: a kept database of another version is reseeded. */
const SEED_VERSION = 4;
export const BIG_NODES = 10_000;
const MEDIUM_NODES = 1_000;
const SAMPLE_USERS = 200;
/** A kept database older than this is seeded again (monthly licenses expire 2 to 29 days after the seed). */
const REUSE_HOURS = 24;
/** Fingerprints activated by the benchmark itself; removed before every run. */
export const NEW_NODE_PREFIX = 'bench-new-';

export type Pair = { key: string; fingerprint: string; hostname: string | null };
export type SessionUser = {
  cookie: string;
  /** The user's newest subscription. */
  stripeId: string;
  /** An active subscription that can change quantity, when the user has one. */
  changeable?: { stripeId: string; quantity: number } | undefined;
};

export type Seeded = {
  databaseUrl: string;
  database: string;
  reused: boolean;
  seedSeconds: number;
  counts: Record<string, number>;
  /** The 10k-node license and its owner (who also owns the medium licenses). */
  big: { key: string; id: string; nodes: number; fingerprints: string[] };
  reseller: { cookie: string; licenses: number };
  /** Activated nodes, weighted by node: regular licenses, medium ones (active licenses only). */
  regularPairs: Pair[];
  mediumPairs: Pair[];
  /** Keys of every status (active, expired, suspended), weighted by license. */
  anyKeys: string[];
  /** Keys of usable licenses. */
  activeKeys: string[];
  /** Regular customers with a session (1 or 2 licenses each). */
  users: SessionUser[];
  /** Removes what the benchmark itself added (new activations and their audit events). */
  resetMutations: () => Promise<void>;
  /** Closes the connection; drops the database unless it is kept. */
  close: () => Promise<void>;
};

export type SeedOptions = { scale: number; keep: boolean; serverUrl?: string; log?: (line: string) => void };

export const benchServerUrl = () => process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** `n` random license keys with a valid check character (rejection sampling: no modulo bias). */
export function makeLicenseKeys(n: number): string[] {
  const keys: string[] = new Array(n);
  let pool = randomBytes(4096);
  let p = 0;
  for (let k = 0; k < n; k++) {
    let body = '';
    while (body.length < 24) {
      if (p === pool.length) {
        pool = randomBytes(4096);
        p = 0;
      }
      const b = pool[p++]!;
      if (b < 248) body += LICENSE_KEY_ALPHABET[b % 31];
    }
    const symbols = body + licenseKeyCheckCharacter(body);
    keys[k] =
      `${symbols.slice(0, 5)}-${symbols.slice(5, 10)}-${symbols.slice(10, 15)}-${symbols.slice(15, 20)}-${symbols.slice(20)}`;
  }
  return keys;
}

/** The session cookie of sample user `i`: derived from the seed's salt, so a kept database needs no secrets stored. */
export const sessionSecret = (salt: string, i: number) => createHmac('sha256', salt).update(`session-${i}`).digest('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

type Plan = { scale: number; users: number; medium: number; regularAvg: number; sampleUsers: number[] };

export function planFor(scale: number): Plan {
  const users = Math.max(100, Math.round(100_000 * scale));
  const medium = Math.max(1, Math.round(100 * scale));
  const regularLicenses = users - 1 + Math.floor(users / 5);
  const totalNodes = Math.round(1_000_000 * scale);
  const regularAvg = Math.max(2, (totalNodes - BIG_NODES - medium * MEDIUM_NODES) / regularLicenses);
  const count = Math.min(SAMPLE_USERS, users - 1);
  const sampleUsers = Array.from({ length: count }, (_, k) => 2 + Math.floor((k * (users - 2)) / count));
  return { scale, users, medium, regularAvg, sampleUsers };
}

export async function seedDatabase(opts: SeedOptions): Promise<Seeded> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const serverUrl = opts.serverUrl ?? benchServerUrl();
  const database = opts.keep ? 'portal_bench' : `portal_bench_${randomBytes(4).toString('hex')}`;
  const databaseUrl = withDatabase(serverUrl, database);
  const plan = planFor(opts.scale);

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect().catch((err: Error) => {
    throw new Error(`Cannot reach PostgreSQL at ${serverUrl} (set BENCH_DATABASE_URL): ${err.message}`);
  });
  let client: pg.Client | undefined;
  try {
    let reused = false;
    let meta: Meta | undefined;
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount === 1;
    if (exists && opts.keep) {
      meta = await readMeta(databaseUrl);
      const ageHours = meta?.seededAt ? (Date.now() - Date.parse(meta.seededAt)) / 3_600_000 : Infinity;
      if (meta && meta.version === SEED_VERSION && meta.scale === opts.scale && meta.complete && ageHours < REUSE_HOURS)
        reused = true;
      else {
        const what = meta ? `version ${meta.version}, scale ${meta.scale}, ${round(ageHours, 1)} h old` : 'unknown';
        log(`  ${database} holds another seed (${what}): reseeding`);
        await admin.query(`drop database ${database} with (force)`);
      }
    }
    if (!reused) await admin.query(`create database ${database}`);
    await admin.end();

    // The server's own migrations make the schema (the same code path as a real start).
    const migrated = await openDatabase({ databaseUrl, poolSize: 1 });
    await migrated.close();

    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    if (!reused) {
      const t0 = performance.now();
      meta = await seed(client, plan, log);
      meta.seedSeconds = round((performance.now() - t0) / 1000, 1);
      await writeMeta(client, meta);
      log(`  seeded ${database} in ${meta.seedSeconds} s: ${JSON.stringify(meta.counts)}`);
    } else {
      log(`  reusing ${database} (seeded in ${meta!.seedSeconds} s): ${JSON.stringify(meta!.counts)}`);
    }
    const c = client;
    const m = meta!;
    const resetMutations = async () => {
      const removed = await c.query(`delete from nodes where license_id = $1 and fingerprint like '${NEW_NODE_PREFIX}%'`, [
        m.bigId,
      ]);
      // The server keeps licenses.active_nodes as it adds nodes; this delete bypasses it.
      await c.query(
        `update licenses set active_nodes = n.count
           from (select count(*)::int as count from nodes where license_id = $1) n
          where id = $1 and active_nodes <> n.count`,
        [m.bigId],
      );
      await c.query(
        `delete from audit_events where action = 'node_activated' and data->>'fingerprint' like '${NEW_NODE_PREFIX}%'`,
      );
      // Dead rows in the big license's index range would slow the scenarios that follow.
      if (removed.rowCount) await c.query('vacuum analyze nodes, audit_events');
      // Sessions stay within their idle limit however long ago the database was seeded.
      await c.query(`update sessions set last_seen_at = now(), expires_at = now() + interval '30 days' where id_hash = any($1)`, [
        [1, ...m.sampleUsers].map((i) => sha256(sessionSecret(m.salt, i))),
      ]);
    };
    await resetMutations();
    const workload = await loadWorkload(c, m);
    return {
      databaseUrl,
      database,
      reused,
      seedSeconds: m.seedSeconds,
      counts: m.counts,
      ...workload,
      resetMutations,
      close: async () => {
        await c.end();
        if (opts.keep) return;
        const a = new pg.Client({ connectionString: serverUrl });
        await a.connect();
        try {
          await a.query(`drop database if exists ${database} with (force)`);
        } finally {
          await a.end();
        }
      },
    };
  } catch (err) {
    await admin.end().catch(() => {});
    await client?.end().catch(() => {});
    if (!opts.keep) await dropQuietly(serverUrl, database);
    throw err;
  }
}

async function dropQuietly(serverUrl: string, database: string) {
  const a = new pg.Client({ connectionString: serverUrl });
  try {
    await a.connect();
    await a.query(`drop database if exists ${database} with (force)`);
  } catch {
    // Best effort.
  } finally {
    await a.end().catch(() => {});
  }
}

type Meta = {
  version: number;
  scale: number;
  salt: string;
  sampleUsers: number[];
  bigId: string;
  seedSeconds: number;
  seededAt: string;
  counts: Record<string, number>;
  complete: boolean;
};

async function readMeta(databaseUrl: string): Promise<Meta | undefined> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query(`select value from bench_meta where key = 'seed'`);
    return r.rows[0]?.value as Meta | undefined;
  } catch {
    return undefined;
  } finally {
    await c.end();
  }
}

async function writeMeta(c: pg.Client, meta: Meta) {
  await c.query('create table if not exists bench_meta (key text primary key, value jsonb not null)');
  await c.query(`insert into bench_meta values ('seed', $1) on conflict (key) do update set value = excluded.value`, [
    JSON.stringify(meta),
  ]);
}

const SEEDED_TABLES = ['users', 'customers', 'subscriptions', 'invoices', 'licenses', 'nodes', 'sessions', 'audit_events'];

async function seed(c: pg.Client, plan: Plan, log: (line: string) => void): Promise<Meta> {
  const salt = randomBytes(16).toString('hex');
  const step = async (label: string, work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    log(`    ${label}: ${round((performance.now() - t) / 1000, 1)} s`);
  };
  await c.query(`set synchronous_commit = off`);
  await c.query(`set maintenance_work_mem = '256MB'`);
  // Foreign keys hold by construction; skipping their per-row triggers needs a superuser.
  await c
    .query(`set session_replication_role = replica`)
    .catch(() => log('    (not a superuser: foreign keys are checked row by row)'));

  // Secondary indexes (not primary keys or unique constraints) are rebuilt after the load.
  const { rows: indexes } = await c.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relnamespace = 'public'::regnamespace and t.relname = any($1)
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [SEEDED_TABLES],
  );
  for (const ix of indexes) await c.query(`drop index ${ix.name}`);

  await step('users and customers', async () => {
    await c.query(`create temp table bu as select g as i, gen_random_uuid() as id from generate_series(1, $1::int) g`, [
      plan.users,
    ]);
    await c.query(`alter table bu add primary key (i)`);
    await c.query(
      `insert into users (id, email, fname, lname, company, onboarded, created_at)
       select id, 'user' || i || '@bench.example', 'Bench', 'User ' || i,
              case when i % 3 = 0 then 'Company ' || (i % 5000) end, true,
              now() - interval '400 days' + (i % 1000) * interval '1 hour'
         from bu`,
    );
    await c.query(
      `insert into customers (user_id, provider, provider_customer_id, created_at)
       select id, 'local', 'cus_bench_' || i, now() - interval '400 days' from bu`,
    );
  });

  await step('license plan and keys', async () => {
    // kind 0: the big license, 1: medium (both the reseller's, user 1), 2: regular.
    await c.query(
      `create temp table bl as
       with plan as (
         select 1 as user_i, 0 as kind, 1 as k, $2::int as n
         union all select 1, 1, g, $3::int from generate_series(1, $4::int) g
         union all select u, 2, k, round($5::float8 * 3 * random() ^ 2)::int
           from generate_series(2, $1::int) u, generate_series(1, case when u % 5 = 0 then 2 else 1 end) k
       ), numbered as (
         select row_number() over (order by kind, user_i, k)::int as j, user_i, kind, n,
                gen_random_uuid() as id, gen_random_uuid() as sub_id
           from plan
       ), shaped as (
         select *,
                case when kind = 2 and j % 100 = 7 then 'suspended' else 'active' end as status,
                case when kind < 2 or j % 4 = 0 then 'year' else 'month' end as period,
                now() - (j % 365 + 1) * interval '1 day' - j * interval '1 second' as created_at
           from numbered
       )
       select *,
              case when kind = 0 then 20000 when kind = 1 then n + 500
                   else least(99, greatest(n, 1) + case when j % 10 = 0 then 0 else 1 + j % 4 end) end as max_nodes,
              case when kind = 2 and j % 50 = 3 then now() - (j % 30 + 1) * interval '1 day'
                   when period = 'year' then now() + (j % 360 + 5) * interval '1 day'
                   else now() + (j % 28 + 2) * interval '1 day' end as expires_at
         from shaped`,
      [plan.users, BIG_NODES, MEDIUM_NODES, plan.medium, plan.regularAvg],
    );
    await c.query(`alter table bl add primary key (j)`);
    const { rows } = await c.query<{ n: number }>(`select count(*)::int as n from bl`);
    const keys = makeLicenseKeys(rows[0]!.n);
    await c.query(`create temp table bk (j int primary key, key text not null)`);
    for (let from = 0; from < keys.length; from += 50_000) {
      const batch = keys.slice(from, from + 50_000);
      await c.query(`insert into bk select * from unnest($1::int[], $2::text[])`, [batch.map((_, k) => from + k + 1), batch]);
    }
  });

  await step('subscriptions and licenses', async () => {
    await c.query(
      `insert into subscriptions (id, provider_id, user_id, provider, status, plan, quantity, interval, unit_amount, currency,
                                  current_period_start, current_period_end, cancel_at_period_end, canceled_at, created_at, updated_at)
       select l.sub_id, 'sub_bench_' || l.j, u.id, 'local',
              (case when l.status = 'suspended' or l.expires_at <= now() then 'canceled' else 'active' end)::subscription_status,
              'Node license', l.max_nodes, l.period::billing_interval, case when l.period = 'year' then 25000 else 2500 end, 'usd',
              l.expires_at - case when l.period = 'year' then interval '1 year' else interval '1 month' end, l.expires_at,
              l.j % 20 = 5, case when l.status = 'suspended' or l.expires_at <= now() then least(l.expires_at, now()) end,
              l.created_at, l.created_at
         from bl l join bu u on u.i = l.user_i
        where l.kind = 2`,
    );
    await c.query(
      // active_nodes: the "nodes" step below gives license j exactly bl.n nodes.
      `insert into licenses (id, key, user_id, subscription_id, status, max_nodes, active_nodes, expires_at, revoked_at, created_at, updated_at)
       select l.id, k.key, u.id, case when l.kind = 2 then l.sub_id end, l.status::license_status, l.max_nodes, l.n, l.expires_at,
              case when l.status = 'suspended' then l.created_at + interval '10 days' end, l.created_at, l.created_at
         from bl l join bk k on k.j = l.j join bu u on u.i = l.user_i`,
    );
  });

  await step('invoices', async () => {
    await c.query(
      `insert into invoices (number, subscription_id, user_id, status, currency, amount_due, amount_paid,
                             period_start, period_end, lines, customer_name, customer_email, reason, created_at)
       select 'INV-' || nextval('invoice_number_seq'), l.sub_id, u.id, st.status::invoice_status, 'usd', p.amount,
              case when st.status = 'open' then 0 else p.amount end, p.ps, p.pe,
              jsonb_build_array(jsonb_build_object('description', p.q || ' x Node license', 'quantity', p.q,
                'unitAmount', p.unit, 'amount', p.amount, 'periodStart', p.ps, 'periodEnd', p.pe)),
              'Bench User ' || l.user_i, 'user' || l.user_i || '@bench.example',
              case when k = 1 then 'subscription_create' else 'subscription_cycle' end, p.ps
         from bl l join bu u on u.i = l.user_i
              cross join generate_series(1, 3) k
              cross join lateral (
                select least(l.max_nodes, 100) as q, case when l.period = 'year' then 25000 else 2500 end as unit,
                       case when l.period = 'year' then interval '1 year' else interval '1 month' end as per
              ) base
              cross join lateral (
                select base.q, base.unit, base.q * base.unit as amount,
                       l.expires_at - (4 - k) * base.per as ps, l.expires_at - (3 - k) * base.per as pe
              ) p
              cross join lateral (select case when k = 3 and l.j % 25 = 0 then 'open' else 'paid' end as status) st
        where l.kind = 2
        order by l.j, k`,
    );
  });

  await step('nodes', async () => {
    await c.query(
      `insert into nodes (license_id, fingerprint, hostname, activated_at, last_seen_at)
       select l.id, 'fp-' || l.j || '-' || g || '-' || left(md5(l.j || ':' || g), 16),
              case when g % 4 = 0 then null else 'node-' || l.j || '-' || g || '.bench.example' end,
              l.created_at + g * interval '1 second', now() - ((l.j + g) % 1440) * interval '1 minute'
         from bl l cross join lateral generate_series(1, l.n) g`,
    );
  });

  await step('sessions', async () => {
    await c.query(
      `insert into sessions (id_hash, user_id, method, created_at, last_seen_at, expires_at)
       select encode(sha256(convert_to('noise-' || i || '-' || $1, 'UTF8')), 'hex'), id, 'link',
              now() - interval '3 days', now() - (i % 72) * interval '1 hour', now() + interval '27 days'
         from bu where i % 10 = 3`,
      [salt],
    );
    const sample = [1, ...plan.sampleUsers];
    await c.query(
      `insert into sessions (id_hash, user_id, method, created_at, last_seen_at, expires_at)
       select s.h, u.id, 'link', now(), now(), now() + interval '30 days'
         from unnest($1::int[], $2::text[]) as s(i, h) join bu u on u.i = s.i
       on conflict do nothing`,
      [sample, sample.map((i) => sha256(sessionSecret(salt, i)))],
    );
  });

  await step('indexes', async () => {
    for (const ix of indexes) await c.query(ix.def);
  });
  await c.query(`set session_replication_role = origin`).catch(() => {});
  await step('vacuum analyze', async () => {
    for (const t of SEEDED_TABLES) await c.query(`vacuum analyze ${t}`);
  });

  const { rows: big } = await c.query<{ id: string }>(`select id from bl where j = 1`);
  const { rows: counts } = await c.query(
    `select (select count(*) from users)::int as users, (select count(*) from licenses)::int as licenses,
            (select count(*) from nodes)::int as nodes, (select count(*) from subscriptions)::int as subscriptions,
            (select count(*) from invoices)::int as invoices, (select count(*) from sessions)::int as sessions`,
  );
  await c.query('drop table bu, bl, bk');
  return {
    version: SEED_VERSION,
    scale: plan.scale,
    salt,
    sampleUsers: plan.sampleUsers,
    bigId: big[0]!.id,
    seedSeconds: 0,
    seededAt: new Date().toISOString(),
    counts: counts[0],
    complete: true,
  };
}

/** What the benchmark sends: keys, fingerprints and cookies read back from the seeded database. */
async function loadWorkload(c: pg.Client, m: Meta) {
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await c.query<T>(text, values)).rows;
  const [big] = await q<{ key: string; user_id: string; nodes: number }>(
    `select key, user_id, (select count(*)::int from nodes where license_id = $1) as nodes from licenses where id = $1`,
    [m.bigId],
  );
  if (!big) throw new Error('The seeded database has no big license');
  const bigFingerprints = (
    await q<{ fingerprint: string }>(
      `select fingerprint from nodes where license_id = $1 and fingerprint not like '${NEW_NODE_PREFIX}%' order by random() limit 500`,
      [m.bigId],
    )
  ).map((r) => r.fingerprint);
  const usable = `l.status = 'active' and l.expires_at > now() + interval '1 hour'`;
  const mediumPairs = await q<Pair>(
    `select l.key, n.fingerprint, n.hostname from licenses l join nodes n on n.license_id = l.id
      where l.user_id = $1 and l.id <> $2 and ${usable} order by random() limit 300`,
    [big.user_id, m.bigId],
  );
  // Node-weighted: every activated machine validates at the same rate.
  const percent = Math.min(100, (4000 / Math.max(1, m.counts.nodes ?? 1)) * 100);
  const regularPairs = await q<Pair>(
    `select l.key, n.fingerprint, n.hostname from nodes n tablesample bernoulli (${percent})
       join licenses l on l.id = n.license_id
      where l.user_id <> $1 and ${usable} limit 2000`,
    [big.user_id],
  );
  const keyPercent = Math.min(100, (3000 / Math.max(1, m.counts.licenses ?? 1)) * 100);
  const anyKeys = (await q<{ key: string }>(`select key from licenses tablesample bernoulli (${keyPercent}) limit 1000`)).map(
    (r) => r.key,
  );
  const activeKeys = (
    await q<{ key: string }>(
      `select l.key from licenses l tablesample bernoulli (${keyPercent}) where ${usable} and l.user_id <> $1 limit 1000`,
      [big.user_id],
    )
  ).map((r) => r.key);
  const [reseller] = await q<{ licenses: number }>(`select count(*)::int as licenses from licenses where user_id = $1`, [
    big.user_id,
  ]);
  const emails = m.sampleUsers.map((i) => `user${i}@bench.example`);
  const users = (
    await q<{ email: string; stripe_id: string; changeable_id: string | null; quantity: number | null }>(
      `select u.email, s.provider_id as stripe_id, c.provider_id as changeable_id, c.quantity
         from users u
        cross join lateral (select provider_id from subscriptions where user_id = u.id order by created_at desc limit 1) s
         left join lateral (
           select provider_id, quantity from subscriptions
            where user_id = u.id and status = 'active' and not cancel_at_period_end and current_period_end > now() + interval '1 hour'
            limit 1
         ) c on true
        where lower(u.email) = any($1)`,
      [emails],
    )
  ).map((r): SessionUser => ({
    cookie: sessionSecret(m.salt, Number(/^user(\d+)@/.exec(r.email)![1])),
    stripeId: r.stripe_id,
    changeable: r.changeable_id ? { stripeId: r.changeable_id, quantity: r.quantity! } : undefined,
  }));
  for (const [name, list] of Object.entries({ bigFingerprints, mediumPairs, regularPairs, anyKeys, activeKeys, users })) {
    if (list.length === 0) throw new Error(`The seeded database gave no ${name} to benchmark with`);
  }
  return {
    big: { key: big.key, id: m.bigId, nodes: big.nodes, fingerprints: bigFingerprints },
    reseller: { cookie: sessionSecret(m.salt, 1), licenses: reseller!.licenses },
    regularPairs,
    mediumPairs,
    anyKeys,
    activeKeys,
    users,
  };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  const t0 = performance.now();
  const seeded = await seedDatabase({ scale, keep: true });
  console.log(`${seeded.databaseUrl}: ${seeded.reused ? 'reused' : 'seeded'} in ${round((performance.now() - t0) / 1000, 1)} s`);
  await seeded.close();
}
