import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_EVENT_SCHEMAS, type WebhookEventType, type WebhookObject } from '@portal/contract';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import { auditEvents, webhookDeliveries, webhookMessages } from '../../db/schema/index';
import { flushOutbox, userIdOf } from '../billing/billing-test-helpers';
import { createWebhookTransport, type Connector } from './webhook-transport';

/**
 * The invoice events of the Stripe engine, end to end: Stripe's invoice.paid (through the portal's
 * Stripe webhook and the outbox), a refund and a credit note from the console's billing service,
 * each announced to a real HTTP receiver that verifies it with the `standardwebhooks` package, in
 * the shape the built-in engine's invoices have (the contract's schemas), once each.
 */

type Received = { id: string; type: WebhookEventType; sequence: number; object: WebhookObject<'invoice'>; payload: unknown };

let stripe: StripeTestApp;
let t: TestApp;
let wire: StripeWireServer;
let server: Server;
let port = 0;
let secret = '';
const received: Received[] = [];
const rejected: string[] = [];

const headersOf = (h: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

/** Moves the portal's clock (and the stand-in's) and the receiver's (its library checks timestamps against Date.now()). */
function setClock(d: Date) {
  t.clock.set(d);
  vi.setSystemTime(d);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const verified = new Webhook(secret).verify(body, headersOf(req.headers)) as {
          type: WebhookEventType;
          data: { sequence: number; object: WebhookObject<'invoice'> };
        };
        received.push({
          id: req.headers['webhook-id'] as string,
          type: verified.type,
          sequence: verified.data.sequence,
          object: verified.data.object,
          payload: verified,
        });
        res.writeHead(200).end('ok');
      } catch (err) {
        rejected.push(String(err));
        res.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  const connector: Connector = (target) => {
    if (target.address !== '127.0.0.1' || target.port !== port) {
      expect.fail(`the delivery asked to connect to ${target.address}:${target.port}`);
    }
    return connect({ host: target.address, port: target.port });
  };
  stripe = await buildStripeTestApp(
    { secretKey: 'sk_test_hooks', publishableKey: 'pk_test_hooks', webhookSecret: 'whsec_test_hooks' },
    new Date('2026-01-05T10:00:00.000Z'),
    { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32' },
    {
      webhookTransport: createWebhookTransport({
        resolve: async (host) => (host === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
        connect: connector,
        allowPrivate: ['127.0.0.1/32'],
        timeoutMs: 10_000,
        maxResponseBytes: 4096,
      }),
    },
  );
  ({ t, wire } = stripe);
  setClock(new Date('2026-01-05T10:00:00.000Z'));
});
afterAll(async () => {
  vi.useRealTimers();
  await stripe?.close();
  server?.closeAllConnections();
  server?.close();
});

/** A Stripe webhook as Stripe sends it, processed through the outbox. */
async function deliverToPortal(event: unknown) {
  const payload = JSON.stringify(event);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(payload) },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  await flushOutbox(t);
}

/** Runs the outbox until every queued delivery reached the receiver (the hang guard is the test's timeout). */
async function receiveAll() {
  const queued = (await t.db.select().from(webhookDeliveries)).length;
  while (received.length + rejected.length < queued) {
    await t.app.ctx.services.outbox.kick();
    await t.app.ctx.services.outbox.drain();
  }
}

describe('invoice events of the Stripe engine', () => {
  it('a paid invoice, a refund and a credit note arrive once each, verified, in the built-in engine’s shape', async () => {
    const created = await t.app.ctx.services.webhooks.create(
      {
        url: `http://receiver.test:${port}/portal-events`,
        description: 'Accounting',
        eventTypes: ['invoice.paid', 'invoice.refunded', 'invoice.credited'],
        reason: 'Test',
      },
      { id: null, email: 'test' },
    );
    secret = created.secret;

    // A card through Stripe.js and Stripe's webhook, then a monthly subscription of 2 paid with it.
    const email = 'hooks-stripe@example.com';
    const cookie = await t.signIn(email);
    const userId = await userIdOf(t, email);
    const si = await t.app.inject({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } });
    const confirmed = wire.confirmCardSetup(si.json().clientSecret, '4242424242424242');
    if (confirmed.error) throw new Error('the test card was declined');
    await deliverToPortal(wire.event('setup_intent.succeeded', confirmed.setupIntent));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie },
      payload: { interval: 'month', quantity: 2, paymentMethodId: confirmed.paymentMethod.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sid = res.json().subscription.stripeId as string;
    const first = wire.subscriptions.get(sid)!.latest_invoice!;
    expect(first).toMatch(/^in_/);
    // Nothing announced before Stripe reports the payment.
    expect(await t.db.select().from(webhookMessages)).toEqual([]);

    // Stripe reports it (the same event twice: recorded once per event id).
    const paidEvent = wire.event('invoice.paid', wire.invoiceJson(first));
    await deliverToPortal(paidEvent);
    await deliverToPortal(paidEvent);
    await receiveAll();
    expect(received.map((r) => r.type)).toEqual(['invoice.paid']);

    // A renewal a month later, reported by Stripe.
    setClock(new Date('2026-02-05T10:00:00.000Z'));
    wire.cycle(sid);
    const second = wire.subscriptions.get(sid)!.latest_invoice!;
    expect(second).not.toBe(first);
    await deliverToPortal(wire.event('invoice.paid', wire.invoiceJson(second)));

    // The vendor's staff refund 5.00 and credit 10.00 of the first invoice.
    await t.app.ctx.services.billing.refundInvoice(first, 500, 'test');
    await t.app.ctx.services.billing.creditInvoice(first, 1000, 'test');
    await receiveAll();

    expect(rejected).toEqual([]);
    expect(received.map((r) => `${r.type} ${r.object.id} #${r.sequence}`)).toEqual([
      `invoice.paid ${first} #1`,
      `invoice.paid ${second} #1`,
      `invoice.refunded ${first} #2`,
      `invoice.credited ${first} #3`,
    ]);
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
    for (const r of received) expect(() => WEBHOOK_EVENT_SCHEMAS[r.type].parse(r.payload), r.type).not.toThrow();
    const invoice = wire.invoices.get(first)!;
    expect(received[0]!.object).toEqual({
      id: first,
      number: invoice.number,
      customerId: userId,
      subscriptionId: sid,
      status: 'paid',
      currency: 'usd',
      amountDue: 5000,
      amountPaid: 5000,
      amountReturned: 0,
      periodStart: '2026-01-05T10:00:00.000Z',
      periodEnd: '2026-02-05T10:00:00.000Z',
      createdAt: '2026-01-05T10:00:00.000Z',
    });
    expect(received[1]!.object).toMatchObject({
      customerId: userId,
      subscriptionId: sid,
      amountPaid: 5000,
      periodStart: '2026-02-05T10:00:00.000Z',
      periodEnd: '2026-03-05T10:00:00.000Z',
    });
    expect(received[2]!.object).toEqual({ ...received[0]!.object, amountReturned: 500 });
    expect(received[3]!.object).toEqual({ ...received[0]!.object, amountReturned: 1500 });
    expect((await t.db.select().from(webhookDeliveries)).every((d) => d.status === 'delivered')).toBe(true);

    // The payments Stripe reported are in the customer's activity, which the events come from.
    const paid = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'invoice_paid'));
    expect(paid.map((a) => [a.userId, a.actor, a.subjectId, a.summary])).toEqual([
      [userId, 'stripe', first, `Paid invoice ${invoice.number} ($50.00)`],
      [userId, 'stripe', second, `Paid invoice ${wire.invoices.get(second)!.number} ($50.00)`],
    ]);
  });
});
