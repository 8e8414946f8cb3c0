import { hasAccess } from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../../test/console-helpers';
import { licenses, paymentMethods, subscriptions } from '../../db/schema/index';
import { addCard, auditActions, checkout, DAY, flushOutbox, signIn, subscriptionRow, userIdOf } from './billing-test-helpers';
import { accessUntil, graceEnd } from './transition';

/**
 * The one rule of issue 22: a subscription's license is only ever what the transition derives from
 * the subscription (ADR 049), whatever changed it. Every use case that changes a subscription is
 * exercised in turn on the built-in engine (checkout, quantity, cancel, re-activate, renewal, a
 * failed renewal, a failed retry, a new card, staff "retry now", paying the open invoice with a
 * card on file, an interval switch, staff "cancel now", account deletion, a grace that runs out),
 * and after each the license must equal the derivation: valid until the paid period's end (or the
 * grace's end while the payment fails, with the grace recorded), sized to the quantity, expired
 * once the subscription has ended. A use case that changed a license by hand, or forgot to, fails.
 */

const GRACE_DAYS = 14; // PAYMENT_GRACE_DAYS's default, which the test app runs with
const START = new Date('2025-01-31T10:00:00.000Z');

let t: ConsoleTestApp;
let billingStaff: string;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  ({ billing: billingStaff, owner } = await t.staffOfEachRole());
});
afterAll(() => t?.close());

async function licenseRow(stripeId: string) {
  const [row] = await t.db
    .select({ license: licenses })
    .from(licenses)
    .innerJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
    .where(eq(subscriptions.providerId, stripeId));
  return row!.license;
}

/** The license equals what the transition derives from the subscription, now. */
async function expectLicenseFollows(stripeId: string, step: string) {
  const sub = await subscriptionRow(t, stripeId);
  const license = await licenseRow(stripeId);
  if (hasAccess(sub)) {
    expect(license.expiresAt, `${step}: expiry`).toEqual(accessUntil(sub, GRACE_DAYS));
    expect(license.maxNodes, `${step}: size`).toBe(sub.quantity);
    expect(license.graceUntil, `${step}: grace`).toEqual(sub.status === 'past_due' ? graceEnd(sub, GRACE_DAYS) : null);
  } else {
    expect(sub.status, step).toBe('canceled');
    expect(license.expiresAt.getTime(), `${step}: expired`).toBeLessThanOrEqual(t.clock.now().getTime());
  }
  return sub;
}

const api = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const staffAct = (url: string, cookie: string) =>
  t.consoleApp.inject({ method: 'POST', url, headers: { cookie }, payload: { reason: 'Asked by the customer' } });

async function runRenewals(at: Date) {
  t.clock.set(at);
  const n = await t.app.ctx.services.billing.runRenewals();
  await flushOutbox(t);
  return n;
}

/** Every card of the customer fails from now on (the only one left is a card without funds). */
async function onlyPoorCard(cookie: string) {
  const cards = (await t.app.inject({ method: 'GET', url: '/api/billing/methods', headers: { cookie } })).json().items as {
    id: string;
  }[];
  const poor = await addCard(t, cookie, '4000 0000 0000 9995');
  expect(poor.statusCode).toBe(201);
  for (const c of cards) expect((await api('DELETE', `/api/billing/methods/${c.id}`, cookie)).statusCode).toBe(204);
  return poor.json().paymentMethod.id as string;
}

