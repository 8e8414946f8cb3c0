import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, customers, paymentMethods, setupIntents, subscriptions } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import {
  addCard,
  auditActions,
  billingCounts,
  checkout,
  DAY,
  expectUnchanged,
  flushOutbox,
  invoicesOf,
  licenseOf,
  subscriptionRow,
  signIn,
  userIdOf,
} from './billing-test-helpers';

let t: TestApp;
const START = new Date('2025-01-31T10:00:00.000Z');

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(START);
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('GET /api/billing/prices', () => {
  it('answers the configured plan and prices without a session', async () => {
    const res = await get('/api/billing/prices');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 });
  });
});

describe('cards on the local engine', () => {
  let cookie: string;
  let other: string;
  beforeAll(async () => {
    cookie = await signIn(t, 'cards@example.com');
    other = await signIn(t, 'cards-other@example.com');
  });

  it('POST /intents/setup answers a local client secret, 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      provider: 'local',
      clientSecret: expect.stringMatching(/^seti_[A-Za-z0-9]{24}_secret_[A-Za-z0-9_-]{43}$/),
    });
    const anon = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup' });
    expect(anon.statusCode).toBe(401);
    // Only the hash of the secret is stored.
    const rows = await t.db.select().from(setupIntents);
    expect(rows.some((r) => r.clientSecretHash === res.json().clientSecret)).toBe(false);
  });

  it('adds 4242 4242 4242 4242 as the default card, storing brand, last 4 and expiry', async () => {
    const res = await addCard(t, cookie);
    expect(res.statusCode).toBe(201);
    const year = t.clock.now().getUTCFullYear() + 3;
    expect(res.json()).toEqual({
      paymentMethod: {
        id: expect.stringMatching(/^pm_/),
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: year,
        isDefault: true,
      },
    });
    const list = await get('/api/billing/methods/', cookie);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([res.json().paymentMethod]);
    expect((await get('/api/billing/methods', cookie)).json()).toEqual(list.json());
    expect((await get('/api/billing/methods/', other)).json()).toEqual({ items: [] });
    expect(await auditActions(t, await userIdOf(t, 'cards@example.com'))).toContain('card_added');
    // The activity log names the brand as people write it.
    const summaries = await t.db
      .select({ summary: auditEvents.summary })
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, await userIdOf(t, 'cards@example.com')), eq(auditEvents.action, 'card_added')));
    expect(summaries.map((r) => r.summary)).toEqual(['Added Visa card ending in 4242']);
  });

  it('lists 401 when signed out', async () => {
    expect((await get('/api/billing/methods/')).statusCode).toBe(401);
  });

  it('declines 4000 0000 0000 0002 when attaching (402), stores nothing, and the secret stays usable', async () => {
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const { clientSecret } = si.json();
    const body = { clientSecret, number: '4000 0000 0000 0002', expMonth: 1, expYear: 2030, cvc: '123' };
    await expectUnchanged(t, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/local/confirm-setup',
        headers: { cookie },
        payload: body,
      });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ code: 'CARD_DECLINED', message: 'Your card was declined.' });
    });
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/billing/local/confirm-setup',
      headers: { cookie },
      payload: { ...body, number: '5555555555554444' },
    });
    expect(retry.statusCode).toBe(201);
    expect(retry.json().paymentMethod).toMatchObject({ brand: 'mastercard', last4: '4444', isDefault: false });
  });

  it('attaches 4000 0000 0000 9995 (insufficient funds show at charge time)', async () => {
    const res = await addCard(t, cookie, '4000000000009995');
    expect(res.statusCode).toBe(201);
    expect(res.json().paymentMethod.last4).toBe('9995');
  });

  it.each([
    ['a number failing the Luhn check', { number: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    ['a number too short', { number: '4242' }, 'Your card number is invalid.'],
    ['letters', { number: 'abcd-efgh-ijkl-mnop' }, 'Your card number is invalid.'],
    ['an expired card', { expMonth: 12, expYear: 2024 }, 'Your card has expired.'],
    ['a 4-digit code on visa', { cvc: '1234' }, "Your card's security code is invalid."],
    ['month 13', { expMonth: 13 }, 'The expiry month must be 1 to 12'],
    ['a code with letters', { cvc: '12a' }, 'The security code has 3 or 4 digits'],
    ['an unknown field', { name: 'x' }, 'Unknown field in the body: name'],
  ])('refuses %s with 400 and a clear message, changing nothing', async (_name, patch, message) => {
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const { clientSecret } = si.json();
    await expectUnchanged(t, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/billing/local/confirm-setup',
        headers: { cookie },
        payload: { clientSecret, number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123', ...patch },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  it('refuses a used secret (409), a foreign or unknown one (404), and a signed-out form (401)', async () => {
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const { clientSecret } = si.json();
    const body = { clientSecret, number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/billing/local/confirm-setup',
      headers: { cookie },
      payload: body,
    });
    expect(ok.statusCode).toBe(201);
    await expectUnchanged(t, async () => {
      const used = await t.app.inject({
        method: 'POST',
        url: '/api/billing/local/confirm-setup',
        headers: { cookie },
        payload: body,
      });
      expect(used.statusCode).toBe(409);
      expect(used.json().message).toBe('This card setup was already used. Start again to add another card.');
    });
    // The other customer has a billing record of their own, so the owner check is what refuses.
    await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie: other } });
    const si2 = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    await expectUnchanged(t, async () => {
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/billing/local/confirm-setup',
        headers: { cookie: other },
        payload: { ...body, clientSecret: si2.json().clientSecret },
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe('This card setup was not found. Start adding the card again.');
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/billing/local/confirm-setup',
        headers: { cookie },
        payload: { ...body, clientSecret: 'seti_nope_secret_nope' },
      });
      expect(unknown.statusCode).toBe(404);
      const anon = await t.app.inject({ method: 'POST', url: '/api/billing/local/confirm-setup', payload: body });
      expect(anon.statusCode).toBe(401);
    });
  });

  it("DELETE /methods/{id}: 204 for an unused card, 404 for another customer's or an unknown card, 401 signed out", async () => {
    const card = (await addCard(t, cookie, '6011111111111117')).json().paymentMethod;
    await expectUnchanged(t, async () => {
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${card.id}`, headers: { cookie: other } })).statusCode,
      ).toBe(404);
      const unknown = await t.app.inject({ method: 'DELETE', url: '/api/billing/methods/pm_unknown', headers: { cookie } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('The card was not found');
      expect((await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${card.id}` })).statusCode).toBe(401);
    });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${card.id}`, headers: { cookie } });
    expect(res.statusCode).toBe(204);
    const ids = (await get('/api/billing/methods/', cookie)).json().items.map((c: { id: string }) => c.id);
    expect(ids).not.toContain(card.id);
    expect(await auditActions(t, await userIdOf(t, 'cards@example.com'))).toContain('card_removed');
  });

  it('removing the default card makes another card the default', async () => {
    const before = (await get('/api/billing/methods/', cookie)).json().items as { id: string; isDefault: boolean }[];
    const def = before.find((c) => c.isDefault)!;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${def.id}`, headers: { cookie } })).statusCode,
    ).toBe(204);
    const after = (await get('/api/billing/methods/', cookie)).json().items as { id: string; isDefault: boolean }[];
    expect(after.filter((c) => c.isDefault)).toHaveLength(1);
    expect(after.map((c) => c.id)).not.toContain(def.id);
  });
});

