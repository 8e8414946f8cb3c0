import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import {
  addCard,
  auditActions,
  checkout,
  expectUnchanged,
  flushOutbox,
  invoicesOf,
  licenseOf,
  signIn,
  subscriptionRow,
  subscriptionWithPoorCard,
  userIdOf,
} from './billing-test-helpers';

/**
 * Paying the open invoice of a failed renewal with a card on file
 * (POST /api/billing/subscriptions/{stripeId}/pay), on the built-in engine with the injected clock,
 * and the dunning state the subscription record carries while the payment is failing.
 */

const START = new Date('2025-01-31T10:00:00.000Z');
const FAILED = new Date('2025-02-28T10:00:00.000Z');
const GRACE_END = '2025-03-14T10:00:00.000Z';
const PAID_PERIOD_END = '2025-03-31T10:00:00.000Z';
const at = (iso: string) => new Date(iso);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const pay = (cookie: string, stripeId: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/billing/subscriptions/${stripeId}/pay`,
    headers: { cookie, ...headers },
    payload: payload as object,
  });

const subscriptionsOf = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/billing/subscriptions/', headers: { cookie } })).json().items as Record<
    string,
    unknown
  >[];

/**
 * A monthly subscription of 2 nodes bought at START whose renewal at FAILED is charged to a card
 * with insufficient funds; a second card that works stays on file (not the subscription's). A node
 * is active.
 */
async function failedRenewal(email: string) {
  const { cookie, stripeId, licenseKey: key, poorCard: poor } = await subscriptionWithPoorCard(t, email, START);
  // A working card is added after the poor one took over the subscription.
  const good = (await addCard(t, cookie, '5555 5555 5555 4444')).json().paymentMethod;
  const fingerprint = `fp-${email}`;
  expect(
    (await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: { fingerprint, hostname: 'pve-01' } }))
      .statusCode,
  ).toBe(201);
  // The worker renews every subscription that is due (other tests' too): this one's renewal fails.
  t.clock.set(FAILED);
  await t.app.ctx.services.billing.runRenewals();
  await flushOutbox(t);
  expect((await subscriptionRow(t, stripeId)).status).toBe('past_due');
  const fresh = await signIn(t, email);
  return { cookie: fresh, stripeId, key, fingerprint, poor, good: good.id as string };
}

const validate = async (key: string, fingerprint: string) =>
  (await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { fingerprint } })).json();

describe('the subscription record while a payment is failing', () => {
  it('carries the amount, the open invoice, the grace’s end and the next try; null once paid up', async () => {
    const c = await failedRenewal('dunning-record@example.com');
    const [open] = (await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open');
    const [sub] = await subscriptionsOf(c.cookie);
    expect(sub).toMatchObject({
      status: 'past_due',
      paymentFailing: {
        amountDue: open!.amountDue,
        currency: open!.currency,
        invoiceNumber: open!.number,
        failingSince: FAILED.toISOString(),
        accessUntil: GRACE_END,
        nextAttemptAt: '2025-03-01T10:00:00.000Z',
      },
    });
    expect(open!.amountDue).toBeGreaterThan(0);

    const paid = await pay(c.cookie, c.stripeId, { paymentMethodId: c.good });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().subscription).toMatchObject({ status: 'active', paymentFailing: null });
    expect((await subscriptionsOf(c.cookie))[0]).toMatchObject({ status: 'active', paymentFailing: null });
  });

  it('is null for a subscription that is paid up', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'dunning-none@example.com');
    await addCard(t, cookie);
    const res = await checkout(t, cookie, { interval: 'month', quantity: 1 });
    expect(res.json().subscription.paymentFailing).toBeNull();
    expect((await subscriptionsOf(cookie))[0]!.paymentFailing).toBeNull();
  });
});

describe('POST /api/billing/subscriptions/{stripeId}/pay', () => {
  it('pays with a card on file: active at once, the license back to the paid period, the activity, the receipt', async () => {
    const email = 'pay-ok@example.com';
    const c = await failedRenewal(email);
    expect((await licenseOf(t, c.stripeId))!.expiresAt.toISOString()).toBe(GRACE_END);
    t.clock.set(at('2025-03-02T12:00:00.000Z'));

    const res = await pay(c.cookie, c.stripeId, { paymentMethodId: c.good }, { 'idempotency-key': 'pay-ok-00000001' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().subscription).toMatchObject({
      stripeId: c.stripeId,
      status: 'active',
      currentPeriodEnd: PAID_PERIOD_END,
      paymentFailing: null,
      licenseKey: c.key,
    });
    await flushOutbox(t);

    const row = await subscriptionRow(t, c.stripeId);
    expect(row).toMatchObject({ status: 'active', nextPaymentAttemptAt: null, paymentMethodId: c.good });
    expect((await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open')).toHaveLength(0);
    // The license ends with the paid period again; the grace is over.
    const license = (await licenseOf(t, c.stripeId))!;
    expect(license.expiresAt.toISOString()).toBe(PAID_PERIOD_END);
    expect(license.expiresAt).toEqual(row.currentPeriodEnd);
    const answer = await validate(c.key, c.fingerprint);
    expect(answer).toMatchObject({ valid: true, code: 'VALID', license: { expiresAt: PAID_PERIOD_END } });
    expect(answer.license.grace).toBeUndefined();
    // The activity says the open invoice was paid; the receipt is in the outbox.
    expect((await auditActions(t, await userIdOf(t, email))).at(-1)).toBe('subscription_renewed');
    const receipts = t.mailer.messages.filter((m) => m.to === email && /receipt/i.test(m.subject));
    expect(receipts.length).toBeGreaterThanOrEqual(2);
    const [paidInvoice] = (await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'paid').slice(-1);
    expect(receipts.at(-1)!.text).toContain(paidInvoice!.number);

    // Nothing is owed any more: a second payment is refused and changes nothing.
    await expectUnchanged(t, async () => {
      const again = await pay(c.cookie, c.stripeId, { paymentMethodId: c.good }, { 'idempotency-key': 'pay-ok-00000001' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'CONFLICT',
        message: 'This subscription has no failed payment: there is nothing to pay.',
      });
    });
    // The worker has no retry left to run: the subscription stays as it was paid.
    t.clock.set(at('2025-03-03T10:00:00.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'active', currentPeriodEnd: at(PAID_PERIOD_END) });
  });

  it('answers a declined card with 402 and its message, and changes nothing: still past due, the schedule stands', async () => {
    const c = await failedRenewal('pay-declined@example.com');
    const before = await subscriptionRow(t, c.stripeId);
    await expectUnchanged(t, async () => {
      const res = await pay(c.cookie, c.stripeId, { paymentMethodId: c.poor });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ code: 'CARD_DECLINED', message: 'Your card has insufficient funds.' });
    });
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({
      status: 'past_due',
      nextPaymentAttemptAt: before.nextPaymentAttemptAt,
      paymentMethodId: before.paymentMethodId,
    });
    expect((await licenseOf(t, c.stripeId))!.expiresAt.toISOString()).toBe(GRACE_END);
    // The retry on the schedule still runs (and fails: the subscription's card is still the poor one).
    t.clock.set(at('2025-03-01T10:00:00.000Z'));
    await t.app.ctx.services.billing.runRenewals();
    expect((await subscriptionRow(t, c.stripeId)).nextPaymentAttemptAt).toEqual(at('2025-03-03T10:00:00.000Z'));
  });

  it("answers 404 for another customer's subscription or card, exactly as for unknown ones, and changes nothing", async () => {
    const c = await failedRenewal('pay-owner@example.com');
    const other = await failedRenewal('pay-other@example.com');
    await expectUnchanged(t, async () => {
      const unknownSub = await pay(c.cookie, 'sub_local_unknown', { paymentMethodId: c.good });
      const theirSub = await pay(c.cookie, other.stripeId, { paymentMethodId: c.good });
      expect(unknownSub.statusCode).toBe(404);
      expect(theirSub.statusCode).toBe(404);
      expect(theirSub.body).toBe(unknownSub.body);

      const unknownCard = await pay(c.cookie, c.stripeId, { paymentMethodId: 'pm_unknown_card' });
      const theirCard = await pay(c.cookie, c.stripeId, { paymentMethodId: other.good });
      expect(unknownCard.statusCode).toBe(404);
      expect(theirCard.statusCode).toBe(404);
      expect(theirCard.body).toBe(unknownCard.body);
      expect(theirCard.json()).toMatchObject({ code: 'NOT_FOUND', message: 'The card was not found' });
    });
    expect((await subscriptionRow(t, other.stripeId)).status).toBe('past_due');
  });

  it.each([
    ['no body field', {}],
    ['an empty card id', { paymentMethodId: '' }],
    ['a card id that is not text', { paymentMethodId: 42 }],
    ['an unknown field', { paymentMethodId: 'pm_x', amount: 1 }],
  ])('answers 400 to %s and changes nothing', async (_what, body) => {
    const c = await failedRenewal(`pay-bad-${Math.random().toString(36).slice(2, 8)}@example.com`);
    await expectUnchanged(t, async () => {
      const res = await pay(c.cookie, c.stripeId, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    });
  });

  it('answers 409 for a subscription that never failed, and for one that ended unpaid', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'pay-paidup@example.com');
    const card = (await addCard(t, cookie)).json().paymentMethod;
    const sub = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription;
    await expectUnchanged(t, async () => {
      const res = await pay(cookie, sub.stripeId, { paymentMethodId: card.id });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This subscription has no failed payment: there is nothing to pay.');
    });

    const c = await failedRenewal('pay-ended@example.com');
    t.clock.set(at(GRACE_END));
    const fresh = await signIn(t, 'pay-ended@example.com');
    const res = await pay(fresh, c.stripeId, { paymentMethodId: c.good });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This subscription has ended: there is no invoice left to pay.');
    // The refusal changes nothing; the worker ends it for non-payment, as it would have anyway.
    await t.app.ctx.services.billing.runRenewals();
    expect((await subscriptionRow(t, c.stripeId)).status).toBe('canceled');
    expect((await pay(fresh, c.stripeId, { paymentMethodId: c.good })).statusCode).toBe(409);
  });
});
