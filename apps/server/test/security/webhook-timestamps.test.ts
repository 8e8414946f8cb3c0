import { count } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../src/db/schema/index';
import { buildTestApp, type TestApp } from '../helpers';
import { startStripeWireServer, type StripeWireServer } from '../stripe-wire-server';

/** Issue 14, item 5: a signed Stripe event is accepted only within the tolerance, on both sides of our clock. */

const SECRET_KEY = 'sk_test_wire_future';
const WEBHOOK_SECRET = 'whsec_test_future';
const sdk = new Stripe(SECRET_KEY);

let t: TestApp;
let wire: StripeWireServer;
beforeAll(async () => {
  wire = await startStripeWireServer({
    secretKey: SECRET_KEY,
    prices: [
      { id: 'price_month', unitAmount: 2500, currency: 'usd', interval: 'month' },
      { id: 'price_year', unitAmount: 25000, currency: 'usd', interval: 'year' },
    ],
    now: () => t.clock.now(),
  });
  t = await buildTestApp({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_future',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: wire.url,
    STRIPE_PRICE_MONTH: 'price_month',
    STRIPE_PRICE_YEAR: 'price_year',
  });
});
afterAll(async () => {
  await t.close();
  await wire.close();
});

const eventCount = async () => (await t.db.select({ n: count() }).from(webhookEvents))[0]!.n;
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

function post(id: string, timestamp: number) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type: 'customer.updated',
    created: timestamp,
    data: { object: { id: 'cus_unknown_to_the_portal', object: 'customer' } },
  });
  const signature = sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

describe('POST /api/billing/webhook: signed timestamps', () => {
  it.each([
    ['an hour ahead', 3600],
    ['six minutes ahead', 360],
  ])('refuses a correctly signed event dated %s with 400, recording nothing', async (_what, ahead) => {
    const before = await eventCount();
    const res = await post(`evt_future_${ahead}`, nowSeconds() + ahead);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The webhook is from the future: its signed timestamp is more than five minutes ahead of our clock.',
      code: 'BAD_REQUEST',
    });
    expect(await eventCount()).toBe(before);
  });

  it('still refuses one older than the tolerance', async () => {
    const res = await post('evt_past', nowSeconds() - 360);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The webhook is too old: its signed timestamp is outside the five-minute tolerance.');
  });

  it('accepts one within the tolerance on either side (clocks differ a little)', async () => {
    const before = await eventCount();
    for (const [id, offset] of [
      ['evt_slightly_ahead', 240],
      ['evt_slightly_behind', -240],
      ['evt_now', 0],
    ] as const) {
      const res = await post(id, nowSeconds() + offset);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
    }
    expect(await eventCount()).toBe(before + 3);
  });
});
