import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { invoices, subscriptions, users, webhookDeliveries, webhookMessages } from '../../src/db/schema/index';
import type { ConsoleTestApp } from '../console-helpers';
import { customerWithEverything, signIn, type Customer } from '../fuzz/customers';
import { settle } from '../fuzz/db-state';

/**
 * What the console's tests act on: a customer who owns one of everything, and fresh things
 * (licenses, nodes, subscriptions, customers, staff) for actions that may only happen once.
 */
export async function consoleFixtures(t: ConsoleTestApp) {
  const a: Customer = await customerWithEverything(t, `console-a-${randomUUID().slice(0, 8)}@example.com`);
  const userId = await idOf(t, a.email);
  let n = 0;
  const fx = {
    a,
    userId,
    /** A new complimentary license of A's. */
    async license(): Promise<string> {
      const issued = await t.app.ctx.services.licenses.issueForEmail({
        email: a.email,
        maxNodes: 3,
        expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
        actor: 'test',
      });
      return issued.key;
    },
    /** A new license of A's, suspended. */
    async suspendedLicense(): Promise<string> {
      const key = await fx.license();
      await t.db.transaction((tx) => t.app.ctx.services.licenses.setSuspended(tx, key, true, 'test'));
      return key;
    },
    /** A node activated on a new license of A's. */
    async node(): Promise<{ licenseKey: string; nodeId: string }> {
      const licenseKey = await fx.license();
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/licenses/${licenseKey}/activate`,
        payload: { fingerprint: `fp-${++n}`, hostname: `host-${n}` },
      });
      if (res.statusCode !== 201) throw new Error(`activate: ${res.statusCode} ${res.body}`);
      return { licenseKey, nodeId: res.json().node.id as string };
    },
    /** A new monthly subscription of A's (paid with A's default card). */
    async subscription(): Promise<string> {
      t.clock.advance(11_000); // past checkout's de-duplication window
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/intents/checkout',
        headers: { cookie: a.cookie },
        payload: { interval: 'month', quantity: 1 },
      });
      if (res.statusCode !== 201) throw new Error(`checkout: ${res.statusCode} ${res.body}`);
      await settle(t);
      return res.json().subscription.stripeId as string;
    },
    /** The paid first invoice of a new subscription of A's: its id. */
    async paidInvoice(): Promise<string> {
      const id = await fx.subscription();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/billing/subscriptions/${id}/invoices`,
        headers: { cookie: a.cookie },
      });
      const paid = (res.json().items as Array<{ id: string; status: string }>).find((i) => i.status === 'paid');
      if (!paid) throw new Error(`no paid invoice: ${res.body}`);
      return paid.id;
    },
    /** A new subscription of A's, cancelled at the period end. */
    async cancelledSubscription(): Promise<string> {
      const id = await fx.subscription();
      const user = (await t.app.ctx.services.users.findById(userId))!;
      await t.app.ctx.services.billing.cancel(user, id);
      await settle(t);
      return id;
    },
    /**
     * A new subscription of A's whose payment is failing: past due, in grace, its invoice open
     * (what a declined renewal leaves, without moving the shared clock a month); A's card pays.
     */
    async pastDueSubscription(): Promise<string> {
      const id = await fx.subscription();
      const now = t.clock.now();
      const [sub] = await t.db
        .update(subscriptions)
        .set({ status: 'past_due', currentPeriodStart: now, nextPaymentAttemptAt: new Date(now.getTime() + 86_400_000) })
        .where(eq(subscriptions.providerId, id))
        .returning();
      await t.db.update(invoices).set({ status: 'open', amountPaid: 0 }).where(eq(invoices.subscriptionId, sub!.id));
      await settle(t);
      return id;
    },
    /** A new signed-in customer: their id. */
    async customer(): Promise<string> {
      const c = await signIn(t, `console-fresh-${++n}-${randomUUID().slice(0, 6)}@example.com`);
      return idOf(t, c.email);
    },
    /** A new support member: their id. */
    async staffMember(): Promise<string> {
      return (await t.addStaff(`member-${++n}@vendor.example`, 'support')).id;
    },
    freshEmail: () => `new-${++n}@vendor.example`,
    /** A new staff API token (role support): its id. */
    async staffTokenId(): Promise<string> {
      return (await t.staffToken('support')).id;
    },
    /** A new webhook endpoint (on a private address: a delivery to it is refused, nothing leaves the machine). */
    async webhookEndpoint(): Promise<string> {
      const { endpoint } = await t.app.ctx.services.webhooks.create(
        { url: 'https://10.0.0.1/hook', description: 'Matrix', eventTypes: ['node.activated'], reason: 'Test set-up' },
        { id: null, email: 'test' },
      );
      return endpoint.id;
    },
    /** A delivered event of a new webhook endpoint: the endpoint's and the delivery's ids. */
    async webhookDelivery(): Promise<{ endpointId: string; deliveryId: string }> {
      const endpointId = await fx.webhookEndpoint();
      const now = t.clock.now();
      const messageId = `msg_test_${++n}_${randomUUID().slice(0, 8)}`;
      await t.db.insert(webhookMessages).values({
        id: messageId,
        type: 'node.activated',
        resourceType: 'node',
        resourceId: randomUUID(),
        sequence: 1,
        payload: { type: 'node.activated' },
        createdAt: now,
      });
      const [d] = await t.db
        .insert(webhookDeliveries)
        .values({ endpointId, messageId, status: 'delivered', attempts: 1, createdAt: now, updatedAt: now })
        .returning();
      return { endpointId, deliveryId: String(d!.id) };
    },
  };
  return fx;
}
export type ConsoleFixtures = Awaited<ReturnType<typeof consoleFixtures>>;

/** A customer's id (what the console's paths take) by address. */
export async function idOf(t: ConsoleTestApp, email: string): Promise<string> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}
