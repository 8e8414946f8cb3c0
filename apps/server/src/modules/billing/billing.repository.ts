import { and, asc, desc, eq, gte, inArray, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Interval } from '@portal/contract';
import type { Tx } from '../../db/client';
import { customers, subscriptions, users, webhookEvents } from '../../db/schema/index';
import type { ProviderKind, ProviderSubscription } from '../../providers/billing/gateway';
import { subscriptionGivesAccessSql } from './lifecycle';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = typeof subscriptions.$inferInsert;
export type CustomerRow = typeof customers.$inferSelect;

/**
 * Billing's facts for other modules' read models (the console's lists), as SQL expressions they
 * put in their own statements: one statement per page, the lists' indexes as before (ADR 121).
 */
export const billingReads = {
  /** How many of the customer's subscriptions give access (`hasAccess`): a count subquery. */
  subscriptionsWithAccessOf(userId: SQL): SQL<number> {
    return sql<number>`(select count(*) from ${subscriptions} s where s.user_id = ${userId} and ${subscriptionGivesAccessSql(sql`s.status`)})::int`;
  },
};

/**
 * Drizzle queries of the billing domain (customers, subscriptions, webhook events); the gateways
 * keep their own tables. Every function joins the caller's transaction.
 */
export const billingRepository = {
  /** Name and address to bill (renewals and webhooks run without a signed-in user). */
  async findBillTo(tx: Tx, userId: string) {
    const [row] = await tx
      .select({ id: users.id, email: users.email, fname: users.fname, lname: users.lname })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  },

  // customers
  async findCustomer(tx: Tx, userId: string): Promise<CustomerRow | undefined> {
    const [row] = await tx.select().from(customers).where(eq(customers.userId, userId)).limit(1);
    return row;
  },
  async insertCustomer(tx: Tx, row: { userId: string; provider: ProviderKind; providerCustomerId: string; createdAt: Date }) {
    await tx.insert(customers).values(row).onConflictDoNothing({ target: customers.userId });
  },
  /** The vendor switched payment providers: the user gets a customer at the new one. */
  async replaceCustomer(tx: Tx, userId: string, provider: ProviderKind, providerCustomerId: string, at: Date) {
    await tx.update(customers).set({ provider, providerCustomerId, createdAt: at }).where(eq(customers.userId, userId));
  },
  /** Serialises a customer's billing changes (checkout, card changes) across instances. */
  async lockCustomer(tx: Tx, userId: string): Promise<CustomerRow | undefined> {
    const [row] = await tx.select().from(customers).where(eq(customers.userId, userId)).for('update');
    return row;
  },
  async findCustomerByProviderId(tx: Tx, providerCustomerId: string): Promise<CustomerRow | undefined> {
    const [row] = await tx.select().from(customers).where(eq(customers.providerCustomerId, providerCustomerId)).limit(1);
    return row;
  },

  // subscriptions
  async listSubscriptions(tx: Tx, userId: string): Promise<SubscriptionRow[]> {
    return tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  },
  /** Owner-scoped: another customer's subscription is not found, exactly like an unknown one. */
  async findSubscription(tx: Tx, userId: string, providerId: string, lock = false): Promise<SubscriptionRow | undefined> {
    const q = tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.providerId, providerId), eq(subscriptions.userId, userId)));
    const [row] = lock ? await q.for('update') : await q.limit(1);
    return row;
  },
  async findSubscriptionByProviderId(tx: Tx, providerId: string, lock = false): Promise<SubscriptionRow | undefined> {
    const q = tx.select().from(subscriptions).where(eq(subscriptions.providerId, providerId));
    const [row] = lock ? await q.for('update') : await q.limit(1);
    return row;
  },
  async findByCheckoutKey(tx: Tx, userId: string, checkoutKey: string): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.checkoutKey, checkoutKey), eq(subscriptions.userId, userId)))
      .limit(1);
    return row;
  },
  /** The same purchase made moments ago: the answer to a double-submitted checkout. */
  async findRecentCheckout(
    tx: Tx,
    userId: string,
    interval: Interval,
    quantity: number,
    since: Date,
  ): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.interval, interval),
          eq(subscriptions.quantity, quantity),
          gte(subscriptions.createdAt, since),
        ),
      )
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return row;
  },
  async insertSubscription(tx: Tx, row: NewSubscriptionRow): Promise<SubscriptionRow> {
    const [created] = await tx.insert(subscriptions).values(row).returning();
    return created!;
  },
  /** Inserts unless a row with this provider id exists (a webhook may have mirrored it first). */
  async insertSubscriptionIfAbsent(tx: Tx, row: NewSubscriptionRow): Promise<SubscriptionRow | undefined> {
    const [created] = await tx
      .insert(subscriptions)
      .values(row)
      .onConflictDoNothing({ target: subscriptions.providerId })
      .returning();
    return created;
  },
  async updateSubscription(tx: Tx, id: string, patch: Partial<NewSubscriptionRow>): Promise<SubscriptionRow> {
    const [row] = await tx.update(subscriptions).set(patch).where(eq(subscriptions.id, id)).returning();
    return row!;
  },
  /**
   * Writes a provider's state of a subscription onto our record, inserting it when new. Answers the
   * record as it was before (when there was one). Our checkout and the provider's webhook may race
   * to insert it: the loser waits on the row lock and updates what the other inserted.
   */
  async saveProviderState(
    tx: Tx,
    provider: ProviderKind,
    state: ProviderSubscription,
    extra: { userId: string | null; plan: string; checkoutKey?: string | undefined; at: Date },
  ): Promise<{ before?: SubscriptionRow; row?: SubscriptionRow }> {
    const { providerId, ...fields } = state;
    const update = async (before: SubscriptionRow) => ({
      before,
      row: await billingRepository.updateSubscription(tx, before.id, {
        ...fields,
        ...(extra.checkoutKey && !before.checkoutKey ? { checkoutKey: extra.checkoutKey } : {}),
        updatedAt: extra.at,
      }),
    });
    const existing = await billingRepository.findSubscriptionByProviderId(tx, providerId, true);
    if (existing) return update(existing);
    if (!extra.userId) return {};
    const row = await billingRepository.insertSubscriptionIfAbsent(tx, {
      ...fields,
      providerId,
      userId: extra.userId,
      provider,
      plan: extra.plan,
      checkoutKey: extra.checkoutKey ?? null,
      createdAt: extra.at,
      updatedAt: extra.at,
    });
    if (row) return { row };
    return update((await billingRepository.findSubscriptionByProviderId(tx, providerId, true))!);
  },
  /** A user's subscriptions of one provider that are not over yet (their cards may be charged again). */
  async runningSubscriptions(tx: Tx, userId: string, provider: ProviderKind): Promise<SubscriptionRow[]> {
    return tx
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.provider, provider),
          inArray(subscriptions.status, ['active', 'past_due', 'incomplete']),
        ),
      );
  },
  /**
   * Claims one local subscription whose period has ended. SKIP LOCKED lets every instance run the
   * renewal worker: each row is taken by exactly one of them, the others move on.
   */
  /**
   * One local subscription that is due, locked (SKIP LOCKED: instances never take the same one):
   * an active one whose period has ended, or a past_due one whose retry is due or whose grace
   * (`graceDays` after its unpaid period began) has run out.
   */
  async claimDueSubscription(tx: Tx, now: Date, graceDays: number, skip: string[]): Promise<SubscriptionRow | undefined> {
    const graceStartedBy = new Date(now.getTime() - graceDays * 86_400_000);
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, 'local'),
          or(
            and(eq(subscriptions.status, 'active'), lte(subscriptions.currentPeriodEnd, now)),
            and(
              eq(subscriptions.status, 'past_due'),
              or(lte(subscriptions.nextPaymentAttemptAt, now), lte(subscriptions.currentPeriodStart, graceStartedBy)),
            ),
          ),
          skip.length ? notInArray(subscriptions.id, skip) : undefined,
        ),
      )
      .orderBy(asc(subscriptions.currentPeriodEnd))
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  },

  /**
   * A subscription by provider id, locked as the renewal worker claims one (FOR UPDATE SKIP LOCKED):
   * undefined while the worker (or another staff retry) holds it, so the two never charge it twice.
   */
  async claimSubscription(tx: Tx, providerId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerId, providerId))
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  },

  // webhooks
  /** Records a provider event; false when it was seen before (processed once per id). */
  async recordWebhookEvent(tx: Tx, id: string, type: string, at: Date): Promise<boolean> {
    const rows = await tx
      .insert(webhookEvents)
      .values({ id, type, receivedAt: at, processedAt: at })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id });
    return rows.length === 1;
  },
};
export type BillingRepository = typeof billingRepository;
