import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import {
  addStripeCard,
  auditActions,
  deliverStripeEvent,
  flushOutbox,
  licenseOf,
  signIn,
  subscriptionRow,
  userIdOf,
} from './billing-test-helpers';

/**
 * Issue 22 on Stripe (the stand-in), with the injected clock: Stripe renews and retries on its own
 * schedule (Smart Retries) and tells us through webhooks; the portal never charges. A failed
 * renewal keeps the nodes running through the grace (PAYMENT_GRACE_DAYS) with its end in the signed
 * answer, Stripe's retry that pays restores the paid period, and a subscription Stripe ends unpaid
 * ends for non-payment: license expired, the customer told once of each.
 */

const START = new Date('2025-01-31T10:00:00.000Z');
const RENEWAL = new Date('2025-02-28T10:00:00.000Z');
const GRACE_END = new Date('2025-03-14T10:00:00.000Z');
const at = (iso: string) => new Date(iso);
const KEYS = { secretKey: 'sk_test_dunning', publishableKey: 'pk_test_dunning', webhookSecret: 'whsec_test_dunning' };

let stripe: StripeTestApp;
let t: TestApp;
let wire: StripeWireServer;
beforeAll(async () => {
  stripe = await buildStripeTestApp(KEYS, START);
  ({ t, wire } = stripe);
});
afterAll(() => stripe?.close());

/**
 * A monthly subscription paid at START with a node active; at RENEWAL Stripe charges a card that
 * fails (the only one on the subscription) and sends what it sends: the subscription's update and
 * invoice.payment_failed.
 */
async function renewalFailsAtStripe(s: StripeTestApp, email: string) {
  s.t.clock.set(START);
  const cookie = await signIn(s.t, email);
  const goodCard = await addStripeCard(s, cookie, '4242424242424242');
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/api/billing/intents/checkout',
    headers: { cookie },
    payload: { interval: 'month', quantity: 2 },
  });
  expect(res.statusCode).toBe(201);
  const { stripeId, licenseKey } = res.json().subscription as { stripeId: string; licenseKey: string };
  const fingerprint = `fp-${email}`;
  const node = await s.t.app.inject({
    method: 'POST',
    url: `/api/licenses/${licenseKey}/activate`,
    payload: { fingerprint, hostname: 'pve-01' },
  });
  expect(node.statusCode).toBe(201);
  // The card on the subscription runs out of funds (as one switched in Stripe's dashboard would).
  s.wire.subscriptions.get(stripeId)!.default_payment_method = await addStripeCard(s, cookie, '4000000000009995');

  s.t.clock.set(RENEWAL);
  s.wire.cycle(stripeId);
  expect(s.wire.subscriptions.get(stripeId)!.status).toBe('past_due');
  const invoiceId = s.wire.subscriptions.get(stripeId)!.latest_invoice!;
  await deliverStripeEvent(s, s.wire.event('customer.subscription.updated', s.wire.subscriptionJson(stripeId)));
  await deliverStripeEvent(s, s.wire.event('invoice.payment_failed', s.wire.invoiceJson(invoiceId)));
  return { stripeId, licenseKey, fingerprint, invoiceId, goodCard };
}

async function validate(s: StripeTestApp, key: string, fingerprint: string) {
  const res = await s.t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { fingerprint } });
  return res.json() as { valid: boolean; code: string; license?: { expiresAt: string; grace?: { until: string } } };
}

/** The renewal worker at `when`: it renews only the built-in engine's subscriptions. */
async function worker(s: StripeTestApp, when: Date) {
  s.t.clock.set(when);
  const n = await s.t.app.ctx.services.billing.runRenewals();
  await s.t.app.ctx.services.billing.runNotices();
  await flushOutbox(s.t);
  return n;
}

const mails = (s: StripeTestApp, email: string, subject: RegExp) =>
  s.t.mailer.messages.filter((m) => m.to === email && subject.test(m.subject));
