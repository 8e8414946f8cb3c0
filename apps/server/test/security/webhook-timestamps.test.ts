import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../src/db/schema/index';
import type { TestApp } from '../helpers';
import { buildStripeTestApp, type StripeTestApp } from '../stripe-test-app';

/** Issue 14, item 5: a signed Stripe event is accepted only within the tolerance, on both sides of our clock. */

let stripe: StripeTestApp;
let t: TestApp;
beforeAll(async () => {
  stripe = await buildStripeTestApp({
    secretKey: 'sk_test_wire_future',
    publishableKey: 'pk_test_future',
    webhookSecret: 'whsec_test_future',
  });
  t = stripe.t;
});
afterAll(() => stripe.close());

const eventCount = async () => (await t.db.select({ n: count() }).from(webhookEvents))[0]!.n;
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

function post(id: string, timestamp: number, header: (signature: string) => string = (s) => s) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type: 'customer.updated',
    created: timestamp,
    data: { object: { id: 'cus_unknown_to_the_portal', object: 'customer' } },
  });
  const signature = stripe.sign(payload, { timestamp });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header(signature) },
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

  it('refuses a header with more than one timestamp (400, nothing recorded): ours read the first, Stripe’s library the last', async () => {
    const before = await eventCount();
    // An event signed an hour ahead, with a current `t=` put in front of its own.
    const res = await post('evt_two_timestamps', nowSeconds() + 3600, (s) => `t=${nowSeconds()},${s}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      message: 'The Stripe-Signature header must carry exactly one timestamp (t=).',
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
