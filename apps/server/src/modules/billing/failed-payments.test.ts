import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import {
  addCard,
  auditActions,
  flushOutbox,
  invoicesOf,
  licenseOf,
  signIn,
  subscriptionRow,
  subscriptionWithPoorCard,
  userIdOf,
} from './billing-test-helpers';

/**
 * Issue 22 on the built-in engine, with the injected clock: a renewal whose card is declined keeps
 * the customer's machines running through the grace (PAYMENT_GRACE_DAYS, 14), is retried on the
 * schedule (PAYMENT_RETRY_DAYS, 1,3,5,7 days after the failure) and only then, is paid at once by
 * a new card, and ends for non-payment when the grace runs out. Before, the license kept its old
 * expiry: at the first declined renewal every node's validation answered EXPIRED.
 */

const START = new Date('2025-01-31T10:00:00.000Z');
const FAILED = new Date('2025-02-28T10:00:00.000Z');
const GRACE_END = new Date('2025-03-14T10:00:00.000Z');
const at = (iso: string) => new Date(iso);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

/** A monthly subscription paid at START whose only card is then one that is declined; a node is active. */
async function subscriptionWithNode(email: string) {
  const { cookie, stripeId, licenseKey: key } = await subscriptionWithPoorCard(t, email, START);
  const node = await t.app.inject({
    method: 'POST',
    url: `/api/licenses/${key}/activate`,
    payload: { fingerprint: `fp-${email}`, hostname: 'pve-01' },
  });
  expect(node.statusCode).toBe(201);
  return { cookie, stripeId, key, fingerprint: `fp-${email}` };
}

async function validate(key: string, fingerprint: string) {
  const res = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { fingerprint } });
  return res.json() as { valid: boolean; code: string; license?: { expiresAt: string; grace?: { until: string } } };
}

/** Runs the renewal worker once at `when`: how many subscriptions it charged, retried or ended. */
async function worker(when: Date) {
  t.clock.set(when);
  const n = await t.app.ctx.services.billing.runRenewals();
  await flushOutbox(t);
  return n;
}

/** Runs the billing notices once at `when`. */
async function notices(when: Date) {
  t.clock.set(when);
  await t.app.ctx.services.billing.runNotices();
  await flushOutbox(t);
}

const mails = (email: string, subject: RegExp) => t.mailer.messages.filter((m) => m.to === email && subject.test(m.subject));

