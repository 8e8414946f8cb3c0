import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, webhookEvents } from '../../db/schema/index';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type SignOptions, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import {
  auditActions,
  billingCounts,
  expectUnchanged,
  flushOutbox,
  licenseOf,
  subscriptionRow,
  signIn,
  userIdOf,
} from './billing-test-helpers';

const START = new Date('2025-01-31T10:00:00.000Z');

let stripe: StripeTestApp;
let t: TestApp;
let wire: StripeWireServer;

beforeAll(async () => {
  stripe = await buildStripeTestApp(
    { secretKey: 'sk_test_wire_123', publishableKey: 'pk_test_wire', webhookSecret: 'whsec_test_wire' },
    START,
  );
  ({ t, wire } = stripe);
});
afterAll(() => stripe.close());

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

const signed = (payload: string, opts: SignOptions = {}) => stripe.sign(payload, opts);

async function deliver(event: unknown, opts: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload, opts) },
    payload,
  });
  await flushOutbox(t);
  return res;
}

/** Adds a card the way the browser does: setup intent from us, card confirmed by Stripe.js, webhook back. */
async function addStripeCard(cookie: string, number = '4242424242424242') {
  const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
  expect(si.statusCode).toBe(200);
  const confirmed = wire.confirmCardSetup(si.json().clientSecret, number);
  if (confirmed.error) return { error: confirmed.error };
  expect((await deliver(wire.event('setup_intent.succeeded', confirmed.setupIntent))).statusCode).toBe(200);
  return { id: confirmed.paymentMethod!.id };
}

