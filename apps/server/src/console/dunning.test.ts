import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { paymentMethods, staffAudit, subscriptions } from '../db/schema/index';
import {
  addCard,
  checkout,
  flushOutbox,
  invoicesOf,
  licenseOf,
  signIn,
  subscriptionRow,
  subscriptionWithPoorCard,
  userIdOf,
} from '../modules/billing/billing-test-helpers';

/**
 * Issue 22, the console's part, on the built-in engine with the injected clock: a renewal declined
 * by the worker shows as a failing payment on the customer page, in the subscriptions list
 * (filtered by past due) and in the overview's MRR at risk; "Retry payment now" (owner and billing,
 * with a reason) charges the open invoice once, through the worker's own retry: paid, the
 * subscription is active again, the license back to the paid period, the customer gets a receipt
 * and the staff log keeps who, why and what came of it.
 */

const START = new Date('2025-01-31T10:00:00.000Z');
const FAILED = new Date('2025-02-28T10:00:00.000Z');
const GRACE_END = '2025-03-14T10:00:00.000Z';
const FIRST_RETRY = '2025-03-01T10:00:00.000Z';
const at = (iso: string) => new Date(iso);

let t: ConsoleTestApp;
let billing: string;
let support: string;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  const staff = await t.staffOfEachRole();
  billing = staff.billing;
  support = staff.support;
  owner = staff.owner;
});
afterAll(() => t?.close());

/** A monthly subscription of 2 nodes paid at START whose only card is then one that is declined; its renewal fails. */
async function failingSubscription(email: string) {
  const sub = await subscriptionWithPoorCard(t, email, START);
  t.clock.set(FAILED);
  expect(await t.app.ctx.services.billing.runRenewals()).toBe(1);
  await flushOutbox(t);
  expect((await subscriptionRow(t, sub.stripeId)).status).toBe('past_due');
  return { stripeId: sub.stripeId, userId: await userIdOf(t, email), unitAmount: sub.unitAmount };
}

/** The customer's bank sorted it out: every card of theirs pays again. */
async function cardsWorkAgain(userId: string) {
  await t.db
    .update(paymentMethods)
    .set({ behaviour: 'succeeds' })
    .where(sql`${paymentMethods.customerId} = (select provider_customer_id from customers where user_id = ${userId})`);
}

