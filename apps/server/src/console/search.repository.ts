import { sql, type SQL } from 'drizzle-orm';
import { CONSOLE_SEARCH_LIMIT, CONSOLE_SEARCH_PER_KIND, type SearchMatch, type SearchResult } from '@portal/contract';
import type { Tx } from '../db/client';
import { rowsOf } from '../db/rows';

/** `part` with LIKE's wildcards taken literally. */
const escapeLike = (part: string) => part.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `part` as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
export const containing = (part: string) => `%${escapeLike(part)}%`;

/** Substrings shorter than this are not looked for: they match nearly everything and no index helps. */
const SUBSTRING_MIN_LENGTH = 3;
const RANKS: SearchMatch[] = ['exact', 'prefix', 'substring'];

type Owner = { user_id: string; email: string; fname: string; lname: string };
const OWNER = sql`u.id as user_id, u.email, u.fname, u.lname`;
const customerLabel = (o: Owner) => {
  const name = `${o.fname} ${o.lname}`.trim();
  return name ? `${name} <${o.email}>` : o.email;
};

/**
 * One kind's matches, best first: exact (`exact`), then prefix (`prefix`) matches, each from
 * B-tree indexes on the lower-cased text (migration 0012), in one round trip; substrings
 * (`contains`, the trigram indexes of migration 0006) only when neither found anything. Each
 * condition is its own branch with its own `limit + 1` (an OR of columns under a LIMIT leads the
 * planner to scan the table, hoping to meet matches early), and no branch sorts its matches: a
 * common term stops at `limit + 1` rows, however many match. Answers the rows with their rank, and
 * whether there were more than `limit`.
 */
async function kindMatches<R extends { id: string }>(
  db: Tx,
  from: SQL,
  where: { exact: SQL[]; prefix: SQL[]; contains: SQL[] },
  limit: number,
): Promise<{ rows: Array<R & { rank: number }>; more: boolean }> {
  const take = limit + 1;
  const branches = (conditions: SQL[], rank: number) =>
    conditions.map(
      (c, k) =>
        sql`(select *, ${sql.raw(String(rank))} as rank from (${from} and (${c}) limit ${take}) b${sql.raw(`${rank}_${k}`)})`,
    );
  const union = (parts: SQL[]) => sql.join(parts, sql` union all `);
  let found = await rowsOf<R & { rank: number }>(db, union([...branches(where.exact, 0), ...branches(where.prefix, 1)]));
  if (found.length === 0 && where.contains.length > 0) {
    found = await rowsOf<R & { rank: number }>(db, union(branches(where.contains, 2)));
  }
  const best = new Map<string, R & { rank: number }>();
  for (const row of found.sort((a, b) => Number(a.rank) - Number(b.rank))) if (!best.has(row.id)) best.set(row.id, row);
  const rows = [...best.values()];
  return { rows: rows.slice(0, limit), more: rows.length > limit };
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
  const per = CONSOLE_SEARCH_PER_KIND;
  const name = sql`(u.fname || ' ' || u.lname)`;

  const [people, keys, machines, subs, bills] = await Promise.all([
    kindMatches<Owner & { id: string; company: string | null }>(
      db,
      sql`select u.id, ${OWNER}, u.company from users u where true`,
      {
        exact: [sql`lower(u.email) = ${lower}`],
        prefix: [sql`lower(u.email) like ${prefix}`, sql`lower(${name}) like ${prefix}`, sql`lower(u.company) like ${prefix}`],
        contains: anywhere
          ? [sql`u.email ilike ${anywhere}`, sql`${name} ilike ${anywhere}`, sql`u.company ilike ${anywhere}`]
          : [],
      },
      per,
    ),
    kindMatches<Owner & { id: string }>(
      db,
      sql`select l.key as id, ${OWNER} from licenses l join users u on u.id = l.user_id where true`,
      {
        exact: [sql`l.key = ${q.toUpperCase()}`],
        prefix: [sql`l.key like ${`${escapeLike(q.toUpperCase())}%`}`],
        contains: anywhere ? [sql`l.key ilike ${anywhere}`] : [],
      },
      per,
    ),
    kindMatches<Owner & { id: string; fingerprint: string; hostname: string | null }>(
      db,
      sql`select n.id, n.fingerprint, n.hostname, ${OWNER}
            from nodes n join licenses l on l.id = n.license_id join users u on u.id = l.user_id where true`,
      {
        exact: [sql`lower(n.fingerprint) = ${lower}`, sql`lower(n.hostname) = ${lower}`],
        prefix: [sql`lower(n.fingerprint) like ${prefix}`, sql`lower(n.hostname) like ${prefix}`],
        contains: anywhere ? [sql`n.fingerprint ilike ${anywhere}`, sql`n.hostname ilike ${anywhere}`] : [],
      },
      per,
    ),
    kindMatches<Owner & { id: string }>(
      db,
      sql`select s.provider_id as id, ${OWNER} from subscriptions s join users u on u.id = s.user_id where true`,
      {
        exact: [sql`lower(s.provider_id) = ${lower}`],
        prefix: [sql`lower(s.provider_id) like ${prefix}`],
        contains: anywhere ? [sql`s.provider_id ilike ${anywhere}`] : [],
      },
      per,
    ),
    kindMatches<Owner & { id: string; number: string }>(
      db,
      sql`select i.id, i.number, ${OWNER} from invoices i join users u on u.id = i.user_id where true`,
      {
        exact: [sql`lower(i.number) = ${lower}`],
        prefix: [sql`lower(i.number) like ${prefix}`],
        contains: anywhere ? [sql`i.number ilike ${anywhere}`] : [],
      },
      per,
    ),
  ]);

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
      label: r.hostname ? `${r.hostname} (${r.fingerprint})` : r.fingerprint,
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
      label: `Invoice ${r.number}`,
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