describe('the license follows its subscription through every use case', () => {
  it('on the built-in engine, from checkout to the end', async () => {
    const email = 'follows@example.com';
    t.clock.set(START);
    let cookie = await signIn(t, email);
    expect((await addCard(t, cookie)).statusCode).toBe(201);
    const bought = await checkout(t, cookie, { interval: 'month', quantity: 2 });
    expect(bought.statusCode).toBe(201);
    const id: string = bought.json().subscription.stripeId;
    const url = `/api/billing/subscriptions/${id}`;
    await expectLicenseFollows(id, 'checkout');

    expect((await api('PUT', `${url}/quantity`, cookie, { quantity: 4 })).statusCode).toBe(200);
    await expectLicenseFollows(id, 'quantity');
    expect((await api('DELETE', url, cookie)).statusCode).toBe(200);
    await expectLicenseFollows(id, 'cancel at period end');
    expect((await api('POST', `${url}/reactivate`, cookie)).statusCode).toBe(200);
    await expectLicenseFollows(id, 're-activate');

    // A renewal that pays.
    let sub = await subscriptionRow(t, id);
    expect(await runRenewals(sub.currentPeriodEnd)).toBe(1);
    sub = await expectLicenseFollows(id, 'renewal');
    expect(sub.status).toBe('active');

    // A renewal that fails, then a retry that fails: in grace all along.
    cookie = await signIn(t, email);
    await onlyPoorCard(cookie);
    expect(await runRenewals(sub.currentPeriodEnd)).toBe(1);
    sub = await expectLicenseFollows(id, 'failed renewal');
    expect(sub.status).toBe('past_due');
    expect(await runRenewals(sub.nextPaymentAttemptAt!)).toBe(1);
    sub = await expectLicenseFollows(id, 'failed retry');
    expect(sub.status).toBe('past_due');

    // A new card pays the open invoice at once.
    cookie = await signIn(t, email);
    expect((await addCard(t, cookie, '5555 5555 5555 4444')).statusCode).toBe(201);
    sub = await expectLicenseFollows(id, 'new card');
    expect(sub.status).toBe('active');

    // The next renewal fails again; the vendor's staff retry it, in vain, then once the card works again.
    const poor = await onlyPoorCard(cookie);
    expect(await runRenewals(sub.currentPeriodEnd)).toBe(1);
    expect((await expectLicenseFollows(id, 'failed renewal (2)')).status).toBe('past_due');
    const declined = await staffAct(`/api/console/subscriptions/${id}/retry-payment`, billingStaff);
    expect(declined.statusCode, declined.body).toBe(402);
    sub = await expectLicenseFollows(id, 'declined retry now');
    expect(sub.status).toBe('past_due');
    cookie = await signIn(t, email);
    // A new card that is declined too: kept, the invoice stays open, the grace stands.
    expect((await addCard(t, cookie, '4000 0000 0000 0341')).statusCode).toBe(201);
    sub = await expectLicenseFollows(id, 'declined new card');
    expect(sub.status).toBe('past_due');
    await cardsBehave(email, 'succeeds'); // the customer's bank sorted it out
    expect((await staffAct(`/api/console/subscriptions/${id}/retry-payment`, billingStaff)).statusCode).toBe(200);
    sub = await expectLicenseFollows(id, 'retry now');
    expect(sub.status).toBe('active');

    // The next renewal fails on the subscription's card; the customer pays with another card on file.
    await cardsBehave(email, 'declined');
    const added = await addCard(t, cookie); // nothing is owed: it pays nothing
    expect(added.statusCode).toBe(201);
    await t.db.update(subscriptions).set({ paymentMethodId: poor }).where(eq(subscriptions.providerId, id));
    expect(await runRenewals(sub.currentPeriodEnd)).toBe(1);
    sub = await expectLicenseFollows(id, 'failed renewal (3)');
    expect(sub.status).toBe('past_due');
    cookie = await signIn(t, email);
    const paid = await api('POST', `${url}/pay`, cookie, { paymentMethodId: added.json().paymentMethod.id });
    expect(paid.statusCode, paid.body).toBe(200);
    sub = await expectLicenseFollows(id, 'pay with a card on file');
    expect(sub.status).toBe('active');

    expect((await api('PATCH', url, cookie, { interval: 'year' })).statusCode).toBe(200);
    await expectLicenseFollows(id, 'interval');

    t.clock.set(new Date(t.clock.now().getTime() + 3 * DAY));
    owner = await t.signInStaff('owner@vendor.example');
    expect((await staffAct(`/api/console/subscriptions/${id}/cancel-now`, owner)).statusCode).toBe(200);
    sub = await expectLicenseFollows(id, 'cancel now');
    expect(sub).toMatchObject({ status: 'canceled', endedReason: 'ended_now' });

    const actions = await auditActions(t, await userIdOf(t, email));
    expect(actions.filter((a) => a === 'subscription_payment_failed')).toHaveLength(3);
    expect(actions.filter((a) => a === 'subscription_renewed').length).toBeGreaterThanOrEqual(4);
    expect(actions.filter((a) => a === 'subscription_ended')).toHaveLength(1);
  });

  it('when the grace runs out unpaid, and when the account is deleted', async () => {
    t.clock.set(START);
    const email = 'follows-unpaid@example.com';
    let cookie = await signIn(t, email);
    expect((await addCard(t, cookie)).statusCode).toBe(201);
    const a: string = (await checkout(t, cookie, { interval: 'month', quantity: 1 })).json().subscription.stripeId;
    const b: string = (await checkout(t, cookie, { interval: 'year', quantity: 3 })).json().subscription.stripeId;
    await onlyPoorCard(cookie);
    let sub = await subscriptionRow(t, a);
    expect(await runRenewals(sub.currentPeriodEnd)).toBe(1);
    sub = await expectLicenseFollows(a, 'failed renewal');
    expect(await runRenewals(graceEnd(sub, GRACE_DAYS))).toBe(1);
    sub = await expectLicenseFollows(a, 'grace ran out');
    expect(sub).toMatchObject({ status: 'canceled', endedReason: 'unpaid' });
    await expectLicenseFollows(b, 'the yearly one, untouched');

    cookie = await signIn(t, email);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await expectLicenseFollows(b, 'account deleted')).toMatchObject({
      status: 'canceled',
      endedReason: 'account_deleted',
    });
  });
});

/** The customer's test cards at the built-in engine answer as `behaviour` from now on, as a bank's answer changes. */
async function cardsBehave(email: string, behaviour: 'succeeds' | 'declined') {
  const userId = await userIdOf(t, email);
  await t.db
    .update(paymentMethods)
    .set({ behaviour })
    .where(sql`${paymentMethods.customerId} = (select provider_customer_id from customers where user_id = ${userId})`);
}
