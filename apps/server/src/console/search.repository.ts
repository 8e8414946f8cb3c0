import { and, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { CONSOLE_SEARCH_LIMIT, type SearchResult } from '@portal/contract';
import type { Tx } from '../db/client';
import { invoices, licenses, nodes, subscriptions, users } from '../db/schema/index';

/** `part` as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
export const containing = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const owner = { userId: users.id, email: users.email, fname: users.fname, lname: users.lname };
type Owner = { userId: string; email: string; fname: string; lname: string };
const customerLabel = (o: Owner) => {
  const name = `${o.fname} ${o.lname}`.trim();
  return name ? `${name} <${o.email}>` : o.email;
};

/**
 * The console's one search box, each kind answered by its trigram index (migration 0006): an
 * ILIKE '%part%' on the indexed column or expression. Deleted customers' rows (no owner) are left out.
 */
export async function searchAll(db: Tx, q: string): Promise<SearchResult[]> {
  const p = containing(q);
  const limit = CONSOLE_SEARCH_LIMIT;
  const name = sql`(${users.fname} || ' ' || ${users.lname})`;
  const ilike = (column: SQL | typeof users.email, pattern: string) => sql`${column} ilike ${pattern}`;

  const [people, keys, machines, subs, bills] = await Promise.all([
    db
      .select({ ...owner, company: users.company })
      .from(users)
      .where(sql`${ilike(users.email, p)} or ${ilike(name, p)} or ${ilike(sql`${users.company}`, p)}`)
      .orderBy(users.email)
      .limit(limit),
    db
      .select({ ...owner, key: licenses.key })
      .from(licenses)
      .innerJoin(users, eq(users.id, licenses.userId))
      .where(ilike(sql`${licenses.key}`, containing(q.toUpperCase())))
      .orderBy(licenses.key)
      .limit(limit),
    db
      .select({ ...owner, id: nodes.id, fingerprint: nodes.fingerprint, hostname: nodes.hostname, key: licenses.key })
      .from(nodes)
      .innerJoin(licenses, eq(licenses.id, nodes.licenseId))
      .innerJoin(users, eq(users.id, licenses.userId))
      .where(sql`${ilike(sql`${nodes.fingerprint}`, p)} or ${ilike(sql`${nodes.hostname}`, p)}`)
      .orderBy(desc(nodes.lastSeenAt))
      .limit(limit),
    db
      .select({ ...owner, providerId: subscriptions.providerId })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(ilike(sql`${subscriptions.providerId}`, p))
      .orderBy(desc(subscriptions.createdAt))
      .limit(limit),
    db
      .select({ ...owner, id: invoices.id, number: invoices.number })
      .from(invoices)
      .innerJoin(users, eq(users.id, invoices.userId))
      .where(and(isNotNull(invoices.userId), ilike(sql`${invoices.number}`, p)))
      .orderBy(desc(invoices.createdAt))
      .limit(limit),
  ]);

  const results: SearchResult[] = [
    ...people.map((r) => ({
      kind: 'customer' as const,
      userId: r.userId,
      label: r.company ? `${customerLabel(r)}, ${r.company}` : customerLabel(r),
      customer: customerLabel(r),
      subjectId: r.userId,
    })),
    ...keys.map((r) => ({
      kind: 'license' as const,
      userId: r.userId,
      label: r.key,
      customer: customerLabel(r),
      subjectId: r.key,
    })),
    ...machines.map((r) => ({
      kind: 'node' as const,
      userId: r.userId,
      label: r.hostname ? `${r.hostname} (${r.fingerprint})` : r.fingerprint,
      customer: customerLabel(r),
      subjectId: r.id,
    })),
    ...subs.map((r) => ({
      kind: 'subscription' as const,
      userId: r.userId,
      label: r.providerId,
      customer: customerLabel(r),
      subjectId: r.providerId,
    })),
    ...bills.map((r) => ({
      kind: 'invoice' as const,
      userId: r.userId,
      label: `Invoice ${r.number}`,
      customer: customerLabel(r),
      subjectId: r.id,
    })),
  ];
  return results.slice(0, limit);
}