const checkout = (cookie: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/billing/intents/checkout', headers: { cookie }, payload });

describe('Stripe: cards', () => {
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    cookie = await signIn(t, 's-cards@example.com');
    userId = await userIdOf(t, 's-cards@example.com');
  });

  it('creates the Stripe customer once and answers a SetupIntent client secret with the publishable key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      provider: 'stripe',
      clientSecret: expect.stringMatching(/^seti_.+_secret_/),
      publishableKey: 'pk_test_wire',
    });
    await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const creates = wire.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.idempotencyKey).toBe(`customer:${userId}`);
    expect(creates[0]!.body).toMatchObject({ email: 's-cards@example.com', metadata: { userId } });
    const si = wire.requests.filter((r) => r.path === '/v1/setup_intents').at(-1)!;
    expect(si.body).toMatchObject({ allowed_payment_method_types: ['card'], usage: 'off_session' });
  });

  it('lets the browser load Stripe.js, its frames and its API (CSP), and nothing else from another site', async () => {
    const csp = (await get('/api/config', cookie)).headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;');
    expect(csp).toContain("connect-src 'self' https://*.posthog.com https://api.stripe.com;");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('has no local card form on Stripe (404)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/local/confirm-setup',
      headers: { cookie },
      payload: { clientSecret: 'x', number: '4242424242424242', expMonth: 1, expYear: 2030, cvc: '123' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('lists the card Stripe.js attached; the first card becomes the default via the webhook', async () => {
    const { id } = await addStripeCard(cookie);
    const res = await get('/api/billing/methods/', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { id, brand: 'visa', last4: '4242', expMonth: 12, expYear: START.getUTCFullYear() + 3, isDefault: true },
    ]);
    expect(await auditActions(t, userId)).toContain('card_added');
  });

  it('does not attach 4000 0000 0000 0002 (declined by Stripe at SetupIntent confirmation)', async () => {
    const { error } = await addStripeCard(cookie, '4000000000000002');
    expect(error).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    expect((await get('/api/billing/methods/', cookie)).json().items).toHaveLength(1);
  });

  it("removes a card at Stripe; another customer's card answers 404", async () => {
    const id = (await addStripeCard(cookie, '5555555555554444')).id!;
    const stranger = await signIn(t, 's-stranger@example.com');
    await expectUnchanged(t, async () => {
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${id}`, headers: { cookie: stranger } })).statusCode,
      ).toBe(404);
    });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${id}`, headers: { cookie } });
    expect(res.statusCode).toBe(204);
    expect(wire.paymentMethods.get(id)!.customer).toBeNull();
    expect(wire.requests.find((r) => r.path === `/v1/payment_methods/${id}/detach`)!.idempotencyKey).toMatch(/:detach$/);
  });
});

describe('Stripe: subscriptions', () => {
  let cookie: string;
  let other: string;
  let userId: string;
  let stripeId: string;
  let cardId: string;
  beforeAll(async () => {
    t.clock.set(START);
    cookie = await signIn(t, 's-buyer@example.com');
    other = await signIn(t, 's-other@example.com');
    userId = await userIdOf(t, 's-buyer@example.com');
    cardId = (await addStripeCard(cookie)).id!;
  });

  it('checks out with default_incomplete, pays the first invoice with the saved card and issues the license', async () => {
    const res = await checkout(cookie, { interval: 'month', quantity: 2 });
    expect(res.statusCode).toBe(201);
    const sub = res.json().subscription;
    stripeId = sub.stripeId;
    expect(sub).toMatchObject({
      stripeId: expect.stringMatching(/^sub_/),
      status: 'active',
      quantity: 2,
      interval: 'month',
      unitAmount: 2500,
      currentPeriodEnd: '2025-02-28T10:00:00.000Z',
      licenseKey: expect.any(String),
    });
    expect(res.json().clientSecret).toBeUndefined();
    const create = wire.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    // Form-encoded exactly as Stripe reads it.
    expect(create.body).toMatchObject({
      customer: expect.stringMatching(/^cus_/),
      items: [{ price: 'price_month', quantity: '2' }],
      payment_behavior: 'default_incomplete',
      default_payment_method: cardId,
      expand: ['latest_invoice.confirmation_secret'],
    });
    expect(create.idempotencyKey).toMatch(/^checkout:auto:[0-9a-f]{64}$/);
    const pay = wire.requests.find((r) => r.path.endsWith('/pay'))!;
    expect(pay.idempotencyKey).toBe(`${create.idempotencyKey}:pay`);
    expect(pay.body).toEqual({ payment_method: cardId });
    const license = await licenseOf(t, stripeId);
    expect(license).toMatchObject({ key: sub.licenseKey, maxNodes: 2 });
    expect(license!.expiresAt.toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(await auditActions(t, userId)).toContain('subscription_created');
  });

  it('answers a double-submitted checkout with one Stripe subscription', async () => {
    const c = await signIn(t, 's-double@example.com');
    await addStripeCard(c);
    const before = wire.subscriptions.size;
    const [a, b] = await Promise.all([
      checkout(c, { interval: 'year', quantity: 1 }),
      checkout(c, { interval: 'year', quantity: 1 }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().subscription.stripeId).toBe(b.json().subscription.stripeId);
    expect(wire.subscriptions.size).toBe(before + 1);
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, a.json().subscription.stripeId));
    expect(rows).toHaveLength(1);
  });

  it('refuses a card with insufficient funds (402), keeps nothing, and abandons the incomplete subscription at Stripe', async () => {
    const c = await signIn(t, 's-poor@example.com');
    await addStripeCard(c, '4000000000009995');
    await expectUnchanged(t, async () => {
      const res = await checkout(c, { interval: 'month', quantity: 1 });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ code: 'CARD_DECLINED', message: 'Your card has insufficient funds.' });
    });
    const abandoned = [...wire.subscriptions.values()].at(-1)!;
    expect(abandoned.status).toBe('canceled');
  });

  it('returns the client secret when the bank wants 3-D Secure; the webhook activates it and issues the license', async () => {
    const c = await signIn(t, 's-3ds@example.com');
    const { id: pm } = await addStripeCard(c, '4000002500003155');
    const res = await checkout(c, { interval: 'month', quantity: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json().subscription).toMatchObject({ status: 'incomplete', licenseKey: null });
    expect(res.json().clientSecret).toMatch(/^pi_.+_secret_/);
    const sid = res.json().subscription.stripeId;
    // Changes wait for the first payment.
    const early = await t.app.inject({
      method: 'PUT',
      url: `/api/billing/subscriptions/${sid}/quantity`,
      headers: { cookie: c },
      payload: { quantity: 2 },
    });
    expect(early.statusCode).toBe(409);
    // The browser finishes the payment; Stripe tells us.
    const invoiceId = wire.subscriptions.get(sid)!.latest_invoice!;
    wire.confirmInvoicePayment(invoiceId, pm!);
    expect((await deliver(wire.event('invoice.paid', wire.invoiceJson(invoiceId)))).json()).toEqual({ received: true });
    const list = (await get('/api/billing/subscriptions/', c)).json().items;
    expect(list[0]).toMatchObject({ stripeId: sid, status: 'active', licenseKey: expect.any(String) });
    expect((await licenseOf(t, sid))!.maxNodes).toBe(1);
    expect(
      t.mailer.messages.some(
        (m) => m.to === 's-3ds@example.com' && m.subject.startsWith('Your receipt') && m.text.includes('$25.00'),
      ),
    ).toBe(true);
  });

  it('changes the quantity with always_invoice (charged now) and resizes the license', async () => {
    t.clock.set(new Date(START.getTime() + 7 * 86_400_000));
    // Sessions idle out after 7 days: sign in again at the new time.
    cookie = await signIn(t, 's-buyer@example.com');
    other = await signIn(t, 's-other@example.com');
    const preview = await t.app.inject({
      method: 'POST',
      url: `/api/billing/subscriptions/${stripeId}/preview`,
      headers: { cookie },
      payload: { quantity: 4 },
    });
    expect(preview.statusCode).toBe(200);
    // 21 of 28 days remain: credit 5000 x 3/4 = 3750, charge 10000 x 3/4 = 7500.
    expect(preview.json()).toMatchObject({
      amountDue: 3750,
      subtotal: 3750,
      nextRenewalAt: '2025-02-28T10:00:00.000Z',
      nextRenewalAmount: 10000,
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/billing/subscriptions/${stripeId}/quantity`,
      headers: { cookie },
      payload: { quantity: 4 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({ quantity: 4, status: 'active' });
    const update = wire.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeId}`).at(-1)!;
    expect(update.body).toMatchObject({
      items: [{ id: expect.stringMatching(/^si_/), quantity: '4' }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(update.idempotencyKey).toMatch(/:quantity$/);
    expect((await licenseOf(t, stripeId))!.maxNodes).toBe(4);
    const invoices = await get(`/api/billing/subscriptions/${stripeId}/invoices`, cookie);
    expect(invoices.statusCode).toBe(200);
    expect(invoices.json().items).toHaveLength(2);
    expect(invoices.json().items[0]).toMatchObject({
      amountDue: 3750,
      amountPaid: 3750,
      status: 'paid',
      url: expect.stringMatching(/^https:\/\/invoice\.stripe\.test\//),
    });
  });

  it('refuses a quantity change the card cannot pay (402) and changes nothing', async () => {
    const poor = await addStripeCard(cookie, '4000000000009995');
    // The subscription charges the failing card (as if switched in Stripe's dashboard).
    wire.subscriptions.get(stripeId)!.default_payment_method = poor.id!;
    const invoicesBefore = wire.invoices.size;
    await expectUnchanged(t, async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/billing/subscriptions/${stripeId}/quantity`,
        headers: { cookie },
        payload: { quantity: 6 },
      });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toBe('Your card has insufficient funds.');
    });
    expect(wire.subscriptions.get(stripeId)!.item.quantity).toBe(4);
    expect(wire.invoices.size).toBe(invoicesBefore);
    wire.subscriptions.get(stripeId)!.default_payment_method = cardId;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${poor.id}`, headers: { cookie } })).statusCode,
    ).toBe(204);
  });

  it('switches the interval (new price, period restarts) and aligns the license', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/billing/subscriptions/${stripeId}`,
      headers: { cookie },
      payload: { interval: 'year' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({
      interval: 'year',
      unitAmount: 25000,
      currentPeriodEnd: '2026-02-07T10:00:00.000Z',
    });
    const update = wire.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeId}`).at(-1)!;
    expect(update.body).toMatchObject({ items: [{ price: 'price_year' }], proration_behavior: 'always_invoice' });
    expect((await licenseOf(t, stripeId))!.expiresAt.toISOString()).toBe('2026-02-07T10:00:00.000Z');
  });

  it('cancels at period end and re-activates through Stripe', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}/`, headers: { cookie } });
    expect(del.statusCode).toBe(200);
    expect(del.json().subscription.cancelAtPeriodEnd).toBe(true);
    expect(wire.subscriptions.get(stripeId)!.cancel_at_period_end).toBe(true);
    const re = await t.app.inject({
      method: 'POST',
      url: `/api/billing/subscriptions/${stripeId}/reactivate`,
      headers: { cookie },
    });
    expect(re.statusCode).toBe(200);
    expect(re.json().subscription.cancelAtPeriodEnd).toBe(false);
    expect(wire.subscriptions.get(stripeId)!.cancel_at_period_end).toBe(false);
    const keys = wire.requests
      .filter((r) => r.path === `/v1/subscriptions/${stripeId}` && r.method === 'POST')
      .map((r) => r.idempotencyKey);
    expect(keys.some((k) => k?.endsWith(':cancel'))).toBe(true);
    expect(keys.some((k) => k?.endsWith(':reactivate'))).toBe(true);
  });

  it("answers 404 for another customer's subscription and invoice", async () => {
    await expectUnchanged(t, async () => {
      for (const res of [
        await t.app.inject({
          method: 'PUT',
          url: `/api/billing/subscriptions/${stripeId}/quantity`,
          headers: { cookie: other },
          payload: { quantity: 9 },
        }),
        await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}/`, headers: { cookie: other } }),
        await get(`/api/billing/subscriptions/${stripeId}/invoices`, other),
      ]) {
        expect(res.statusCode).toBe(404);
      }
      const invoiceId = wire.subscriptions.get(stripeId)!.latest_invoice!;
      expect((await get(`/api/billing/invoices/${invoiceId}`, other)).statusCode).toBe(404);
    });
  });

  it('sends the owner to the hosted invoice page', async () => {
    const invoiceId = wire.subscriptions.get(stripeId)!.latest_invoice!;
    const res = await get(`/api/billing/invoices/${invoiceId}`, cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`https://invoice.stripe.test/i/${invoiceId}`);
  });

  it('refuses to remove the only card paying for a subscription, then moves the subscription to another card', async () => {
    await expectUnchanged(t, async () => {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${cardId}`, headers: { cookie } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'This card pays for an active subscription. Add another card first, or cancel the subscription.',
      );
    });
    const { id: second } = await addStripeCard(cookie, '5555555555554444');
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${cardId}`, headers: { cookie } })).statusCode,
    ).toBe(204);
    expect(wire.subscriptions.get(stripeId)!.default_payment_method).toBe(second);
    const customer = wire.subscriptions.get(stripeId)!.customer;
    expect(wire.customers.get(customer)!.invoice_settings.default_payment_method).toBe(second);
    expect((await subscriptionRow(t, stripeId)).paymentMethodId).toBe(second);
    cardId = second!;
  });

  it("exports the customer's cards, subscriptions and Stripe's invoices", async () => {
    const data = await t.app.ctx.services.billing.exportForUser(userId);
    expect(data.paymentMethods.map((p) => p.id)).toContain(cardId);
    expect(data.subscriptions.map((s) => s.stripeId)).toEqual([stripeId]);
    expect(data.invoices.length).toBeGreaterThanOrEqual(3);
    expect(data.invoices[0]).toMatchObject({
      subscription: stripeId,
      url: expect.stringMatching(/^https:\/\/invoice\.stripe\.test\//),
    });
  });

  it('puts an idempotency key derived from our operation on every POST to Stripe', () => {
    const posts = wire.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(10);
    for (const p of posts) {
      expect(p.idempotencyKey, `${p.path}`).toBeDefined();
      expect(p.idempotencyKey).not.toMatch(/^stripe-node-retry-/);
    }
  });
});

