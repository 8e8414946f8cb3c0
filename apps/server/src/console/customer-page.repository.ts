import { desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { licenses, nodes, subscriptions } from '../db/schema/index';

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
   * The customer's nodes, most recently seen first (at most `limit`). Each license's `limit` most
   * recently seen come from an index-only scan of nodes (license_id, last_seen_at desc) including
   * the id (migration 0025), the best `limit` of those are then read by id: a reseller with 110k
   * nodes on 101 licenses reads index entries of at most `limit` nodes per license and `limit`
   * rows, instead of sorting all their nodes. (Reading the rows inside the per-license step leads
   * the planner, who expects a handful of nodes per license, to read every node of each license.)
   */
  async nodes(db: Tx, userId: string, limit: number) {
    const recent = db
      .select({ id: nodes.id, lastSeenAt: nodes.lastSeenAt })
      .from(nodes)
      .where(eq(nodes.licenseId, licenses.id))
      .orderBy(desc(nodes.lastSeenAt))
      .limit(limit)
      .as('recent');
    const top = db
      .select({ id: recent.id, key: licenses.key, lastSeenAt: recent.lastSeenAt })
      .from(licenses)
      .innerJoinLateral(recent, sql`true`)
      .where(eq(licenses.userId, userId))
      .orderBy(desc(recent.lastSeenAt))
      .limit(limit)
      .as('top');
    return db
      .select({ node: nodes, key: top.key })
      .from(top)
      .innerJoin(nodes, eq(nodes.id, top.id))
      .orderBy(desc(top.lastSeenAt));
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