/** Every request of ours that could move money at Stripe after `from` (requests index). */
const chargesFrom = (s: StripeTestApp, from: number) =>
  s.wire.requests.slice(from).filter((r) => r.method === 'POST' && /^\/v1\/(invoices\/[^/]+\/pay|payment_intents)/.test(r.path));

describe('a declined renewal at Stripe', () => {
  it('keeps the nodes running through the grace, leaves the retries to Stripe, and a new card restores the paid period', async () => {
    const email = 'stripe-grace@example.com';
    const c = await renewalFailsAtStripe(stripe, email);
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'past_due', provider: 'stripe' });
    // The machines keep running, and the signed answer says until when.
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(GRACE_END);
    expect(await validate(stripe, c.licenseKey, c.fingerprint)).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { expiresAt: GRACE_END.toISOString(), grace: { until: GRACE_END.toISOString() } },
    });
    // Told once, with the invoice and the grace's end; a second failure event of the period tells nothing new.
    await deliverStripeEvent(stripe, wire.event('invoice.payment_failed', wire.invoiceJson(c.invoiceId)));
    const failed = mails(stripe, email, /failed/);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain('March 14, 2025');
    expect(failed[0]!.text).toContain('$50.00');

    // Stripe retries, not us: the worker charges nothing at Stripe, whatever the day.
    const requests = wire.requests.length;
    for (const day of ['2025-03-01', '2025-03-03', '2025-03-05', '2025-03-07']) {
      expect(await worker(stripe, at(`${day}T10:00:00.000Z`)), day).toBe(0);
    }
    expect(chargesFrom(stripe, requests)).toEqual([]);
    expect((await subscriptionRow(t, c.stripeId)).status).toBe('past_due');

    // Three days before the grace ends, the reminder names the invoice Stripe holds.
    await worker(stripe, at('2025-03-11T10:00:00.000Z'));
    const reminders = mails(stripe, email, /unless invoice/);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toMatch(/^Your license ends on March 14, 2025 unless invoice /);

    // The customer adds a working card: it pays the open invoice at once (the one charge of ours,
    // asked for by the customer) and becomes the subscription's card.
    t.clock.set(at('2025-03-12T10:00:00.000Z'));
    const card = await addStripeCard(stripe, await signIn(t, email), '5555555555554444');
    expect(wire.invoices.get(c.invoiceId)!.status).toBe('paid');
    expect(wire.subscriptions.get(c.stripeId)!.default_payment_method).toBe(card);
    await deliverStripeEvent(stripe, wire.event('invoice.paid', wire.invoiceJson(c.invoiceId)));
    await deliverStripeEvent(stripe, wire.event('customer.subscription.updated', wire.subscriptionJson(c.stripeId)));
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'active', endedReason: null });
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(at('2025-03-31T10:00:00.000Z'));
    const restored = await validate(stripe, c.licenseKey, c.fingerprint);
    expect(restored).toMatchObject({ valid: true, license: { expiresAt: '2025-03-31T10:00:00.000Z' } });
    expect(restored.license!.grace).toBeUndefined();
    // One receipt for the open invoice, though both our payment and Stripe's invoice.paid report it.
    const number = wire.invoiceJson(c.invoiceId).number as string;
    expect(mails(stripe, email, new RegExp(`receipt for invoice ${number}$`))).toHaveLength(1);
    const actions = await auditActions(t, await userIdOf(t, email));
    expect(actions.filter((a) => a === 'subscription_payment_failed')).toHaveLength(1);
    expect(actions).toContain('subscription_renewed');
  });

  it("is restored by Stripe's own retry, with no request of ours that moves money", async () => {
    const email = 'stripe-smart-retry@example.com';
    const c = await renewalFailsAtStripe(stripe, email);
    const requests = wire.requests.length;
    // The customer switches the subscription to their other card in Stripe's own pages; Stripe's
    // next retry pays the invoice with it.
    wire.subscriptions.get(c.stripeId)!.default_payment_method = c.goodCard;
    t.clock.set(at('2025-03-03T10:00:00.000Z'));
    expect(wire.retryOpenInvoice(c.stripeId)).toBe(true);
    await deliverStripeEvent(stripe, wire.event('invoice.paid', wire.invoiceJson(c.invoiceId)));
    await deliverStripeEvent(stripe, wire.event('customer.subscription.updated', wire.subscriptionJson(c.stripeId)));
    expect(chargesFrom(stripe, requests)).toEqual([]);
    expect((await subscriptionRow(t, c.stripeId)).status).toBe('active');
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(at('2025-03-31T10:00:00.000Z'));
    expect(await validate(stripe, c.licenseKey, c.fingerprint)).toMatchObject({ valid: true, code: 'VALID' });
    const receipt = mails(stripe, email, /receipt/i).at(-1)!;
    expect(receipt.text).toContain(`https://invoice.stripe.test/i/${c.invoiceId}`);
  });

  it('ends for non-payment when Stripe gives up: the license expires, the customer is told once of each', async () => {
    const email = 'stripe-unpaid@example.com';
    const c = await renewalFailsAtStripe(stripe, email);
    // Stripe's last retry fails and its settings cancel the subscription.
    t.clock.set(GRACE_END);
    const ended = wire.endUnpaid(c.stripeId);
    const event = wire.event('customer.subscription.deleted', ended);
    await deliverStripeEvent(stripe, event);
    await deliverStripeEvent(stripe, event); // a replay changes nothing and tells nothing again
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'canceled', endedReason: 'unpaid' });
    expect((await licenseOf(t, c.stripeId))!.expiresAt.getTime()).toBeLessThanOrEqual(GRACE_END.getTime());
    t.clock.set(at('2025-03-14T10:00:01.000Z'));
    expect(await validate(stripe, c.licenseKey, c.fingerprint)).toMatchObject({ valid: false, code: 'EXPIRED' });
    expect(mails(stripe, email, /failed/)).toHaveLength(1);
    expect(mails(stripe, email, /ended/i)).toHaveLength(1);
    const actions = await auditActions(t, await userIdOf(t, email));
    expect(actions.filter((a) => a === 'subscription_ended')).toHaveLength(1);
    const cookie = await signIn(t, email);
    const listed = await t.app.inject({ method: 'GET', url: '/api/billing/subscriptions', headers: { cookie } });
    expect(listed.json().items.find((s: { stripeId: string }) => s.stripeId === c.stripeId)).toMatchObject({
      status: 'canceled',
      endedReason: 'unpaid',
    });
  });
});