describe('Stripe: webhooks', () => {
  let cookie: string;
  let userId: string;
  let sid: string;
  beforeAll(async () => {
    t.clock.set(START);
    cookie = await signIn(t, 's-hooks@example.com');
    userId = await userIdOf(t, 's-hooks@example.com');
    await addStripeCard(cookie);
    sid = (await checkout(cookie, { interval: 'month', quantity: 3 })).json().subscription.stripeId;
  });

  const post = (payload: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });

  it('refuses unsigned, tampered, wrongly signed and stale webhooks with 400, changing nothing', async () => {
    const payload = JSON.stringify(wire.event('customer.subscription.updated', wire.subscriptionJson(sid)));
    await expectUnchanged(t, async () => {
      const unsigned = await post(payload, {});
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json().message).toBe('The Stripe-Signature header is missing.');
      const tampered = await post(payload.replace('"quantity":3', '"quantity":99'), { 'stripe-signature': signed(payload) });
      expect(tampered.statusCode).toBe(400);
      expect(tampered.json().message).toBe('The webhook signature does not match its body.');
      const wrongSecret = await post(payload, { 'stripe-signature': signed(payload, { secret: 'whsec_other' }) });
      expect(wrongSecret.statusCode).toBe(400);
      const stale = await post(payload, {
        'stripe-signature': signed(payload, { timestamp: Math.floor(t.clock.now().getTime() / 1000) - 600 }),
      });
      expect(stale.statusCode).toBe(400);
      expect(stale.json().message).toBe('The webhook is too old: its signed timestamp is outside the five-minute tolerance.');
      const garbage = await post(payload, { 'stripe-signature': 'nonsense' });
      expect(garbage.statusCode).toBe(400);
    });
  });

  it('processes an event once: a replay answers 200 duplicate and changes nothing', async () => {
    const event = wire.event('customer.subscription.updated', wire.subscriptionJson(sid));
    const first = await deliver(event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    await expectUnchanged(t, async () => {
      const again = await deliver(event);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ received: true, duplicate: true });
    });
    const rows = await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(rows).toHaveLength(1);
  });

  it('is order-independent: it re-reads the subscription from Stripe instead of trusting the event', async () => {
    const old = wire.event('customer.subscription.updated', wire.subscriptionJson(sid));
    // A change made at Stripe (the dashboard): 3 -> 5 nodes.
    wire.subscriptions.get(sid)!.item.quantity = 5;
    const newer = wire.event('customer.subscription.updated', wire.subscriptionJson(sid));
    await deliver(newer);
    await deliver(old);
    expect((await subscriptionRow(t, sid)).quantity).toBe(5);
    expect((await licenseOf(t, sid))!.maxNodes).toBe(5);
    expect(await auditActions(t, userId)).toContain('subscription_quantity_changed');
  });

  it("maps Stripe's renewal onto the row and the license, and e-mails the receipt", async () => {
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    wire.cycle(sid);
    const invoiceId = wire.subscriptions.get(sid)!.latest_invoice!;
    await deliver(wire.event('invoice.paid', wire.invoiceJson(invoiceId)));
    const row = await subscriptionRow(t, sid);
    expect(row.currentPeriodEnd.toISOString()).toBe('2025-03-31T10:00:00.000Z');
    expect((await licenseOf(t, sid))!.expiresAt.toISOString()).toBe('2025-03-31T10:00:00.000Z');
    expect(await auditActions(t, userId)).toContain('subscription_renewed');
    const receipt = t.mailer.messages
      .filter((m) => m.to === 's-hooks@example.com' && m.subject.startsWith('Your receipt'))
      .at(-1)!;
    expect(receipt.text).toContain('Amount paid: $125.00');
    expect(receipt.text).toContain(`https://invoice.stripe.test/i/${invoiceId}`);
  });

  it('ends the subscription and expires the license when Stripe says it was deleted', async () => {
    cookie = await signIn(t, 's-hooks@example.com');
    await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${sid}/`, headers: { cookie } });
    t.clock.set(new Date('2025-03-31T10:00:00.000Z'));
    const ended = wire.cycle(sid);
    await deliver(wire.event('customer.subscription.deleted', ended));
    expect((await subscriptionRow(t, sid)).status).toBe('canceled');
    expect((await licenseOf(t, sid))!.expiresAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await auditActions(t, userId)).toContain('subscription_ended');
    cookie = await signIn(t, 's-hooks@example.com');
    const res = await t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${sid}/reactivate`, headers: { cookie } });
    expect(res.statusCode).toBe(409);
  });

  it('ignores events for customers it does not know, and event types it does not use', async () => {
    const before = await billingCounts(t);
    const foreign = wire.event('customer.subscription.created', { id: 'sub_unknown', object: 'subscription' });
    const res = await deliver(foreign);
    expect(res.statusCode).toBe(200);
    const other = await deliver(wire.event('charge.refunded', { id: 'ch_1', object: 'charge' }));
    expect(other.statusCode).toBe(200);
    const after = await billingCounts(t);
    expect(after.subscriptions).toBe(before.subscriptions);
    expect(after.webhookEvents).toBe(before.webhookEvents + 2);
  });
});

