import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import { flushOutbox, licenseOf, signIn } from './billing-test-helpers';

/**
 * STRIPE_SENDS_RECEIPTS=true: Stripe e-mails its own receipts, so the portal sends none for
 * Stripe's invoices (a customer gets one receipt per payment), while everything else a payment
 * does (the subscription, the license) is unchanged. The default (the portal sends them) is held
 * by billing-stripe.test.ts.
 */
let stripe: StripeTestApp;
let t: TestApp;
let wire: StripeWireServer;

beforeAll(async () => {
  stripe = await buildStripeTestApp(
    { secretKey: 'sk_test_receipts', publishableKey: 'pk_test_receipts', webhookSecret: 'whsec_test_receipts' },
    new Date('2025-01-31T10:00:00.000Z'),
    { STRIPE_SENDS_RECEIPTS: 'true' },
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
  await flushOutbox(t);
  return res;
}

describe('Stripe sends its own receipts', () => {
  it('sends no receipt for a first payment or a renewal, and the license follows as always', async () => {
    const email = 'r-own@example.com';
    const cookie = await signIn(t, email);
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const confirmed = wire.confirmCardSetup(si.json().clientSecret, '4242424242424242');
    expect((await deliver(wire.event('setup_intent.succeeded', confirmed.setupIntent))).statusCode).toBe(200);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie },
      payload: { interval: 'month', quantity: 2 },
    });
    expect(res.statusCode).toBe(201);
    const sid: string = res.json().subscription.stripeId;
    await flushOutbox(t);
    expect((await licenseOf(t, sid))!.maxNodes).toBe(2);

    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    wire.cycle(sid);
    const invoiceId = wire.subscriptions.get(sid)!.latest_invoice!;
    expect((await deliver(wire.event('invoice.paid', wire.invoiceJson(invoiceId)))).statusCode).toBe(200);
    expect((await licenseOf(t, sid))!.expiresAt.toISOString()).toBe('2025-03-31T10:00:00.000Z');

    const toCustomer = t.mailer.messages.filter((m) => m.to === email);
    expect(toCustomer.length, 'the sign-in e-mail reached the same mailer').toBeGreaterThan(0);
    expect(toCustomer.filter((m) => m.subject.startsWith('Your receipt'))).toEqual([]);
  });
});
