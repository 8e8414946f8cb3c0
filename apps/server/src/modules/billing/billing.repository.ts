import { and, asc, desc, eq, gte, inArray, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { customers, invoices, paymentMethods, setupIntents, subscriptions, users, webhookEvents } from '../../db/schema/index';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = typeof subscriptions.$inferInsert;
export type InvoiceRow = typeof invoices.$inferSelect;
export type CardRow = typeof paymentMethods.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** INV-999 sorts before INV-1000: compare by length first. */
const byNumberDesc = [desc(sql`length(${invoices.number})`), desc(invoices.number)];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Drizzle queries of the billing domain; every function joins the caller's transaction. */
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
  async insertCustomer(tx: Tx, row: { userId: string; provider: string; providerCustomerId: string; createdAt: Date }) {
    await tx.insert(customers).values(row).onConflictDoNothing({ target: customers.userId });
  },
  /** The vendor switched payment providers: the user gets a customer at the new one. */
  async replaceCustomer(tx: Tx, userId: string, provider: string, providerCustomerId: string, at: Date) {
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

  // cards (local engine)
  async listCards(tx: Tx, customerId: string): Promise<CardRow[]> {
    return tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
      .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
  },
  async findCard(tx: Tx, customerId: string, id: string): Promise<CardRow | undefined> {
    const [row] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
      .limit(1);
    return row;
  },
  /** A card that is still attached, by its globally unique id (the card a subscription charges). */
  async findCardById(tx: Tx, id: string): Promise<CardRow | undefined> {
    const [row] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, id), isNull(paymentMethods.detachedAt)))
      .limit(1);
    return row;
  },
  async insertCard(tx: Tx, row: typeof paymentMethods.$inferInsert) {
    await tx.insert(paymentMethods).values(row);
  },
  async setDefaultCard(tx: Tx, customerId: string, id: string) {
    await tx
      .update(paymentMethods)
      .set({ isDefault: sql`${paymentMethods.id} = ${id}` })
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)));
  },
  async detachCard(tx: Tx, customerId: string, id: string, at: Date) {
    await tx
      .update(paymentMethods)
      .set({ detachedAt: at, isDefault: false })
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId)));
  },
  async detachAllCards(tx: Tx, customerId: string, at: Date) {
    await tx
      .update(paymentMethods)
      .set({ detachedAt: at, isDefault: false })
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)));
  },

  // setup intents (local engine)
  async insertSetupIntent(tx: Tx, row: typeof setupIntents.$inferInsert) {
    await tx.insert(setupIntents).values(row);
  },
  async lockSetupIntent(tx: Tx, customerId: string, clientSecretHash: string) {
    const [row] = await tx
      .select()
      .from(setupIntents)
      .where(and(eq(setupIntents.clientSecretHash, clientSecretHash), eq(setupIntents.customerId, customerId)))
      .for('update');
    return row;
  },
  async completeSetupIntent(tx: Tx, id: string, paymentMethodId: string) {
    await tx.update(setupIntents).set({ status: 'succeeded', paymentMethodId }).where(eq(setupIntents.id, id));
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
    interval: string,
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
  /** A user's subscriptions of one provider that are not over yet (their cards may be charged again). */
  async runningSubscriptions(tx: Tx, userId: string, provider: string): Promise<SubscriptionRow[]> {
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
  async claimDueSubscription(tx: Tx, now: Date, skip: string[]): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, 'local'),
          inArray(subscriptions.status, ['active', 'past_due']),
          lte(subscriptions.currentPeriodEnd, now),
          skip.length ? notInArray(subscriptions.id, skip) : undefined,
        ),
      )
      .orderBy(asc(subscriptions.currentPeriodEnd))
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  },

  // invoices (local engine)
  async insertInvoice(tx: Tx, row: Omit<typeof invoices.$inferInsert, 'number'>): Promise<InvoiceRow> {
    const [created] = await tx
      .insert(invoices)
      .values({ ...row, number: sql`'INV-' || nextval('invoice_number_seq')::text` })
      .returning();
    return created!;
  },
  async updateInvoice(tx: Tx, id: string, patch: Partial<typeof invoices.$inferInsert>): Promise<InvoiceRow> {
    const [row] = await tx.update(invoices).set(patch).where(eq(invoices.id, id)).returning();
    return row!;
  },
  async listInvoices(tx: Tx, subscriptionId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, subscriptionId))
      .orderBy(desc(invoices.createdAt), ...byNumberDesc);
  },
  async listInvoicesForUser(tx: Tx, userId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(desc(invoices.createdAt), ...byNumberDesc);
  },
  async openInvoices(tx: Tx, subscriptionId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, 'open')))
      .orderBy(asc(invoices.createdAt));
  },
  async findInvoiceForUser(tx: Tx, userId: string, id: string): Promise<InvoiceRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.userId, userId)))
      .limit(1);
    return row;
  },
  /**
   * Account credit available to the customer: over their invoices, what was due minus what the
   * lines added up to. A credit invoice (lines < 0, nothing due) adds, credit used on a later
   * invoice (due < lines) takes away.
   */
  async creditBalance(tx: Tx, userId: string): Promise<number> {
    const [row] = await tx
      .select({
        balance: sql<number>`coalesce(sum(${invoices.amountDue} - (select coalesce(sum((l->>'amount')::bigint), 0) from jsonb_array_elements(${invoices.lines}) l)), 0)::int`,
      })
      .from(invoices)
      .where(and(eq(invoices.userId, userId), sql`${invoices.status} <> 'void'`));
    return Math.max(0, Number(row?.balance ?? 0));
  },
  /** Start of the subscription's billing schedule: its first period, or the last interval switch. */
  async billingAnchor(tx: Tx, subscriptionId: string): Promise<Date | undefined> {
    const [row] = await tx
      .select({ periodStart: invoices.periodStart })
      .from(invoices)
      .where(
        and(
          eq(invoices.subscriptionId, subscriptionId),
          inArray(invoices.reason, ['subscription_create', 'subscription_interval_change']),
        ),
      )
      .orderBy(desc(invoices.createdAt), ...byNumberDesc)
      .limit(1);
    return row?.periodStart;
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
