import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import { flushOutbox, licenseOf, signIn, subscriptionRow } from './billing-test-helpers';

/**
 * Paying the open invoice of a failed renewal on Stripe (the Stripe stand-in): the amount comes
 * from the open invoice Stripe holds, and the payment is Stripe's invoices.pay with the chosen card.
 */

const START = new Date('2025-01-31T10:00:00.000Z');

let stripe: StripeTestApp;
let t: TestApp;
let wire: StripeWireServer;
beforeAll(async () => {
  stripe = await buildStripeTestApp(
    { secretKey: 'sk_test_wire_pay', publishableKey: 'pk_test_wire', webhookSecret: 'whsec_test_pay' },
    START,
  );
  ({ t, wire } = stripe);
});
afterAll(() => stripe.close());

async function deliver(event: unknown) {
  const payload = JSON.stringify(event);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(payload) },
    payload,
  });
  expect(res.statusCode).toBe(200);
  await flushOutbox(t);
}

async function addStripeCard(cookie: string, number: string) {
  const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
  const confirmed = wire.confirmCardSetup(si.json().clientSecret, number);
  if (confirmed.error) throw new Error(JSON.stringify(confirmed.error));
  await deliver(wire.event('setup_intent.succeeded', confirmed.setupIntent));
  return confirmed.paymentMethod!.id;
}

const pay = (cookie: string, stripeId: string, paymentMethodId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/billing/subscriptions/${stripeId}/pay`,
    headers: { cookie },
    payload: { paymentMethodId },
  });

describe('Stripe: paying the open invoice of a failed renewal', () => {
  it('shows the open invoice Stripe holds, refuses a declined card with Stripe’s message, and pays with a card on file', async () => {
    t.clock.set(START);
    let cookie = await signIn(t, 's-pay@example.com');
    const good = await addStripeCard(cookie, '4242424242424242');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie },
      payload: { interval: 'month', quantity: 2 },
    });
    expect(res.statusCode).toBe(201);
    const sid: string = res.json().subscription.stripeId;
    const poor = await addStripeCard(cookie, '4000000000009995');
    // Stripe's renewal charges the poor card and fails.
    wire.subscriptions.get(sid)!.default_payment_method = poor;
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    wire.cycle(sid);
    await deliver(wire.event('customer.subscription.updated', wire.subscriptionJson(sid)));
    expect((await subscriptionRow(t, sid)).status).toBe('past_due');
    const open = wire.invoices.get(wire.subscriptions.get(sid)!.latest_invoice!)!;
    expect(open.status).toBe('open');
    cookie = await signIn(t, 's-pay@example.com'); // a month on, the first session has gone idle

    const listed = await t.app.inject({ method: 'GET', url: '/api/billing/subscriptions/', headers: { cookie } });
    expect(listed.json().items[0].paymentFailing).toEqual({
      amountDue: open.amount_due,
      currency: 'usd',
      invoiceNumber: open.number,
      failingSince: '2025-02-28T10:00:00.000Z',
      accessUntil: '2025-03-14T10:00:00.000Z',
      // Stripe retries on its own schedule.
      nextAttemptAt: null,
    });
    expect(open.amount_due).toBe(5000);

    const declined = await pay(cookie, sid, poor);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ code: 'CARD_DECLINED', message: 'Your card has insufficient funds.' });
    expect(wire.subscriptions.get(sid)!).toMatchObject({ status: 'past_due', default_payment_method: poor });
    expect((await subscriptionRow(t, sid)).status).toBe('past_due');

    const paid = await pay(cookie, sid, good);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().subscription).toMatchObject({ status: 'active', paymentFailing: null });
    expect(wire.invoices.get(open.id)!.status).toBe('paid');
    expect(wire.subscriptions.get(sid)!).toMatchObject({ status: 'active', default_payment_method: good });
    const payCall = wire.requests.filter((r) => r.path === `/v1/invoices/${open.id}/pay`).at(-1)!;
    expect(payCall.body).toMatchObject({ payment_method: good });
    const row = await subscriptionRow(t, sid);
    expect(row).toMatchObject({ status: 'active', paymentMethodId: good });
    expect((await licenseOf(t, sid))!.expiresAt).toEqual(row.currentPeriodEnd);
  });
});
