import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingNotices, outbox, subscriptions } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { addCard, checkout, DAY, flushOutbox, signIn, subscriptionRow, userIdOf } from './billing-test-helpers';

const START = new Date('2025-01-31T10:00:00.000Z');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ BRAND_NAME: 'Acme' });
});
afterAll(() => t.close());

const mailsTo = (to: string, subject: RegExp) => t.mailer.messages.filter((m) => m.to === to && subject.test(m.subject));
const billing = () => t.app.ctx.services.billing;

/** Runs the worker's notice pass as the timer would, then delivers what it queued. */
async function runNotices() {
  await billing().runNotices();
  await flushOutbox(t);
}

async function yearlyCustomer(email: string, card: Record<string, unknown> = {}) {
  t.clock.set(START);
  const cookie = await signIn(t, email);
  expect((await addCard(t, cookie, '4242 4242 4242 4242', card)).statusCode).toBe(201);
  const res = await checkout(t, cookie, { interval: 'year', quantity: 2 });
  expect(res.statusCode).toBe(201);
  return { cookie, sub: res.json().subscription as { stripeId: string; currentPeriodEnd: string } };
}

describe('billing notices (local engine)', () => {
  it('tells a yearly customer about the renewal 7 days before, once', async () => {
    const { sub } = await yearlyCustomer('yearly@example.com');
    const renewal = new Date(sub.currentPeriodEnd);
    const upcoming = /^Your subscription renews on /;

    await runNotices();
    t.clock.set(new Date(renewal.getTime() - 8 * DAY));
    await runNotices();
    expect(mailsTo('yearly@example.com', upcoming)).toHaveLength(0);

    t.clock.set(new Date(renewal.getTime() - 7 * DAY + 60_000));
    await runNotices();
    await runNotices();
    t.clock.set(new Date(renewal.getTime() - 2 * DAY));
    await runNotices();
    const sent = mailsTo('yearly@example.com', upcoming);
    expect(sent.map((m) => m.subject)).toEqual(['Your subscription renews on January 31, 2026']);
    expect(sent[0]!.text).toContain('We will charge $500.00 to the card on file on that date.');
    expect(sent[0]!.html).toContain('2 × Node license (yearly)');
    // Its card is valid for years: no card notice.
    expect(mailsTo('yearly@example.com', /expires before/)).toHaveLength(0);
  });

  it('is run by the renewal worker on its timer', async () => {
    const { sub } = await yearlyCustomer('worker@example.com');
    t.clock.set(new Date(new Date(sub.currentPeriodEnd).getTime() - 3 * DAY));
    billing().startWorkers(25);
    try {
      // Waits for the signal (the queued notice), not for a time; the test timeout guards a hang.
      for (;;) {
        await flushOutbox(t);
        if (mailsTo('worker@example.com', /renews on/).length > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await billing().stopWorkers();
    }
    expect(mailsTo('worker@example.com', /renews on/)).toHaveLength(1);
  }, 60_000);

  it('does not send a renewal notice for a monthly or a cancelled subscription', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'monthly@example.com');
    await addCard(t, cookie);
    const monthly = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription;
    const { cookie: c2, sub: yearly } = await yearlyCustomer('cancels@example.com');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/billing/subscriptions/${yearly.stripeId}/`,
      headers: { cookie: c2 },
    });
    expect(del.statusCode).toBe(200);
    t.clock.set(new Date(new Date(monthly.currentPeriodEnd).getTime() - 3 * DAY));
    await runNotices();
    t.clock.set(new Date(new Date(yearly.currentPeriodEnd).getTime() - 3 * DAY));
    await runNotices();
    expect(mailsTo('monthly@example.com', /renews on/)).toHaveLength(0);
    expect(mailsTo('cancels@example.com', /renews on/)).toHaveLength(0);
  });

  it('warns once when the paying card expires before the next renewal', async () => {
    const { sub } = await yearlyCustomer('expiring@example.com', { expMonth: 6, expYear: 2025 });
    const renewal = new Date(sub.currentPeriodEnd);
    await runNotices();
    expect(mailsTo('expiring@example.com', /expires before/)).toHaveLength(0);
    t.clock.set(new Date(renewal.getTime() - 30 * DAY + 60_000));
    await runNotices();
    t.clock.set(new Date(renewal.getTime() - 10 * DAY));
    await runNotices();
    const sent = mailsTo('expiring@example.com', /expires before/);
    expect(sent.map((m) => m.subject)).toEqual(['Your card ending in 4242 expires before your next renewal']);
    expect(sent[0]!.text).toContain('expires at the end of 06/2025, before your renewal on January 31, 2026');
    expect(sent[0]!.text).toContain('Update your card: http://localhost:3000/app/billing');
  });

  it('sends the payment-failed notice once, with the link to update the card', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'declined@example.com');
    await addCard(t, cookie, '4000000000009995');
    // A card that declines: the first payment fails too, so start from a paid subscription and swap the card.
    const good = (await addCard(t, cookie)).json().paymentMethod;
    const sub = (await checkout(t, cookie, { interval: 'month', quantity: 1, paymentMethodId: good.id })).json().subscription;
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/billing/methods/${good.id}`, headers: { cookie } });
    expect(remove.statusCode).toBe(204);
    t.clock.set(new Date(sub.currentPeriodEnd));
    await billing().runRenewals();
    await billing().runRenewals();
    await runNotices();
    await flushOutbox(t);
    const failed = mailsTo('declined@example.com', /^Your payment for invoice INV-\d+ failed$/);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain('Update your card: http://localhost:3000/app/billing');
    expect(failed[0]!.html).toContain('href="http://localhost:3000/app/billing"');
    const row = await subscriptionRow(t, sub.stripeId);
    const recorded = await t.db.select().from(billingNotices).where(eq(billingNotices.subscriptionId, row.id));
    expect(recorded.map((r) => r.kind)).toEqual(['payment-failed']);
  });

  it('sends none of these for a subscription Stripe bills (Stripe e-mails its own customers)', async () => {
    t.clock.set(START);
    await signIn(t, 'stripe-billed@example.com');
    const userId = await userIdOf(t, 'stripe-billed@example.com');
    await t.db.insert(subscriptions).values({
      providerId: 'sub_notice_test',
      userId,
      provider: 'stripe',
      status: 'active',
      plan: 'Node license',
      quantity: 1,
      interval: 'year',
      unitAmount: 25000,
      currency: 'usd',
      currentPeriodStart: new Date(START.getTime() - 360 * DAY),
      currentPeriodEnd: new Date(START.getTime() + 3 * DAY),
    });
    expect(await billing().runNotices()).toBe(0);
    await flushOutbox(t);
    expect(mailsTo('stripe-billed@example.com', /renews|expires|failed/)).toHaveLength(0);
  });
});

describe('account deleted notice', () => {
  it('is e-mailed to the address once the account is deleted, and the address is not kept after sending', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'leaving@example.com');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(204);
    await flushOutbox(t);
    const sent = mailsTo('leaving@example.com', /deleted/);
    expect(sent.map((m) => m.subject)).toEqual(['Your Acme account has been deleted']);
    expect(sent[0]!.text).toContain('your Acme account was deleted on January 31, 2025');
    const rows = await t.db.select().from(outbox);
    expect(JSON.stringify(rows.map((r) => r.payload))).not.toContain('leaving@example.com');
  });

  it('is not sent when the deletion is refused', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'staying@example.com');
    t.clock.set(new Date(START.getTime() + 20 * 60_000));
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie },
    });
    expect(res.json().code).toBe('RECENT_SIGN_IN_REQUIRED');
    await flushOutbox(t);
    expect(mailsTo('staying@example.com', /deleted/)).toHaveLength(0);
  });
});