describe('Stripe: a failed renewal', () => {
  it('a card added to a past_due subscription becomes its card and pays the open invoice at once', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 's-pastdue@example.com');
    await addStripeCard(cookie);
    const res = await checkout(cookie, { interval: 'month', quantity: 2 });
    expect(res.statusCode).toBe(201);
    const sid: string = res.json().subscription.stripeId;
    // The renewal charges a card that fails (as if switched in Stripe's dashboard).
    const poor = await addStripeCard(cookie, '4000000000009995');
    wire.subscriptions.get(sid)!.default_payment_method = poor.id!;
    wire.cycle(sid);
    expect(wire.subscriptions.get(sid)!.status).toBe('past_due');
    await deliver(wire.event('customer.subscription.updated', wire.subscriptionJson(sid)));
    expect((await subscriptionRow(t, sid)).status).toBe('past_due');
    const open = wire.subscriptions.get(sid)!.latest_invoice!;
    expect(wire.invoices.get(open)!.status).toBe('open');

    const { id: good } = await addStripeCard(cookie, '5555555555554444');
    expect(wire.invoices.get(open)!.status).toBe('paid');
    expect(wire.subscriptions.get(sid)!).toMatchObject({ status: 'active', default_payment_method: good });
    expect(await subscriptionRow(t, sid)).toMatchObject({ status: 'active', paymentMethodId: good });
    const pay = wire.requests.find((r) => r.path === `/v1/invoices/${open}/pay`)!;
    expect(pay.body).toMatchObject({ payment_method: good });
    expect(pay.idempotencyKey).toMatch(/:pay:/);
  });
});

