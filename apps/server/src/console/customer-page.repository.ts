import { desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rowsOf } from '../db/rows';
import { licenses, nodes, subscriptions } from '../db/schema/index';

type Node = typeof nodes.$inferSelect;
type NodeRow = {
  id: string;
  license_id: string;
  fingerprint: string;
  hostname: string | null;
  activated_at: Date | string;
  last_seen_at: Date | string;
  key: string;
};

/** What the customer page reads beside the domain services' own views: a customer's rows as they are. */
export const customerPageRepository = {
  async licenses(db: Tx, userId: string) {
    return db
      .select({ license: licenses, subscriptionId: subscriptions.providerId })
      .from(licenses)
      .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
      .where(eq(licenses.userId, userId))
      .orderBy(desc(licenses.createdAt));
  },
  /**
   * The customer's newest nodes: the `limit` most recently activated across all their licenses,
   * newest first (ties by id). Bounded by `nodes_license_activated_idx (license_id, activated_at,
   * id)`: each license gives at most `limit` entries read backwards from the index (a LATERAL top-N),
   * the merged top `limit` are kept, and only those rows are read from the table. Not "most recently
   * seen": an index on `last_seen_at` would end the HOT updates of validation's last-seen writes
   * (ADRs 117, 118), and without one every node of a reseller's 110k would be read and sorted.
   */
  async nodes(db: Tx, userId: string, limit: number): Promise<{ node: Node; key: string }[]> {
    const rows = await rowsOf<NodeRow>(
      db,
      sql`select n.id, n.license_id, n.fingerprint, n.hostname, n.activated_at, n.last_seen_at, t.key
            from (select l.key, top.id, top.activated_at
                    from ${licenses} l
                   cross join lateral (
                         select x.id, x.activated_at from ${nodes} x
                          where x.license_id = l.id
                          order by x.activated_at desc, x.id desc
                          limit ${limit}) top
                   where l.user_id = ${userId}
                   order by top.activated_at desc, top.id desc
                   limit ${limit}) t
            join ${nodes} n on n.id = t.id
           order by t.activated_at desc, t.id desc`,
    );
    return rows.map((r) => ({
      key: r.key,
      node: {
        id: r.id,
        licenseId: r.license_id,
        fingerprint: r.fingerprint,
        hostname: r.hostname,
        activatedAt: new Date(r.activated_at),
        lastSeenAt: new Date(r.last_seen_at),
      },
    }));
  },
  /**
   * The customer's subscription records: provider, creation time and the dunning state (billing's
   * list leaves them out).
   */
  async subscriptionFacts(db: Tx, userId: string) {
    return db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  },
  /** The owner of a license (the console acts on a license by key). */
  async licenseOwner(db: Tx, key: string): Promise<string | null | undefined> {
    const [row] = await db.select({ userId: licenses.userId }).from(licenses).where(eq(licenses.key, key)).limit(1);
    return row ? row.userId : undefined;
  },
  /** The owner of a subscription by its provider id. */
  async subscriptionOwner(db: Tx, providerId: string): Promise<string | null | undefined> {
    const [row] = await db
      .select({ userId: subscriptions.userId })
      .from(subscriptions)
      .where(eq(subscriptions.providerId, providerId))
      .limit(1);
    return row ? row.userId : undefined;
  },
};