describe('STRIPE_SENDS_DUNNING=true', () => {
  let own: StripeTestApp;
  beforeAll(async () => {
    own = await buildStripeTestApp({ ...KEYS, secretKey: 'sk_test_dunning_own' }, START, { STRIPE_SENDS_DUNNING: 'true' });
  });
  afterAll(() => own?.close());

  it('leaves the failed-payment, reminder and ended e-mails to Stripe; the grace and the license are the same', async () => {
    const email = 'stripe-own-dunning@example.com';
    const c = await renewalFailsAtStripe(own, email);
    expect((await licenseOf(own.t, c.stripeId))!.expiresAt).toEqual(GRACE_END);
    await worker(own, at('2025-03-11T10:00:00.000Z'));
    own.t.clock.set(GRACE_END);
    await deliverStripeEvent(own, own.wire.event('customer.subscription.deleted', own.wire.endUnpaid(c.stripeId)));
    expect(await subscriptionRow(own.t, c.stripeId)).toMatchObject({ status: 'canceled', endedReason: 'unpaid' });
    expect(mails(own, email, /failed|unless invoice|ended/i)).toEqual([]);
    // The activity log still says what happened.
    const actions = await auditActions(own.t, await userIdOf(own.t, email));
    expect(actions).toContain('subscription_payment_failed');
    expect(actions).toContain('subscription_ended');
  });
});
