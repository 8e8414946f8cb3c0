import { desc, eq } from 'drizzle-orm';
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
  /** The customer's nodes, most recently seen first (at most `limit`). */
  async nodes(db: Tx, userId: string, limit: number) {
    return db
      .select({ node: nodes, key: licenses.key })
      .from(nodes)
      .innerJoin(licenses, eq(licenses.id, nodes.licenseId))
      .where(eq(licenses.userId, userId))
      .orderBy(desc(nodes.lastSeenAt))
      .limit(limit);
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