describe('a declined renewal', () => {
  it('keeps the nodes running through the grace, retries on the schedule only, and a new card restores the paid period', async () => {
    const email = 'grace@example.com';
    const c = await subscriptionWithNode(email);

    expect(await worker(FAILED)).toBe(1);
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({
      status: 'past_due',
      nextPaymentAttemptAt: at('2025-03-01T10:00:00.000Z'),
    });
    // The machines keep running, and the answer says until when.
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(GRACE_END);
    expect(await validate(c.key, c.fingerprint)).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { expiresAt: GRACE_END.toISOString() },
    });
    // The e-mail names the real end of access: the grace's end.
    const failed = mails(email, /failed/);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain('March 14, 2025');

    // Retries on the schedule, and only then: nothing before the first, one at each.
    expect(await worker(at('2025-03-01T09:59:59.000Z'))).toBe(0);
    expect(await worker(at('2025-03-01T10:00:00.000Z'))).toBe(1);
    expect((await subscriptionRow(t, c.stripeId)).nextPaymentAttemptAt).toEqual(at('2025-03-03T10:00:00.000Z'));
    expect(await worker(at('2025-03-01T10:00:00.000Z'))).toBe(0);
    expect(await worker(at('2025-03-02T10:00:00.000Z'))).toBe(0);
    expect(await worker(at('2025-03-03T10:00:00.000Z'))).toBe(1);
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({
      status: 'past_due',
      nextPaymentAttemptAt: at('2025-03-05T10:00:00.000Z'),
    });
    expect((await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open')).toHaveLength(1);
    expect(await validate(c.key, c.fingerprint)).toMatchObject({ valid: true, code: 'VALID' });

    // A working card pays the open invoice at once: the license is back to the paid period.
    t.clock.set(at('2025-03-04T12:00:00.000Z'));
    const cookie = await signIn(t, email); // a month on, the first session has gone idle
    expect((await addCard(t, cookie)).statusCode).toBe(201);
    await flushOutbox(t);
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({ status: 'active', nextPaymentAttemptAt: null });
    expect((await invoicesOf(t, c.stripeId)).filter((i) => i.status === 'open')).toHaveLength(0);
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(at('2025-03-31T10:00:00.000Z'));
    expect(await validate(c.key, c.fingerprint)).toMatchObject({
      valid: true,
      license: { expiresAt: '2025-03-31T10:00:00.000Z' },
    });
    expect(mails(email, /receipt|paid|Payment received/i).length).toBeGreaterThanOrEqual(2);
    const actions = await auditActions(t, await userIdOf(t, email));
    expect(actions.filter((a) => a === 'subscription_payment_failed')).toHaveLength(1);
    expect(actions.at(-1) === 'subscription_renewed' || actions.includes('subscription_renewed')).toBe(true);
    // Nothing more to retry.
    expect(await worker(at('2025-03-05T10:00:00.000Z'))).toBe(0);
  });

  it('ends for non-payment when the grace runs out: the license expires, the customer is told once of each', async () => {
    const email = 'unpaid-grace@example.com';
    const c = await subscriptionWithNode(email);
    expect(await worker(FAILED)).toBe(1);
    for (const retry of ['2025-03-01', '2025-03-03', '2025-03-05', '2025-03-07']) {
      expect(await worker(at(`${retry}T10:00:00.000Z`)), retry).toBe(1);
    }
    // The schedule is done; nothing is due until the grace ends.
    expect((await subscriptionRow(t, c.stripeId)).nextPaymentAttemptAt).toBeNull();
    expect(await worker(at('2025-03-10T10:00:00.000Z'))).toBe(0);
    expect(await validate(c.key, c.fingerprint)).toMatchObject({ valid: true, code: 'VALID' });

    // Three days before the grace ends, one reminder with the date the license ends.
    const reminders = () => mails(email, /unless invoice/);
    await notices(at('2025-03-10T10:00:00.000Z'));
    expect(reminders()).toHaveLength(0);
    await notices(at('2025-03-11T10:00:00.000Z'));
    await notices(at('2025-03-12T10:00:00.000Z'));
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.subject).toMatch(/^Your license ends on March 14, 2025 unless invoice /);

    expect(await worker(GRACE_END)).toBe(1);
    // Ended for non-payment, in the record and in what the customer's billing page reads.
    expect(await subscriptionRow(t, c.stripeId)).toMatchObject({
      status: 'canceled',
      endedReason: 'unpaid',
      nextPaymentAttemptAt: null,
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions',
      headers: { cookie: await signIn(t, email) },
    });
    expect(listed.json().items.find((s: { stripeId: string }) => s.stripeId === c.stripeId)).toMatchObject({
      status: 'canceled',
      endedReason: 'unpaid',
    });
    expect((await licenseOf(t, c.stripeId))!.expiresAt).toEqual(GRACE_END);
    t.clock.set(at('2025-03-14T10:00:01.000Z'));
    expect(await validate(c.key, c.fingerprint)).toMatchObject({ valid: false, code: 'EXPIRED' });
    expect(await worker(at('2025-03-20T10:00:00.000Z'))).toBe(0);

    expect(mails(email, /failed/)).toHaveLength(1);
    expect(mails(email, /ended/i)).toHaveLength(1);
    const actions = await auditActions(t, await userIdOf(t, email));
    expect(actions.filter((a) => a === 'subscription_ended')).toHaveLength(1);
  });
});