describe('checkout on the local engine', () => {
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    cookie = await signIn(t, 'buyer@example.com');
    userId = await userIdOf(t, 'buyer@example.com');
  });

  it('refuses a checkout without a card (400) and changes nothing', async () => {
    await expectUnchanged(t, async () => {
      const res = await checkout(t, cookie, { interval: 'month', quantity: 2 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Add a card before subscribing.');
    });
  });

  it.each([
    ['quantity 0', { interval: 'month', quantity: 0 }, 'The quantity must be at least 1'],
    ['quantity 100', { interval: 'month', quantity: 100 }, 'The quantity can be at most 99'],
    ['quantity 2.5', { interval: 'month', quantity: 2.5 }, 'The quantity must be a whole number'],
    ["quantity '3'", { interval: 'month', quantity: '3' }, 'The quantity must be a whole number'],
    ['a missing quantity', { interval: 'month' }, 'The quantity must be a whole number'],
    ['interval week', { interval: 'week', quantity: 1 }, 'The billing interval must be "month" or "year"'],
    ['an unknown field', { interval: 'month', quantity: 1, coupon: 'FREE' }, 'Unknown field in the body: coupon'],
  ])('refuses %s with 400 and changes nothing', async (_n, payload, message) => {
    await expectUnchanged(t, async () => {
      const res = await checkout(t, cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  it('answers 401 when signed out', async () => {
    expect((await checkout(t, '', { interval: 'month', quantity: 1 })).statusCode).toBe(401);
  });

  it('refuses a card with insufficient funds with 402 and persists nothing', async () => {
    const poor = (await addCard(t, cookie, '4000 0000 0000 9995')).json().paymentMethod;
    await expectUnchanged(t, async () => {
      const res = await checkout(t, cookie, { interval: 'month', quantity: 2, paymentMethodId: poor.id });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ code: 'CARD_DECLINED', message: 'Your card has insufficient funds.' });
    });
    // Remove it again so the default card below is a good one.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${poor.id}`, headers: { cookie } })).statusCode,
    ).toBe(204);
  });

  it("answers 404 for another customer's card", async () => {
    const stranger = await signIn(t, 'stranger@example.com');
    const theirs = (await addCard(t, stranger)).json().paymentMethod;
    await addCard(t, cookie);
    await expectUnchanged(t, async () => {
      const res = await checkout(t, cookie, { interval: 'month', quantity: 1, paymentMethodId: theirs.id });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('The card was not found');
    });
  });

  it('charges, issues the license, numbers the invoice and e-mails the receipt', async () => {
    const before = await billingCounts(t);
    const res = await checkout(t, cookie, { interval: 'month', quantity: 2 });
    expect(res.statusCode).toBe(201);
    const sub = res.json().subscription;
    expect(sub).toMatchObject({
      stripeId: expect.stringMatching(/^sub_/),
      status: 'active',
      quantity: 2,
      interval: 'month',
      cancelAtPeriodEnd: false,
      plan: 'Node license',
      unitAmount: 2500,
      currency: 'usd',
      currentPeriodStart: START.toISOString(),
      // Jan 31 + 1 month = Feb 28.
      currentPeriodEnd: '2025-02-28T10:00:00.000Z',
      licenseKey: expect.stringMatching(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/),
    });
    expect(res.json().clientSecret).toBeUndefined();
    const license = await licenseOf(t, sub.stripeId);
    expect(license).toMatchObject({ key: sub.licenseKey, maxNodes: 2, status: 'active' });
    expect(license!.expiresAt.toISOString()).toBe('2025-02-28T10:00:00.000Z');

    const after = await billingCounts(t);
    expect(after.subscriptions).toBe(before.subscriptions + 1);
    expect(after.invoices).toBe(before.invoices + 1);
    expect(after.licenses).toBe(before.licenses + 1);

    const inv = await get(`/api/billing/subscriptions/${sub.stripeId}/invoices`, cookie);
    expect(inv.statusCode).toBe(200);
    expect(inv.json().items).toEqual([
      {
        id: expect.any(String),
        number: expect.stringMatching(/^INV-\d{4,}$/),
        status: 'paid',
        amountDue: 5000,
        amountPaid: 5000,
        currency: 'usd',
        created: START.toISOString(),
        periodStart: START.toISOString(),
        periodEnd: '2025-02-28T10:00:00.000Z',
        url: `/api/billing/invoices/${inv.json().items[0].id}`,
      },
    ]);

    await flushOutbox(t);
    const receipt = t.mailer.messages.find((m) => m.to === 'buyer@example.com' && m.subject.startsWith('Your receipt'));
    expect(receipt).toBeDefined();
    expect(receipt!.subject).toBe(`Your receipt for invoice ${inv.json().items[0].number}`);
    expect(receipt!.text).toContain('Amount paid: $50.00');
    expect(receipt!.text).toContain(inv.json().items[0].number);
    expect(await auditActions(t, userId)).toContain('subscription_created');

    const list = await get('/api/billing/subscriptions/', cookie);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([sub]);
    expect((await get('/api/billing/subscriptions', cookie)).json()).toEqual(list.json());
  });

  it('creates one subscription and one charge for a double-submitted checkout', async () => {
    const cookie2 = await signIn(t, 'double@example.com');
    await addCard(t, cookie2);
    const before = await billingCounts(t);
    const [a, b] = await Promise.all([
      checkout(t, cookie2, { interval: 'year', quantity: 3 }),
      checkout(t, cookie2, { interval: 'year', quantity: 3 }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().subscription.stripeId).toBe(b.json().subscription.stripeId);
    const after = await billingCounts(t);
    expect(after.subscriptions).toBe(before.subscriptions + 1);
    expect(after.invoices).toBe(before.invoices + 1);
    expect(after.licenses).toBe(before.licenses + 1);
    // A retry a few seconds later is still the same purchase; after the window it is a new one.
    t.clock.advance(5_000);
    const retry = await checkout(t, cookie2, { interval: 'year', quantity: 3 });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().subscription.stripeId).toBe(a.json().subscription.stripeId);
    t.clock.advance(11_000);
    const second = await checkout(t, cookie2, { interval: 'year', quantity: 3 });
    expect(second.statusCode).toBe(201);
    expect(second.json().subscription.stripeId).not.toBe(a.json().subscription.stripeId);
    t.clock.set(START);
  });

  it('honours a client Idempotency-Key, and refuses it for a different purchase (409)', async () => {
    const cookie3 = await signIn(t, 'idem@example.com');
    await addCard(t, cookie3);
    const key = { 'idempotency-key': 'order-7f3a9c1e' };
    const first = await checkout(t, cookie3, { interval: 'month', quantity: 1 }, key);
    expect(first.statusCode).toBe(201);
    t.clock.advance(60_000);
    const again = await checkout(t, cookie3, { interval: 'month', quantity: 1 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().subscription.stripeId).toBe(first.json().subscription.stripeId);
    await expectUnchanged(t, async () => {
      const other = await checkout(t, cookie3, { interval: 'month', quantity: 5 }, key);
      expect(other.statusCode).toBe(409);
      expect(other.json().message).toBe('This Idempotency-Key was already used for a different purchase.');
      const bad = await checkout(t, cookie3, { interval: 'month', quantity: 1 }, { 'idempotency-key': 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('The Idempotency-Key header must be 8 to 255 letters, digits or _ . : -');
    });
    t.clock.set(START);
  });
});

describe('changing a subscription', () => {
  let cookie: string;
  let other: string;
  let userId: string;
  let stripeId: string;
  beforeAll(async () => {
    t.clock.set(START);
    cookie = await signIn(t, 'changer@example.com');
    other = await signIn(t, 'changer-other@example.com');
    userId = await userIdOf(t, 'changer@example.com');
    await addCard(t, cookie);
    await addCard(t, other);
    stripeId = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription.stripeId;
    await checkout(t, other, { interval: 'month', quantity: 1 });
  });

  const put = (quantity: unknown, c = cookie, id = stripeId) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/billing/subscriptions/${id}/quantity`,
      headers: { cookie: c },
      payload: { quantity },
    });
  const patch = (interval: unknown, c = cookie, id = stripeId, slash = '/') =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/billing/subscriptions/${id}${slash}`,
      headers: { cookie: c },
      payload: { interval },
    });
  const preview = (body: Record<string, unknown>, c = cookie, id = stripeId) =>
    t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${id}/preview`, headers: { cookie: c }, payload: body });

  it.each([
    [0, 'The quantity must be at least 1'],
    [100, 'The quantity can be at most 99'],
    [2.5, 'The quantity must be a whole number'],
    ['3', 'The quantity must be a whole number'],
    [1, 'Quantity must be different from the current one'],
  ])('refuses quantity %j with 400 and changes nothing', async (q, message) => {
    await expectUnchanged(t, async () => {
      const res = await put(q);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  it('previews the exact prorated charge, then charges it (credit for unused time, charge for the remainder)', async () => {
    // 7 of the 28 days of Jan 31 -> Feb 28 are used: 21 days remain.
    t.clock.set(new Date(START.getTime() + 7 * DAY));
    // Sessions idle out after 7 days: sign in again at the new time.
    cookie = await signIn(t, 'changer@example.com');
    other = await signIn(t, 'changer-other@example.com');
    const before = await billingCounts(t);
    const p = await preview({ quantity: 3 });
    expect(p.statusCode).toBe(200);
    // credit round(2500 x 21/28) = 1875, charge round(7500 x 21/28) = 5625.
    expect(p.json()).toEqual({
      amountDue: 3750,
      subtotal: 3750,
      creditApplied: 0,
      currency: 'usd',
      nextRenewalAt: '2025-02-28T10:00:00.000Z',
      nextRenewalAmount: 7500,
      lines: [
        expect.objectContaining({ amount: -1875, quantity: 1, description: 'Unused time on 1 × Node license (monthly)' }),
        expect.objectContaining({ amount: 5625, quantity: 3, description: 'Remaining time on 3 × Node license (monthly)' }),
      ],
    });
    expect(await billingCounts(t)).toEqual(before);

    const res = await put(3);
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({
      quantity: 3,
      currentPeriodEnd: '2025-02-28T10:00:00.000Z',
      status: 'active',
    });
    const invoices = await invoicesOf(t, stripeId);
    expect(invoices.at(-1)).toMatchObject({ amountDue: 3750, amountPaid: 3750, status: 'paid', reason: 'subscription_update' });
    expect((await licenseOf(t, stripeId))!.maxNodes).toBe(3);
    expect(await auditActions(t, userId)).toContain('subscription_quantity_changed');
    await flushOutbox(t);
    expect(t.mailer.messages.some((m) => m.to === 'changer@example.com' && m.text.includes('Amount paid: $37.50'))).toBe(true);
  });

  it('keeps lowering the quantity as account credit used by the next charge', async () => {
    const res = await put(2);
    expect(res.statusCode).toBe(200);
    const credit = (await invoicesOf(t, stripeId)).at(-1)!;
    // 21 days of 28 remain: credit round(7500 x 3/4) = 5625, charge round(5000 x 3/4) = 3750.
    expect(credit).toMatchObject({ amountDue: 0, amountPaid: 0, status: 'paid' });
    expect(credit.lines.map((l) => l.amount)).toEqual([-5625, 3750]);
    const p = await preview({ quantity: 3 });
    // charge 1875 again, the 1875 credit pays it.
    expect(p.json()).toMatchObject({ subtotal: 1875, creditApplied: 1875, amountDue: 0 });
  });

  it('refuses to shrink the license below its active nodes (409), charging nothing', async () => {
    const key = (await licenseOf(t, stripeId))!.key;
    for (const fp of ['node-a', 'node-b']) {
      const act = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: { fingerprint: fp } });
      expect(act.statusCode).toBe(201);
    }
    await expectUnchanged(t, async () => {
      const res = await put(1);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This license has 2 active nodes. Release 1 node before lowering the quantity to 1.');
    });
  });

  it('switches the interval: prorated now, the period restarts, the license is extended', async () => {
    await expectUnchanged(t, async () => {
      const same = await patch('month');
      expect(same.statusCode).toBe(400);
      expect(same.json().message).toBe('This subscription is already billed monthly.');
      const bad = await patch('week');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('The billing interval must be "month" or "year"');
    });
    const now = t.clock.now();
    const p = await preview({ interval: 'year' });
    expect(p.statusCode).toBe(200);
    const res = await patch('year', cookie, stripeId, '');
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({
      interval: 'year',
      unitAmount: 25000,
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: '2026-02-07T10:00:00.000Z',
    });
    const inv = (await invoicesOf(t, stripeId)).at(-1)!;
    expect(inv.reason).toBe('subscription_interval_change');
    expect(inv.amountDue).toBe(p.json().amountDue);
    expect(p.json().nextRenewalAt).toBe('2026-02-07T10:00:00.000Z');
    expect((await licenseOf(t, stripeId))!.expiresAt.toISOString()).toBe('2026-02-07T10:00:00.000Z');
    expect(await auditActions(t, userId)).toContain('subscription_interval_changed');
  });

  it('accepts PATCH with and without the trailing slash', async () => {
    const res = await patch('month', cookie, stripeId, '/');
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription.interval).toBe('month');
    // Back to monthly: the license ends with the new, shorter period (the rest became credit).
    expect((await licenseOf(t, stripeId))!.expiresAt.toISOString()).toBe(res.json().subscription.currentPeriodEnd);
  });

  it("answers 404 for another customer's subscription on every route, and 401 signed out", async () => {
    const theirs = (await get('/api/billing/subscriptions/', other)).json().items[0].stripeId as string;
    await expectUnchanged(t, async () => {
      for (const res of [
        await put(5, cookie, theirs),
        await patch('year', cookie, theirs),
        await preview({ quantity: 5 }, cookie, theirs),
        await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${theirs}/`, headers: { cookie } }),
        await t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${theirs}/reactivate`, headers: { cookie } }),
        await get(`/api/billing/subscriptions/${theirs}/invoices`, cookie),
        await put(5, cookie, 'sub_unknown'),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'The subscription was not found' });
      }
      for (const res of [
        await t.app.inject({ method: 'PUT', url: `/api/billing/subscriptions/${stripeId}/quantity`, payload: { quantity: 5 } }),
        await t.app.inject({ method: 'PATCH', url: `/api/billing/subscriptions/${stripeId}/`, payload: { interval: 'year' } }),
        await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}/` }),
        await t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${stripeId}/reactivate` }),
        await t.app.inject({ method: 'POST', url: `/api/billing/subscriptions/${stripeId}/preview`, payload: { quantity: 5 } }),
        await get(`/api/billing/subscriptions/${stripeId}/invoices`),
        await get('/api/billing/subscriptions/'),
      ]) {
        expect(res.statusCode).toBe(401);
      }
    });
  });

  it('refuses previews asking for nothing, both or the same', async () => {
    await expectUnchanged(t, async () => {
      for (const [body, message] of [
        [{}, 'Give either a new quantity or a new billing interval'],
        [{ quantity: 4, interval: 'year' }, 'Give either a new quantity or a new billing interval'],
        [{ quantity: 2 }, 'Quantity must be different from the current one'],
        [{ quantity: 0 }, 'The quantity must be at least 1'],
      ] as const) {
        const res = await preview(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });
  });

  it('cancels at period end (license kept), is idempotent, blocks changes, and re-activates', async () => {
    const end = (await subscriptionRow(t, stripeId)).currentPeriodEnd;
    const del = await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}/`, headers: { cookie } });
    expect(del.statusCode).toBe(200);
    expect(del.json().subscription).toMatchObject({
      cancelAtPeriodEnd: true,
      status: 'active',
      currentPeriodEnd: end.toISOString(),
    });
    expect((await licenseOf(t, stripeId))!.expiresAt.toISOString()).toBe(end.toISOString());
    await expectUnchanged(t, async () => {
      const again = await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}`, headers: { cookie } });
      expect(again.statusCode).toBe(200);
      expect(again.json().subscription.cancelAtPeriodEnd).toBe(true);
      const q = await put(5);
      expect(q.statusCode).toBe(409);
      expect(q.json().message).toBe('This subscription is cancelled. Re-activate it before changing it.');
    });
    const re = await t.app.inject({
      method: 'POST',
      url: `/api/billing/subscriptions/${stripeId}/reactivate`,
      headers: { cookie },
    });
    expect(re.statusCode).toBe(200);
    expect(re.json().subscription).toMatchObject({ cancelAtPeriodEnd: false, status: 'active' });
    const actions = await auditActions(t, userId);
    expect(actions).toContain('subscription_cancelled');
    expect(actions).toContain('subscription_reactivated');
    await flushOutbox(t);
    expect(t.mailer.messages.some((m) => m.to === 'changer@example.com' && m.subject === 'Your subscription is cancelled')).toBe(
      true,
    );
  });
});

describe('renewals and period ends', () => {
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    t.clock.set(START);
    cookie = await signIn(t, 'renewer@example.com');
    userId = await userIdOf(t, 'renewer@example.com');
    await addCard(t, cookie);
  });

  it('renews on the calendar (Jan 31 -> Feb 28 -> Mar 31), with an invoice and a longer license each time', async () => {
    t.clock.set(START);
    const sub = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription;
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    expect(await t.app.ctx.services.billing.runRenewals()).toBeGreaterThanOrEqual(1);
    let row = await subscriptionRow(t, sub.stripeId);
    expect(row.currentPeriodEnd.toISOString()).toBe('2025-03-31T10:00:00.000Z');
    expect((await licenseOf(t, sub.stripeId))!.expiresAt.toISOString()).toBe('2025-03-31T10:00:00.000Z');
    t.clock.set(new Date('2025-03-31T10:00:01.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    row = await subscriptionRow(t, sub.stripeId);
    expect(row.currentPeriodEnd.toISOString()).toBe('2025-04-30T10:00:00.000Z');
    const invoices = await invoicesOf(t, sub.stripeId);
    expect(invoices.map((i) => [i.reason, i.amountDue, i.status])).toEqual([
      ['subscription_create', 2500, 'paid'],
      ['subscription_cycle', 2500, 'paid'],
      ['subscription_cycle', 2500, 'paid'],
    ]);
    expect(invoices[2]!.periodStart.toISOString()).toBe('2025-03-31T10:00:00.000Z');
    expect(await auditActions(t, userId)).toContain('subscription_renewed');
    // Nothing is due any more: a second run changes nothing.
    await expectUnchanged(t, async () => {
      await t.app.ctx.services.billing.runRenewals();
    });
  });

  it('renews each due subscription once when two workers run at the same time', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'parallel@example.com');
    await addCard(t, c);
    const subs: string[] = [];
    for (let q = 1; q <= 4; q++)
      subs.push((await checkout(t, c, { interval: 'month', quantity: q })).json().subscription.stripeId);
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    await Promise.all([t.app.ctx.services.billing.runRenewals(), t.app.ctx.services.billing.runRenewals()]);
    for (const id of subs) {
      expect((await invoicesOf(t, id)).filter((i) => i.reason === 'subscription_cycle')).toHaveLength(1);
    }
  });

  it('ends a cancelled subscription at its period end: license expired, changes refused (409)', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'ender@example.com');
    await addCard(t, c);
    const sub = (await checkout(t, c, { interval: 'month', quantity: 2 })).json().subscription;
    await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${sub.stripeId}/`, headers: { cookie: c } });
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    const c2 = await signIn(t, 'ender@example.com');
    // Before the worker runs, re-activation is already refused: the period is over.
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/billing/subscriptions/${sub.stripeId}/reactivate`,
      headers: { cookie: c2 },
    });
    expect(late.statusCode).toBe(409);
    await t.app.ctx.services.billing.runRenewals();
    const row = await subscriptionRow(t, sub.stripeId);
    expect(row).toMatchObject({ status: 'canceled', endedReason: 'cancelled' });
    expect(await invoicesOf(t, sub.stripeId)).toHaveLength(1);
    const license = (await licenseOf(t, sub.stripeId))!;
    expect(license.expiresAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await auditActions(t, await userIdOf(t, 'ender@example.com'))).toContain('subscription_ended');
    await expectUnchanged(t, async () => {
      for (const res of [
        await t.app.inject({
          method: 'PUT',
          url: `/api/billing/subscriptions/${sub.stripeId}/quantity`,
          headers: { cookie: c2 },
          payload: { quantity: 3 },
        }),
        await t.app.inject({
          method: 'PATCH',
          url: `/api/billing/subscriptions/${sub.stripeId}/`,
          headers: { cookie: c2 },
          payload: { interval: 'year' },
        }),
        await t.app.inject({ method: 'DELETE', url: `/api/billing/subscriptions/${sub.stripeId}/`, headers: { cookie: c2 } }),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe('This subscription has ended. Start a new subscription to continue.');
      }
      const re = await t.app.inject({
        method: 'POST',
        url: `/api/billing/subscriptions/${sub.stripeId}/reactivate`,
        headers: { cookie: c2 },
      });
      expect(re.statusCode).toBe(409);
      expect(re.json().message).toBe(
        'This subscription has already ended and can no longer be re-activated. Start a new subscription instead.',
      );
    });
  });

  it('keeps a failed renewal open (past_due), then pays it with a newly added card', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'pastdue@example.com');
    const good = (await addCard(t, c)).json().paymentMethod;
    const sub = (await checkout(t, c, { interval: 'month', quantity: 1 })).json().subscription;
    const poor = (await addCard(t, c, '4000000000009995')).json().paymentMethod;
    // Removing the paying card moves the subscription onto the remaining card.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${good.id}`, headers: { cookie: c } })).statusCode,
    ).toBe(204);
    expect((await subscriptionRow(t, sub.stripeId)).paymentMethodId).toBe(poor.id);
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    let row = await subscriptionRow(t, sub.stripeId);
    expect(row.status).toBe('past_due');
    const open = (await invoicesOf(t, sub.stripeId)).at(-1)!;
    expect(open).toMatchObject({ status: 'open', amountPaid: 0, amountDue: 2500 });
    // The machines keep running: the license is valid until the grace's end (PAYMENT_GRACE_DAYS, 14).
    expect((await licenseOf(t, sub.stripeId))!.expiresAt.toISOString()).toBe('2025-03-14T10:00:00.000Z');
    await flushOutbox(t);
    expect(
      t.mailer.messages.some(
        (m) => m.to === 'pastdue@example.com' && m.subject === `Your payment for invoice ${open.number} failed`,
      ),
    ).toBe(true);

    const c2 = await signIn(t, 'pastdue@example.com');
    expect((await addCard(t, c2)).statusCode).toBe(201);
    row = await subscriptionRow(t, sub.stripeId);
    expect(row.status).toBe('active');
    expect((await invoicesOf(t, sub.stripeId)).at(-1)).toMatchObject({ status: 'paid', amountPaid: 2500 });
    expect((await licenseOf(t, sub.stripeId))!.expiresAt.toISOString()).toBe('2025-03-31T10:00:00.000Z');
  });

  it('ends a subscription whose renewal stays unpaid when the grace runs out (PAYMENT_GRACE_DAYS, 14)', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'unpaid@example.com');
    const good = (await addCard(t, c)).json().paymentMethod;
    const sub = (await checkout(t, c, { interval: 'month', quantity: 1 })).json().subscription;
    await addCard(t, c, '4000000000000341');
    await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${good.id}`, headers: { cookie: c } });
    t.clock.set(new Date('2025-02-28T10:00:00.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    expect((await subscriptionRow(t, sub.stripeId)).status).toBe('past_due');
    t.clock.set(new Date('2025-03-14T09:59:59.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    expect((await subscriptionRow(t, sub.stripeId)).status).toBe('past_due');
    t.clock.set(new Date('2025-03-14T10:00:00.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    expect((await subscriptionRow(t, sub.stripeId)).status).toBe('canceled');
  });
});

describe('card removal while a subscription uses the card', () => {
  it('refuses to remove the only card paying for a subscription (409), then lets another card take over', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'remover@example.com');
    const first = (await addCard(t, c)).json().paymentMethod;
    const sub = (await checkout(t, c, { interval: 'month', quantity: 1 })).json().subscription;
    await expectUnchanged(t, async () => {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${first.id}`, headers: { cookie: c } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'This card pays for an active subscription. Add another card first, or cancel the subscription.',
      );
    });
    const second = (await addCard(t, c, '5555 5555 5555 4444')).json().paymentMethod;
    expect(second.isDefault).toBe(false);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${first.id}`, headers: { cookie: c } })).statusCode,
    ).toBe(204);
    const cards = (await get('/api/billing/methods/', c)).json().items;
    expect(cards).toEqual([{ ...second, isDefault: true }]);
    expect((await subscriptionRow(t, sub.stripeId)).paymentMethodId).toBe(second.id);
  });
});

describe('GET /api/billing/invoices/{id}', () => {
  it('answers a printable HTML invoice to its owner only', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'printer@example.com');
    const o = await signIn(t, 'printer-other@example.com');
    await addCard(t, c);
    const sub = (await checkout(t, c, { interval: 'year', quantity: 3 })).json().subscription;
    const inv = (await get(`/api/billing/subscriptions/${sub.stripeId}/invoices`, c)).json().items[0];
    const res = await get(inv.url, c);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain(inv.number);
    expect(res.body).toContain('$750.00');
    expect(res.body).toContain('3 × Node license (yearly)');
    expect(res.body).toContain('printer@example.com');
    expect(res.body).not.toMatch(/<script/i);
    for (const [url, cookie] of [
      [inv.url, o],
      ['/api/billing/invoices/00000000-0000-4000-8000-000000000000', c],
      ['/api/billing/invoices/not-a-uuid', c],
    ] as const) {
      const r = await get(url, cookie);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ code: 'NOT_FOUND', message: 'The invoice was not found' });
    }
    expect((await get(inv.url)).statusCode).toBe(401);
  });
});

describe('for other modules: account deletion and export', () => {
  it('cancelAllNowForUser ends every subscription now, expires licenses and detaches cards, charging nothing', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'leaver@example.com');
    const userId = await userIdOf(t, 'leaver@example.com');
    await addCard(t, c);
    const a = (await checkout(t, c, { interval: 'month', quantity: 1 })).json().subscription;
    const b = (await checkout(t, c, { interval: 'year', quantity: 2 })).json().subscription;
    const before = await billingCounts(t);
    t.clock.advance(3 * DAY);
    await t.db.transaction((tx) => t.app.ctx.services.billing.cancelAllNowForUser(tx, userId));
    for (const s of [a, b]) {
      const row = await subscriptionRow(t, s.stripeId);
      expect(row).toMatchObject({ status: 'canceled', endedReason: 'account_deleted' });
      expect(row.currentPeriodEnd.getTime()).toBe(t.clock.now().getTime());
      expect((await licenseOf(t, s.stripeId))!.expiresAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    }
    expect((await billingCounts(t)).invoices).toBe(before.invoices);
    const [customer] = await t.db.select().from(customers).where(eq(customers.userId, userId));
    const attached = await t.db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.customerId, customer!.providerCustomerId)));
    expect(attached.every((p) => p.detachedAt !== null)).toBe(true);
    expect((await get('/api/billing/methods/', c)).json().items).toEqual([]);
    const ended = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, userId), eq(auditEvents.action, 'subscription_ended')));
    expect(ended).toHaveLength(2);
    t.clock.set(START);
  });

  it('exportForUser lists cards without numbers, subscriptions and invoices; listSubscriptions matches the API', async () => {
    t.clock.set(START);
    const c = await signIn(t, 'exporter@example.com');
    const userId = await userIdOf(t, 'exporter@example.com');
    await addCard(t, c);
    const sub = (await checkout(t, c, { interval: 'month', quantity: 4 })).json().subscription;
    const data = await t.app.ctx.services.billing.exportForUser(userId);
    expect(data.paymentMethods).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242' })]);
    expect(JSON.stringify(data)).not.toContain('4242424242424242');
    expect(data.subscriptions).toEqual([sub]);
    expect(data.invoices).toEqual([
      expect.objectContaining({ subscription: sub.stripeId, amountDue: 10000, lines: expect.any(Array) }),
    ]);
    expect(await t.app.ctx.services.billing.listSubscriptions(userId)).toEqual([sub]);
  });
});

describe('local-only routes', () => {
  it('has no webhook endpoint without Stripe', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/webhook', payload: {} });
    expect(res.statusCode).toBe(404);
  });

  it('keeps subscription rows tidy (no orphan subscription from a failed checkout)', async () => {
    const rows = await t.db.select().from(subscriptions);
    expect(rows.every((r) => r.userId !== null)).toBe(true);
  });
});
