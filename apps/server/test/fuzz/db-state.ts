import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers';

/**
 * A fingerprint of the whole database: per table, its row count and an MD5 over every row (as JSON,
 * sorted), in one query. "A rejected request changes nothing" is two equal fingerprints.
 */
export type DbState = Record<string, { rows: number; md5: string }>;

/** Columns a read may legitimately touch: a session's last-seen time (idle timeout). */
const VOLATILE: Record<string, string[]> = { sessions: ['last_seen_at'] };

export async function dbStateReader(t: TestApp) {
  /** How many reads went over every row, and how many the unchanged snapshot answered. */
  const reads = { full: 0, cached: 0 };
  const tables = (
    await rows<{ name: string }>(
      t,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).map((r) => r.name);
  if (tables.length < 10) throw new Error(`expected the portal's tables, found ${tables.join(', ')}`);
  const query = tables
    .map((name) => {
      if (!/^[a-z_]+$/.test(name)) throw new Error(`unexpected table name ${name}`);
      const drop = (VOLATILE[name] ?? []).map((c) => ` - '${c}'`).join('');
      return `select '${name}' as name, count(*)::int as n, coalesce(md5(string_agg(r, E'\\n' order by r)), '') as h
              from (select (to_jsonb(x)${drop})::text as r from "${name}" x) s`;
    })
    .join('\nunion all\n');

  // The last fingerprint and the transaction snapshot it was read under. Any write to a table takes
  // a transaction id, which moves the snapshot's xmax (or, still running, shows in its list of
  // running ids): an equal snapshot means no write has committed since, and the fingerprint
  // stands without reading every row again. The snapshot is the server's, across its databases,
  // so a write elsewhere only costs a fresh read, never a wrong answer.
  let last: { snapshot: string; state: DbState } | undefined;
  const snapshotNow = async () => (await rows<{ s: string }>(t, sql.raw('select pg_current_snapshot()::text as s')))[0]!.s;

  return {
    tables,
    async read(): Promise<DbState> {
      const snapshot = await snapshotNow();
      if (last?.snapshot === snapshot) {
        reads.cached++;
        return last.state;
      }
      const state: DbState = {};
      for (const r of await rows<{ name: string; n: number; h: string }>(t, sql.raw(query))) {
        state[r.name] = { rows: Number(r.n), md5: r.h };
      }
      reads.full++;
      // Read again after: a write that committed while the rows were read leaves no snapshot to keep.
      last = (await snapshotNow()) === snapshot ? { snapshot, state } : undefined;
      return state;
    },
    reads,
  };
}

/** The tables whose content differs, with their row counts before and after. */
export function changedTables(before: DbState, after: DbState): string[] {
  return Object.keys({ ...before, ...after })
    .filter((k) => before[k]?.md5 !== after[k]?.md5 || before[k]?.rows !== after[k]?.rows)
    .map((k) => `${k} (${before[k]?.rows ?? 0} -> ${after[k]?.rows ?? 0} rows)`);
}

/**
 * Lets background work of earlier requests land: buffered license last-seen times and outbox
 * deliveries (sign-in e-mails, receipts), so the next fingerprint sees only the next request.
 */
export async function settle(t: TestApp) {
  await t.app.ctx.services.licenses.flushLastSeen();
  await t.app.ctx.services.outbox.kick();
  await t.app.ctx.services.outbox.drain();
}

async function rows<T>(t: TestApp, query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const res = (await t.db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
