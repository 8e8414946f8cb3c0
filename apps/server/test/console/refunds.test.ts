import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '@portal/contract';
import { buildConsoleApp } from '../../src/console/console-app';
import { CLI_ACTOR } from '../../src/console/staff.service';
import { invoiceRefunds } from '../../src/db/schema/index';
import { AppError } from '../../src/lib/errors';
import { createStripeClient } from '../../src/providers/billing/stripe/stripe-client';
import { createStripeRefunds } from '../../src/providers/billing/stripe/stripe-refunds';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { changedTables, dbStateReader, settle } from '../fuzz/db-state';
import type { TestApp } from '../helpers';
import { buildStripeTestApp, type StripeTestApp } from '../stripe-test-app';
import { consoleFixtures, idOf, type ConsoleFixtures } from './fixtures';

/**
 * Refunds from the console (POST /api/console/invoices/{invoiceId}/refund) on both gateways: the
 * local engine's refund rows and Stripe's POST /v1/refunds against the invoice's payment intent.
 */

type Invoice = { id: string; number: string; status: string; amountPaid: number };

const reason = 'Customer asked on ticket #4711';

async function invoicesOf(app: TestApp['app'], cookie: string, stripeId: string): Promise<Invoice[]> {
  const res = await app.inject({ method: 'GET', url: `/api/billing/subscriptions/${stripeId}/invoices`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Invoice[];
}

async function activity(app: TestApp['app'], cookie: string): Promise<string[]> {
  const res = await app.inject({ method: 'GET', url: '/api/users/activity?size=100', headers: { cookie } });
  return (res.json().items as Array<{ summary: string }>).map((i) => i.summary);
}

describe('local engine', () => {
  let t: ConsoleTestApp;
  let fx: ConsoleFixtures;
  let billing: string;
  let reader: Awaited<ReturnType<typeof dbStateReader>>;

  beforeAll(async () => {
    t = await buildConsoleTestApp();
    await t.addStaff('money@vendor.example', 'billing');
    billing = await t.signInStaff('money@vendor.example');
    fx = await consoleFixtures(t);
    reader = await dbStateReader(t);
  });
  afterAll(() => t?.close());

  const refund = async (invoiceId: string, body: Record<string, unknown>) => {
    const res = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${encodeURIComponent(invoiceId)}/refund`,
      headers: { cookie: billing },
      payload: body,
    });
    await settle(t);
    return res;
  };
  /** The status the console's invoices list gives the invoice numbered `number`. */
  const consoleListStatus = async (number: string) => {
    const res = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/invoices?q=${encodeURIComponent(number)}`,
      headers: { cookie: billing },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as Array<{ number: string; status: string }>).find((i) => i.number === number)?.status;
  };
  async function unchanged(fn: () => Promise<void>) {
    await settle(t);
    const before = await reader.read();
    await fn();
    await settle(t);
    expect(changedTables(before, await reader.read())).toEqual([]);
  }

  it('refunds in parts up to what was paid: the customer sees it, the staff log keeps who and why', async () => {
    const sub = await fx.subscription();
    const [inv] = await invoicesOf(t.app, fx.a.cookie, sub);
    expect(inv).toMatchObject({ status: 'paid', amountPaid: 2500 });

    const first = await refund(inv!.id, { reason, amount: 1000 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(`Refunded $10.00 of invoice ${inv!.number}; $15.00 of it can still be refunded`);
    expect((await invoicesOf(t.app, fx.a.cookie, sub))[0]).toMatchObject({ status: 'partially_refunded', amountPaid: 2500 });
    expect(await consoleListStatus(inv!.number)).toBe('partially_refunded');

    // More than is left: refused with what is left, and nothing is written.
    await unchanged(async () => {
      const over = await refund(inv!.id, { reason, amount: 1501 });
      expect(over.statusCode, over.body).toBe(409);
      expect(over.json().message).toBe(
        `At most $15.00 of invoice ${inv!.number} can be refunded: $25.00 was paid and $10.00 has been refunded or credited already`,
      );
    });

    // Without an amount: all that is left.
    const rest = await refund(inv!.id, { reason: 'Goodwill' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().message).toBe(`Refunded $15.00 of invoice ${inv!.number}`);
    expect((await invoicesOf(t.app, fx.a.cookie, sub))[0]).toMatchObject({ status: 'refunded', amountPaid: 2500 });
    expect(await consoleListStatus(inv!.number)).toBe('refunded');

    await unchanged(async () => {
      const again = await refund(inv!.id, { reason, amount: 1 });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(`Invoice ${inv!.number} has already been refunded or credited in full`);
    });

    const rows = await t.db.select().from(invoiceRefunds).where(eq(invoiceRefunds.invoiceId, inv!.id));
    expect(rows.map((r) => r.amount).sort()).toEqual([1000, 1500]);

    const log = await activity(t.app, fx.a.cookie);
    expect(log).toContain(`Refunded $10.00 of invoice ${inv!.number} (by the vendor's staff)`);
    expect(log).toContain(`Refunded $15.00 of invoice ${inv!.number} (all that was left of it) (by the vendor's staff)`);
    expect(log.join('\n')).not.toContain('money@vendor.example');

    const audit = await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit?size=100', headers: { cookie: billing } });
    expect(audit.json().items).toContainEqual(
      expect.objectContaining({
        action: 'refundInvoice',
        reason: 'Goodwill',
        staffEmail: 'money@vendor.example',
        subject: inv!.id,
      }),
    );
  });

  it("credits part of an invoice to the customer's balance: the next charge is that much less, refunds count it", async () => {
    const sub = await fx.subscription();
    const [inv] = await invoicesOf(t.app, fx.a.cookie, sub);
    const res = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${inv!.id}/credit`,
      headers: { cookie: billing },
      payload: { reason: 'Outage on the 3rd', amount: 500 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Credited $5.00 of invoice ${inv!.number} to the customer's balance`);
    expect(await activity(t.app, fx.a.cookie)).toContain(
      `Credited $5.00 of invoice ${inv!.number} to the account; it is taken off the next payments (by the vendor's staff)`,
    );

    // What was credited cannot also be refunded.
    await unchanged(async () => {
      const over = await refund(inv!.id, { reason, amount: 2001 });
      expect(over.statusCode).toBe(409);
      expect(over.json().message).toBe(
        `At most $20.00 of invoice ${inv!.number} can be refunded: $25.00 was paid and $5.00 has been refunded or credited already`,
      );
    });

    // The next subscription's first payment is $5.00 less.
    const next = await fx.subscription();
    expect((await invoicesOf(t.app, fx.a.cookie, next))[0]).toMatchObject({ amountDue: 2000, amountPaid: 2000 });
  });

  it("takes refunds (not credits) off the month's revenue on the overview", async () => {
    const overview = async (): Promise<Overview> =>
      (await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: { cookie: billing } })).json();
    const invoiceId = await fx.paidInvoice();
    const before = (await overview()).months.at(-1)!.revenue;
    expect((await refund(invoiceId, { reason, amount: 700 })).statusCode).toBe(200);
    const credited = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${invoiceId}/credit`,
      headers: { cookie: billing },
      payload: { reason, amount: 300 },
    });
    expect(credited.statusCode).toBe(200);
    expect((await overview()).months.at(-1)!.revenue).toBe(before - 700);
  });

  it('bad amounts are 400 and change nothing', async () => {
    const invoiceId = await fx.paidInvoice();
    for (const body of [
      { reason, amount: 0 },
      { reason, amount: -100 },
      { reason, amount: 12.5 },
      { reason, amount: '1000' },
      { reason: '', amount: 100 },
      { amount: 100 },
      { reason, amount: 100, currency: 'eur' },
    ]) {
      await unchanged(async () => {
        const res = await refund(invoiceId, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBeTruthy();
      });
    }
  });

  it('an invoice that is nobody’s (unknown, or a deleted customer’s kept for the books) is 404', async () => {
    await unchanged(async () => {
      expect((await refund('00000000-0000-4000-8000-000000000000', { reason })).statusCode).toBe(404);
      expect((await refund('in_NoSuchInvoice', { reason })).statusCode).toBe(404);
    });

    const email = `leaving-${Date.now()}@example.com`;
    const leaver = await t.signIn(email);
    const cardRes = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie: leaver } });
    const { clientSecret } = cardRes.json();
    await t.app.inject({
      method: 'POST',
      url: '/api/billing/local/confirm-setup',
      headers: { cookie: leaver },
      payload: {
        clientSecret,
        number: '4242424242424242',
        expMonth: 12,
        expYear: t.clock.now().getUTCFullYear() + 3,
        cvc: '123',
      },
    });
    t.clock.advance(11_000);
    const sub = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie: leaver },
      payload: { interval: 'month', quantity: 1 },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const [inv] = await invoicesOf(t.app, leaver, sub.json().subscription.stripeId);
    const userId = await idOf(t, email);
    await t.app.ctx.services.account.deleteByStaff(userId);
    await unchanged(async () => {
      const res = await refund(inv!.id, { reason });
      expect(res.statusCode, res.body).toBe(404);
    });
  });

  it('support staff may not refund (403) and the invoice is untouched', async () => {
    await t.addStaff('helper@vendor.example', 'support');
    const support = await t.signInStaff('helper@vendor.example');
    const invoiceId = await fx.paidInvoice();
    await unchanged(async () => {
      const res = await t.consoleApp.inject({
        method: 'POST',
        url: `/api/console/invoices/${invoiceId}/refund`,
        headers: { cookie: support },
        payload: { reason },
      });
      expect(res.statusCode).toBe(403);
    });
  });
});

describe('Stripe', () => {
  let stripe: StripeTestApp;
  let consoleApp: Awaited<ReturnType<typeof buildConsoleApp>>;
  let owner: string;
  let cookie: string;

  beforeAll(async () => {
    stripe = await buildStripeTestApp(
      {
        secretKey: 'sk_test_refunds',
        publishableKey: 'pk_test_refunds',
        webhookSecret: 'whsec_test_refunds',
      },
      undefined,
      { CONSOLE_REQUIRE_SECOND_FACTOR: 'none' },
    );
    const { t } = stripe;
    consoleApp = await buildConsoleApp(t.config, {
      services: t.app.ctx.services,
      limitLinkAddress: t.app.ctx.limitLinkAddress,
      db: t.db,
      clock: t.clock,
      logger: false,
      serveWeb: false,
    });
    await consoleApp.ready();
    await consoleApp.consoleCtx.staff.add('boss@vendor.example', 'owner', CLI_ACTOR, 'Test set-up');
    await consoleApp.inject({ method: 'POST', url: '/api/console/auth/link', payload: { email: 'boss@vendor.example' } });
    await t.app.ctx.services.outbox.kick();
    await t.app.ctx.services.outbox.drain();
    const mail = [...t.mailer.messages].reverse().find((m) => m.to === 'boss@vendor.example');
    const secret = mail?.text.match(/login\?link=([A-Za-z0-9_-]{43})/)?.[1];
    const signedIn = await consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    owner = `portal_console_session=${signedIn.cookies.find((c) => c.name === 'portal_console_session')!.value}`;
    cookie = await t.signIn('stripe-refunds@example.com');
  });
  afterAll(async () => {
    await consoleApp?.close();
    await stripe?.close();
  });

  /** A card through Stripe.js and the webhook, then a monthly subscription paid with it: its invoice. */
  async function paidStripeInvoice(paid = 5000): Promise<{ sub: string; invoice: Invoice }> {
    const { t, wire } = stripe;
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const confirmed = wire.confirmCardSetup(si.json().clientSecret, '4242424242424242');
    if (confirmed.error) throw new Error('the test card was declined');
    const payload = JSON.stringify(wire.event('setup_intent.succeeded', confirmed.setupIntent));
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(payload) },
      payload,
    });
    expect(hook.statusCode).toBe(200);
    t.clock.advance(11_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie },
      payload: { interval: 'month', quantity: 2, paymentMethodId: confirmed.paymentMethod.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sub = res.json().subscription.stripeId as string;
    const [invoice] = await invoicesOf(t.app, cookie, sub);
    expect(invoice).toMatchObject({ id: expect.stringMatching(/^in_/), status: 'paid', amountPaid: paid });
    return { sub, invoice: invoice! };
  }

  const refund = (invoiceId: string, body: Record<string, unknown>) =>
    consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${invoiceId}/refund`,
      headers: { cookie: owner },
      payload: body,
    });

  it("refunds against the invoice's payment intent with an idempotency key, in parts up to what was paid", async () => {
    const { wire, t } = stripe;
    const { invoice } = await paidStripeInvoice();
    const first = await refund(invoice.id, { reason, amount: 1250 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(`Refunded $12.50 of invoice ${invoice.number}; $37.50 of it can still be refunded`);

    const posts = wire.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({ payment_intent: expect.stringMatching(/^pi_/), amount: '1250' });
    expect(posts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}:refund$/);
    expect([...wire.refunds.values()].map((r) => r.amount)).toEqual([1250]);

    const over = await refund(invoice.id, { reason, amount: 3751 });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().message).toMatch(/^At most \$37\.50 of invoice .* can be refunded/);
    expect(wire.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds')).toHaveLength(1);

    const rest = await refund(invoice.id, { reason });
    expect(rest.statusCode, rest.body).toBe(200);
    expect([...wire.refunds.values()].map((r) => r.amount).sort()).toEqual([1250, 3750]);
    expect((await refund(invoice.id, { reason, amount: 1 })).statusCode).toBe(409);

    const log = await activity(t.app, cookie);
    expect(log).toContain(`Refunded $12.50 of invoice ${invoice.number} (by the vendor's staff)`);
  });

  it('Stripe refusing a refund (refunded meanwhile in its dashboard) is a 409 with its reason, not a 500', async () => {
    const { t } = stripe;
    const { invoice } = await paidStripeInvoice();
    const gateway = createStripeRefunds(createStripeClient(t.config.stripe!));
    const stale = (await gateway.findRefundable(t.db, invoice.id))!;
    expect(stale).toMatchObject({ amountPaid: 5000, amountReturned: 0, paymentRef: expect.stringMatching(/^pi_/) });
    expect((await refund(invoice.id, { reason })).statusCode).toBe(200);
    const err = await gateway.refund(t.db, stale, 100, randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      status: 409,
      message: expect.stringMatching(/^Stripe refused the refund: Charge .* has already been refunded\.$/),
    });
  });

  it("credits an invoice with a credit note to the customer's balance; Stripe takes it off the next invoice", async () => {
    const { wire } = stripe;
    const { invoice } = await paidStripeInvoice();
    const res = await consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${invoice.id}/credit`,
      headers: { cookie: owner },
      payload: { reason, amount: 1000 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = wire.requests.filter((r) => r.method === 'POST' && r.path === '/v1/credit_notes');
    expect(post).toHaveLength(1);
    expect(post[0]!.body).toMatchObject({ invoice: invoice.id, amount: '1000', credit_amount: '1000' });
    expect(post[0]!.idempotencyKey).toMatch(/:credit$/);

    const over = await refund(invoice.id, { reason, amount: 4001 });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().message).toMatch(/\$10\.00 has been refunded or credited already$/);

    const { invoice: next } = await paidStripeInvoice(4000);
    expect(next.amountPaid).toBe(4000);
  });

  it('an invoice Stripe does not have, or of a Stripe customer that is not ours, is 404', async () => {
    expect((await refund('in_DoesNotExist', { reason })).statusCode).toBe(404);
    const { wire } = stripe;
    const { invoice } = await paidStripeInvoice();
    wire.invoices.get(invoice.id)!.customer = 'cus_SomeoneElse';
    expect((await refund(invoice.id, { reason })).statusCode).toBe(404);
  });
});