const get = async (url: string, cookie = billing) => {
  const res = await t.consoleApp.inject({ method: 'GET', url, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const retry = (stripeId: string, body: object, cookie = billing) =>
  t.consoleApp.inject({
    method: 'POST',
    url: `/api/console/subscriptions/${encodeURIComponent(stripeId)}/retry-payment`,
    headers: { cookie },
    payload: body,
  });
const retriesOf = (userId: string) =>
  t.db
    .select()
    .from(staffAudit)
    .where(sql`${staffAudit.userId} = ${userId} and ${staffAudit.action} = 'retryPayment'`);
const receipts = (email: string) => t.mailer.messages.filter((m) => m.to === email && /^Your receipt/.test(m.subject));

describe('a failing payment in the console', () => {
  it('shows the dunning state; a declined retry changes nothing but the log; a retry that pays restores the subscription', async () => {
    const email = 'console-dunning@example.com';
    const c = await failingSubscription(email);
    const [open] = (await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open');
    expect(open).toBeDefined();

    // The customer page: failing since the unpaid period began, access until the grace's end, the next retry, what is due.
    const page = await get(`/api/console/customers/${c.userId}`);
    expect(page.subscriptions[0]).toMatchObject({
      subscriptionId: c.stripeId,
      status: 'past_due',
      dunning: {
        failingSince: FAILED.toISOString(),
        accessUntil: GRACE_END,
        nextAttemptAt: FIRST_RETRY,
        amountDue: open!.amountDue,
        currency: 'usd',
      },
    });
    expect(open!.amountDue).toBe(2 * c.unitAmount);

    // The list filtered by "payment failing" has it, with its next retry and end of access.
    const list = await get(`/api/console/subscriptions?status=past_due&q=${encodeURIComponent(email)}`);
    expect(list.items).toEqual([
      expect.objectContaining({ subscriptionId: c.stripeId, nextAttemptAt: FIRST_RETRY, accessUntil: GRACE_END }),
    ]);
    // Its CSV too: the next retry and the end of access as the last columns.
    const csv = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/subscriptions?status=past_due&format=csv&q=${encodeURIComponent(email)}`,
      headers: { cookie: billing },
    });
    const [header, line] = csv.body.trim().split('\r\n');
    expect(header!.endsWith(',nextAttemptAt,accessUntil')).toBe(true);
    expect(line!.endsWith(`,${FIRST_RETRY},${GRACE_END}`)).toBe(true);
    const active = await get('/api/console/subscriptions?status=active');
    for (const row of active.items) expect(row).toMatchObject({ nextAttemptAt: null, accessUntil: null });

    // The overview: its MRR is at risk, beside the failed payments.
    const risky = await get('/api/console/overview');
    expect(risky.subscriptionsAtRisk).toBe(1);
    expect(risky.mrrAtRisk).toBe(2 * c.unitAmount);
    expect(risky.failedPayments).toBeGreaterThanOrEqual(1);

    // Support may not; bad input and unknown subscriptions change nothing.
    expect((await retry(c.stripeId, { reason: 'Customer asked' }, support)).statusCode).toBe(403);
    const noReason = await retry(c.stripeId, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Say why you are doing this');
    expect((await retry(c.stripeId, { reason: 'ok', extra: 1 })).statusCode).toBe(400);
    const unknown = await retry('sub_local_unknown', { reason: 'Customer asked' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('The subscription was not found');
    expect(await retriesOf(c.userId)).toHaveLength(0);

    // Declined again: 402 with a clear message; still past due, the schedule's next retry stands; the attempt is logged.
    t.clock.set(at('2025-02-28T18:00:00.000Z'));
    const declined = await retry(c.stripeId, { reason: 'Customer says the card is topped up, ticket 7001' });
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json()).toMatchObject({
      code: 'CARD_DECLINED',
      message: 'The card on file was declined again; the subscription stays past due and the next retry stays on 2025-03-01.',
    });
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'past_due', nextPaymentAttemptAt: at(FIRST_RETRY) });
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(at(GRACE_END));
    expect((await retriesOf(c.userId)).map((r) => [r.reason, r.data])).toEqual([
      ['Customer says the card is topped up, ticket 7001', { outcome: 'declined' }],
    ]);

    // Paid: active again at once, the license back to the paid period, a receipt, the activity says so.
    await cardsWorkAgain(c.userId);
    t.clock.set(at('2025-02-28T19:00:00.000Z'));
    const paid = await retry(c.stripeId, { reason: 'Card replaced, ticket 7002' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(open!.amountDue).toBe(5000);
    expect(paid.json().message).toBe('Paid $50.00: the subscription is active again until 2025-03-31');
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'active', nextPaymentAttemptAt: null });
    expect((await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open')).toHaveLength(0);
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(at('2025-03-31T10:00:00.000Z'));
    await flushOutbox(t);
    expect(receipts(email).map((m) => m.subject)).toContain(`Your receipt for invoice ${open!.number}`);
    const after = await get(`/api/console/customers/${c.userId}`);
    expect(after.subscriptions[0]).toMatchObject({ status: 'active', dunning: null });
    // Entries of one moment (the renewal and its license's change) come in any order.
    const renewed = (after.activity as Array<{ action: string; summary: string; byStaff: boolean }>).filter(
      (a) => a.action === 'subscription_renewed' && a.byStaff,
    );
    expect(renewed).toHaveLength(1);
    // The badge says staff did it; the summary does not say it again.
    expect(renewed[0]!.summary).toMatch(/^Paid the open invoice of .*; renewed until [^()]*$/);
    expect((await retriesOf(c.userId)).map((r) => r.reason)).toContain('Card replaced, ticket 7002');
    const audit = await get(`/api/console/audit?userId=${c.userId}`, owner);
    expect(audit.items[0]).toMatchObject({
      action: 'retryPayment',
      reason: 'Card replaced, ticket 7002',
      subject: c.stripeId,
      data: { outcome: 'paid', invoices: [open!.number], amount: open!.amountDue },
    });

    // Nothing at risk any more; a second retry has nothing to do.
    expect(await get('/api/console/overview')).toMatchObject({ subscriptionsAtRisk: 0, mrrAtRisk: 0 });
    const again = await retry(c.stripeId, { reason: 'Once more' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This subscription's payment is not failing (it is paid up): there is nothing to retry");
    // The worker has nothing to retry either.
    t.clock.set(at(FIRST_RETRY));
    expect(await t.app.ctx.services.billing.runRenewals()).toBe(0);
  });

  it('charges once when two staff retry at the same moment, or a retry meets the worker', async () => {
    const email = 'console-dunning-race@example.com';
    const c = await failingSubscription(email);
    await cardsWorkAgain(c.userId);
    const [open] = (await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open');
    const answers = await Promise.all([
      retry(c.stripeId, { reason: 'First, ticket 7003' }),
      retry(c.stripeId, { reason: 'Second, ticket 7003' }, owner),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    await flushOutbox(t);
    expect(receipts(email).filter((m) => m.subject.includes(open!.number))).toHaveLength(1);
    expect((await invoicesOf(t, c.stripeId)).filter((i) => i.id === open!.id && i.status === 'paid')).toHaveLength(1);
    expect(await retriesOf(c.userId)).toHaveLength(1);

    // A retry and the worker's scheduled retry at the same moment: one of them charges.
    const other = 'console-dunning-worker@example.com';
    const d = await failingSubscription(other);
    await cardsWorkAgain(d.userId);
    t.clock.set(at(FIRST_RETRY));
    const [staffAnswer] = await Promise.all([
      retry(d.stripeId, { reason: 'Race the worker' }),
      t.app.ctx.services.billing.runRenewals(),
    ]);
    expect([200, 409]).toContain(staffAnswer.statusCode);
    await flushOutbox(t);
    expect(receipts(other).filter((m) => /^Your receipt/.test(m.subject))).toHaveLength(2); // the first period's and the renewal's
    expect((await subscriptionRow(t, d.stripeId)).status).toBe('active');
    expect(await retriesOf(d.userId)).toHaveLength(staffAnswer.statusCode === 200 ? 1 : 0);
  });

  it('answers 409 for a subscription whose payment is not failing, and keeps the dunning state off it', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'console-dunning-fine@example.com');
    await addCard(t, cookie);
    const sub = (await checkout(t, cookie, { interval: 'year', quantity: 1 })).json().subscription;
    const res = await retry(sub.stripeId as string, { reason: 'Customer asked' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CONFLICT');
    const userId = await userIdOf(t, 'console-dunning-fine@example.com');
    expect((await get(`/api/console/customers/${userId}`)).subscriptions[0].dunning).toBeNull();
    expect(await retriesOf(userId)).toHaveLength(0);
  });

  it('answers 409 for a Stripe subscription (Stripe retries its own), charging nothing', async () => {
    t.clock.set(START);
    const email = 'console-dunning-stripe@example.com';
    const cookie = await signIn(t, email);
    await addCard(t, cookie);
    const sub = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription;
    // A subscription Stripe holds (from before the vendor left Stripe, or reported by its webhooks), past due.
    await t.db
      .update(subscriptions)
      .set({ provider: 'stripe', status: 'past_due' })
      .where(eq(subscriptions.providerId, sub.stripeId as string));
    const before = await invoicesOf(t, sub.stripeId as string);
    const res = await retry(sub.stripeId as string, { reason: 'Customer asked' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^Stripe retries this subscription's payment on its own schedule/);
    expect(await invoicesOf(t, sub.stripeId as string)).toEqual(before);
    expect(await retriesOf(await userIdOf(t, email))).toHaveLength(0);
  });
});
