import { sql, type SQL } from 'drizzle-orm';
import { CONSOLE_SEARCH_LIMIT, CONSOLE_SEARCH_PER_KIND, type SearchMatch, type SearchResult } from '@portal/contract';
import type { Tx } from '../db/client';
import { preparedRowsOf } from '../db/rows';

/** `part` with LIKE's wildcards taken literally. */
const escapeLike = (part: string) => part.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `part` as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
export const containing = (part: string) => `%${escapeLike(part)}%`;

/** Substrings shorter than this are not looked for: they match nearly everything and no index helps. */
const SUBSTRING_MIN_LENGTH = 3;
const RANKS: SearchMatch[] = ['exact', 'prefix', 'substring'];

type Kind = SearchResult['kind'];
/** One matched row of any kind, in the shape every kind's branch answers (columns a kind lacks are null). */
type Row = {
  kind: Kind;
  id: string;
  user_id: string;
  email: string;
  fname: string;
  lname: string;
  company: string | null;
  fingerprint: string | null;
  hostname: string | null;
  number: string | null;
  rank: number;
  branch: number;
};
const customerLabel = (o: Pick<Row, 'email' | 'fname' | 'lname'>) => {
  const name = `${o.fname} ${o.lname}`.trim();
  return name ? `${name} <${o.email}>` : o.email;
};

/**
 * One kind's search: `from` selects Row's columns (all but rank and branch) and ends in a `where`;
 * each condition of a stage becomes its own branch.
 */
type KindSearch = { kind: Kind; from: SQL; exact: SQL[]; prefix: SQL[]; contains: SQL[] };

const OWNER = sql`u.id as user_id, u.email, u.fname, u.lname`;

/**
 * Every kind's matches in two statements at most. The first has every kind's exact and prefix
 * branches (B-tree indexes on the lower-cased text, migration 0012); the second the substring
 * branches (the trigram indexes of migration 0006) of the kinds that found nothing in the first,
 * when there is any. Each condition is its own branch with its own `limit + 1` (an OR of columns
 * under a LIMIT leads the planner to scan the table, hoping to meet matches early), and no branch
 * sorts its matches: a common term stops at `limit + 1` rows per branch, however many match.
 * Both run as prepared statements (one text each for the first, and for each set of empty kinds
 * in the second), which PostgreSQL plans several times faster than unnamed ones (ADR 122).
 * Answers each kind's rows, best first (rank, then branch, then the order the branch met them),
 * each row once, at most `limit`, and whether there were more.
 */
async function matches(db: Tx, kinds: KindSearch[], limit: number): Promise<Map<Kind, { rows: Row[]; more: boolean }>> {
  const take = limit + 1;
  let n = 0;
  const branches = (k: KindSearch, conditions: SQL[], rank: number) =>
    conditions.map((c) => {
      const branch = n++;
      return sql`(select b.*, ${sql.raw(String(rank))} as rank, ${sql.raw(String(branch))} as branch
                    from (${k.from} and (${c}) limit ${take}) b)`;
    });
  const run = (parts: SQL[]) => preparedRowsOf<Row>(db, sql.join(parts, sql` union all `));

  const found = await run(kinds.flatMap((k) => [...branches(k, k.exact, 0), ...branches(k, k.prefix, 1)]));
  const empty = kinds.filter((k) => k.contains.length > 0 && !found.some((r) => r.kind === k.kind));
  if (empty.length > 0) found.push(...(await run(empty.flatMap((k) => branches(k, k.contains, 2)))));

  const order = found
    .map((row, at) => ({ row, at }))
    .sort((a, b) => Number(a.row.rank) - Number(b.row.rank) || Number(a.row.branch) - Number(b.row.branch) || a.at - b.at);
  const out = new Map<Kind, { rows: Row[]; more: boolean }>();
  for (const k of kinds) {
    const best = new Map<string, Row>();
    for (const { row } of order) if (row.kind === k.kind && !best.has(row.id)) best.set(row.id, row);
    const rows = [...best.values()];
    out.set(k.kind, { rows: rows.slice(0, limit), more: rows.length > limit });
  }
  return out;
}

/**
 * The console's one search box: customers (e-mail, name, company), license keys (or parts), nodes
 * (fingerprint, hostname), subscriptions and invoices (their numbers). Ranked as staff mean it: an
 * exact e-mail, key, hostname or number first, then what starts with the text, then what contains
 * it; at most CONSOLE_SEARCH_PER_KIND of each kind, CONSOLE_SEARCH_LIMIT in all, and `more` says
 * when something was left out. Deleted customers' rows (no owner) are left out.
 */