describe('Stripe: account deletion', () => {
  it('cancels at Stripe and detaches the cards after the commit, through the outbox', async () => {
    t.clock.set(START);
    const c = await signIn(t, 's-leaver@example.com');
    const userId = await userIdOf(t, 's-leaver@example.com');
    const { id: pm } = await addStripeCard(c);
    const sid = (await checkout(c, { interval: 'month', quantity: 1 })).json().subscription.stripeId;
    await t.db.transaction((tx) => t.app.ctx.services.billing.cancelAllNowForUser(tx, userId));
    expect((await subscriptionRow(t, sid)).status).toBe('canceled');
    expect((await licenseOf(t, sid))!.expiresAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    await flushOutbox(t);
    expect(wire.subscriptions.get(sid)!.status).toBe('canceled');
    expect(wire.paymentMethods.get(pm!)!.customer).toBeNull();
    const cancel = wire.requests.find((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${sid}`)!;
    expect(cancel.query).toMatchObject({ invoice_now: 'false', prorate: 'false' });
    expect(cancel.idempotencyKey).toMatch(new RegExp(`:cancel:${sid}$`));
    // A late webhook for the ended subscription changes nothing back.
    await deliver(wire.event('customer.subscription.deleted', wire.subscriptionJson(sid)));
    expect((await subscriptionRow(t, sid)).status).toBe('canceled');
  });
});
