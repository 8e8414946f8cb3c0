import { count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import {
  auditEvents,
  customers,
  invoices,
  licenses,
  outbox,
  paymentMethods,
  setupIntents,
  subscriptions,
  users,
  webhookEvents,
} from '../../db/schema/index';
import type { TestApp } from '../../../test/helpers';
import type { StripeTestApp } from '../../../test/stripe-test-app';

/** Test-only helpers shared by the billing test files. */

export async function userIdOf(t: TestApp, email: string): Promise<string> {
  const [u] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!u) throw new Error(`no user ${email}`);
  return u.id;
}

/** Row counts of every table billing writes: "nothing changed" is these being equal. */
export async function billingCounts(t: TestApp) {
  const n = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;
  return {
    customers: await n(customers),
    paymentMethods: (
      await t.db
        .select({ n: count() })
        .from(paymentMethods)
        .where(sql`${paymentMethods.detachedAt} is null`)
    )[0]!.n,
    setupIntentsUsed: (await t.db.select({ n: count() }).from(setupIntents).where(eq(setupIntents.status, 'succeeded')))[0]!.n,
    subscriptions: await n(subscriptions),
    invoices: await n(invoices),
    licenses: await n(licenses),
    audit: await n(auditEvents),
    outbox: await n(outbox),
    webhookEvents: await n(webhookEvents),
    subscriptionState: (
      await t.db
        .select({
          s: sql<string>`string_agg(${subscriptions.providerId} || ':' || ${subscriptions.status} || ':' || ${subscriptions.quantity} || ':' || ${subscriptions.interval} || ':' || ${subscriptions.cancelAtPeriodEnd} || ':' || ${subscriptions.currentPeriodEnd}, ',' order by ${subscriptions.providerId})`,
        })
        .from(subscriptions)
    )[0]!.s,
    licenseState: (
      await t.db
        .select({
          s: sql<string>`string_agg(${licenses.key} || ':' || ${licenses.maxNodes} || ':' || ${licenses.expiresAt} || ':' || ${licenses.status}, ',' order by ${licenses.key})`,
        })
        .from(licenses)
    )[0]!.s,
  };
}

export async function expectUnchanged(t: TestApp, fn: () => Promise<void>) {
  const before = await billingCounts(t);
  await fn();
  expect(await billingCounts(t)).toEqual(before);
}

/** Adds a card through the local card form; answers the raw response. */
export async function addCard(t: TestApp, cookie: string, number = '4242 4242 4242 4242', extra: Record<string, unknown> = {}) {
  const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
  expect(si.statusCode).toBe(200);
  const { clientSecret } = si.json();
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/local/confirm-setup',
    headers: { cookie },
    payload: { clientSecret, number, expMonth: 12, expYear: t.clock.now().getUTCFullYear() + 3, cvc: '123', ...extra },
  });
}

export async function checkout(
  t: TestApp,
  cookie: string,
  payload: Record<string, unknown> = { interval: 'month', quantity: 1 },
  headers: Record<string, string> = {},
) {
  return t.app.inject({ method: 'POST', url: '/api/billing/intents/checkout', headers: { cookie, ...headers }, payload });
}

export async function licenseOf(t: TestApp, stripeId: string) {
  const [row] = await t.db
    .select({ key: licenses.key, maxNodes: licenses.maxNodes, expiresAt: licenses.expiresAt, status: licenses.status })
    .from(licenses)
    .innerJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
    .where(eq(subscriptions.providerId, stripeId));
  return row;
}

export async function subscriptionRow(t: TestApp, stripeId: string) {
  const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, stripeId));
  return row!;
}

export async function invoicesOf(t: TestApp, stripeId: string) {
  const sub = await subscriptionRow(t, stripeId);
  return t.db.select().from(invoices).where(eq(invoices.subscriptionId, sub.id)).orderBy(invoices.createdAt);
}

export async function auditActions(t: TestApp, userId: string): Promise<string[]> {
  const rows = await t.db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.userId, userId))
    .orderBy(auditEvents.createdAt);
  return rows.map((r) => r.action);
}

export const DAY = 86_400_000;

/** Delivers every queued outbox job, waiting for a delivery already in flight (PostgreSQL runs them concurrently). */
export async function flushOutbox(t: TestApp) {
  await t.app.ctx.services.outbox.kick();
  await t.app.ctx.services.outbox.drain();
}

/**
 * t.signIn after waiting for background outbox work: requestLink's kick() can join a delivery run
 * that is just finishing and miss the new sign-in e-mail (seen on PostgreSQL).
 */
export async function signIn(t: TestApp, email: string) {
  await flushOutbox(t);
  return t.signIn(email);
}

/**
 * A monthly subscription of `quantity` nodes bought at `start` with the test card, whose only card
 * is then one with insufficient funds (4000 0000 0000 9995, which takes over when the first card
 * is removed): its next renewal fails.
 */
export async function subscriptionWithPoorCard(t: TestApp, email: string, start: Date, quantity = 2) {
  t.clock.set(start);
  const cookie = await signIn(t, email);
  const first = (await addCard(t, cookie)).json().paymentMethod;
  const sub = (await checkout(t, cookie, { interval: 'month', quantity })).json().subscription;
  const poor = (await addCard(t, cookie, '4000 0000 0000 9995')).json().paymentMethod;
  const removed = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${first.id}`, headers: { cookie } });
  expect(removed.statusCode).toBe(204);
  return {
    cookie,
    stripeId: sub.stripeId as string,
    licenseKey: sub.licenseKey as string,
    unitAmount: sub.unitAmount as number,
    poorCard: poor.id as string,
  };
}

/** Delivers a Stripe event to the webhook, signed as Stripe signs it, and lets the outbox run. */
export async function deliverStripeEvent(s: StripeTestApp, event: unknown) {
  const payload = JSON.stringify(event);
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': s.sign(payload) },
    payload,
  });
  expect(res.statusCode).toBe(200);
  await flushOutbox(s.t);
}

/** Adds a card the way the browser does: setup intent from us, card confirmed by Stripe.js, webhook back. */
export async function addStripeCard(s: StripeTestApp, cookie: string, number = '4242424242424242') {
  const si = await s.t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
  expect(si.statusCode).toBe(200);
  const confirmed = s.wire.confirmCardSetup(si.json().clientSecret, number);
  if (confirmed.error) throw new Error(`card ${number} refused: ${JSON.stringify(confirmed.error)}`);
  await deliverStripeEvent(s, s.wire.event('setup_intent.succeeded', confirmed.setupIntent));
  return confirmed.paymentMethod.id;
}