export async function searchAll(db: Tx, q: string): Promise<{ items: SearchResult[]; more: boolean }> {
  const lower = q.toLowerCase();
  const prefix = `${escapeLike(lower)}%`;
  const anywhere = q.length >= SUBSTRING_MIN_LENGTH ? containing(q) : undefined;
  const name = sql`(u.fname || ' ' || u.lname)`;
  const none = sql`null::text as company, null::text as fingerprint, null::text as hostname, null::text as number`;

  const found = await matches(
    db,
    [
      {
        kind: 'customer',
        from: sql`select 'customer' as kind, u.id::text as id, ${OWNER}, u.company, null::text as fingerprint,
                         null::text as hostname, null::text as number
                    from users u where true`,
        exact: [sql`lower(u.email) = ${lower}`],
        prefix: [sql`lower(u.email) like ${prefix}`, sql`lower(${name}) like ${prefix}`, sql`lower(u.company) like ${prefix}`],
        contains: anywhere
          ? [sql`u.email ilike ${anywhere}`, sql`${name} ilike ${anywhere}`, sql`u.company ilike ${anywhere}`]
          : [],
      },
      {
        kind: 'license',
        from: sql`select 'license' as kind, l.key as id, ${OWNER}, ${none}
                    from licenses l join users u on u.id = l.user_id where true`,
        exact: [sql`l.key = ${q.toUpperCase()}`],
        prefix: [sql`l.key like ${`${escapeLike(q.toUpperCase())}%`}`],
        contains: anywhere ? [sql`l.key ilike ${anywhere}`] : [],
      },
      {
        kind: 'node',
        from: sql`select 'node' as kind, n.id::text as id, ${OWNER}, null::text as company, n.fingerprint, n.hostname,
                         null::text as number
                    from nodes n join licenses l on l.id = n.license_id join users u on u.id = l.user_id where true`,
        exact: [sql`lower(n.fingerprint) = ${lower}`, sql`lower(n.hostname) = ${lower}`],
        prefix: [sql`lower(n.fingerprint) like ${prefix}`, sql`lower(n.hostname) like ${prefix}`],
        contains: anywhere ? [sql`n.fingerprint ilike ${anywhere}`, sql`n.hostname ilike ${anywhere}`] : [],
      },
      {
        kind: 'subscription',
        from: sql`select 'subscription' as kind, s.provider_id as id, ${OWNER}, ${none}
                    from subscriptions s join users u on u.id = s.user_id where true`,
        exact: [sql`lower(s.provider_id) = ${lower}`],
        prefix: [sql`lower(s.provider_id) like ${prefix}`],
        contains: anywhere ? [sql`s.provider_id ilike ${anywhere}`] : [],
      },
      {
        kind: 'invoice',
        from: sql`select 'invoice' as kind, i.id::text as id, ${OWNER}, null::text as company, null::text as fingerprint,
                         null::text as hostname, i.number
                    from invoices i join users u on u.id = i.user_id where true`,
        exact: [sql`lower(i.number) = ${lower}`],
        prefix: [sql`lower(i.number) like ${prefix}`],
        contains: anywhere ? [sql`i.number ilike ${anywhere}`] : [],
      },
    ],
    CONSOLE_SEARCH_PER_KIND,
  );
  const kind = (k: Kind) => found.get(k) ?? { rows: [], more: false };
  const people = kind('customer');
  const keys = kind('license');
  const machines = kind('node');
  const subs = kind('subscription');
  const bills = kind('invoice');
  const match = (rank: number) => RANKS[Number(rank)] ?? 'substring';
  const results: Array<SearchResult & { rank: number }> = [
    ...people.rows.map((r) => ({
      kind: 'customer' as const,
      userId: r.user_id,
      label: r.company ? `${customerLabel(r)}, ${r.company}` : customerLabel(r),
      customer: customerLabel(r),
      subjectId: r.user_id,
      match: match(r.rank),
      rank: Number(r.rank),
    })),
    ...keys.rows.map((r) => ({
      kind: 'license' as const,
      userId: r.user_id,
      label: r.id,
      customer: customerLabel(r),
      subjectId: r.id,
      match: match(r.rank),
      rank: Number(r.rank),
    })),
    ...machines.rows.map((r) => ({
      kind: 'node' as const,
      userId: r.user_id,
      label: r.hostname ? `${r.hostname} (${r.fingerprint})` : String(r.fingerprint),
      customer: customerLabel(r),
      subjectId: r.id,
      match: match(r.rank),
      rank: Number(r.rank),
    })),
    ...subs.rows.map((r) => ({
      kind: 'subscription' as const,
      userId: r.user_id,
      label: r.id,
      customer: customerLabel(r),
      subjectId: r.id,
      match: match(r.rank),
      rank: Number(r.rank),
    })),
    ...bills.rows.map((r) => ({
      kind: 'invoice' as const,
      userId: r.user_id,
      label: `Invoice ${String(r.number)}`,
      customer: customerLabel(r),
      subjectId: r.id,
      match: match(r.rank),
      rank: Number(r.rank),
    })),
  ];
  // Best match first; a stable sort keeps the kinds' order within a rank.
  const ranked = results.sort((a, b) => a.rank - b.rank);
  const more = [people, keys, machines, subs, bills].some((k) => k.more) || ranked.length > CONSOLE_SEARCH_LIMIT;
  return { items: ranked.slice(0, CONSOLE_SEARCH_LIMIT).map(({ rank: _rank, ...item }) => item), more };
}
