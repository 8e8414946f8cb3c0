import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { eq, isNotNull } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@portal/contract';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { subscriptions, staff, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index';
import { addCard, checkout, invoicesOf } from '../billing/billing-test-helpers';
import { WEBHOOK_RETRY_DELAYS_MS } from './webhook-delivery';
import { createWebhookTransport, type Connector, type Resolver } from './webhook-transport';

/**
 * Outbound webhooks end to end: the real app announces its changes to a real HTTP receiver on the
 * loopback (allowed by WEBHOOK_ALLOW_PRIVATE, as an operator allows a CRM in their network), which
 * verifies every request with the `standardwebhooks` package. The app's resolver and connector
 * are the test's: names resolve from a fixed table, and the connector fails the test if it is
 * ever asked for an address other than this receiver's.
 */

type Received = { id: string; type: WebhookEventType; resource: string; key: string; sequence: number; payload: unknown };

/** A receiver that verifies with the reference library and answers `status()`. */
async function startReceiver(secret: () => string, status: () => number) {
  const received: Received[] = [];
  const rejected: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const code = status();
      if (code === 200) {
        try {
          const verified = new Webhook(secret()).verify(body, headersOf(req.headers)) as {
            type: WebhookEventType;
            data: { resource: string; sequence: number; object: Record<string, unknown> };
          };
          const o = verified.data.object;
          received.push({
            id: req.headers['webhook-id'] as string,
            type: verified.type,
            resource: verified.data.resource,
            key: `${verified.data.resource}:${String(o.key ?? o.id)}`,
            sequence: verified.data.sequence,
            payload: verified,
          });
        } catch (err) {
          rejected.push(String(err));
          res.writeHead(400).end();
          return;
        }
      }
      res.writeHead(code).end(code === 200 ? 'ok' : 'receiver down');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, received, rejected };
}

const headersOf = (h: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret = '';
let answer = 200;
const connections: string[] = [];

const names: Record<string, string[]> = {
  'receiver.test': ['127.0.0.1'],
  'crm.internal.test': ['10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
};
const resolver: Resolver = async (host) => (names[host] ?? []).map((address) => ({ address, family: 4 }));
const connector: Connector = (target) => {
  connections.push(`${target.address}:${target.port}`);
  if (target.address !== '127.0.0.1' || target.port !== receiver.port) {
    expect.fail(`the delivery asked to connect to ${target.address}:${target.port}`);
  }
  return connect({ host: target.address, port: target.port });
};

/** Moves the portal's clock and the receiver's (its library checks the timestamp against Date.now()). */
function setClock(d: Date) {
  t.clock.set(d);
  vi.setSystemTime(d);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  receiver = await startReceiver(
    () => secret,
    () => answer,
  );
  t = await buildTestApp(
    { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32' },
    {
      webhookTransport: createWebhookTransport({
        resolve: resolver,
        connect: connector,
        allowPrivate: ['127.0.0.1/32'],
        timeoutMs: 10_000,
        maxResponseBytes: 4096,
      }),
    },
  );
  setClock(new Date());
  await t.db.insert(staff).values({ email: 'owner@vendor.example', role: 'owner' });
});
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
  receiver?.server.closeAllConnections();
  receiver?.server.close();
});

const actor = { id: null, email: 'test' };

/** Runs the outbox until the receiver holds `n` events (the hang guard is the test's timeout). */
async function receiveAtLeast(n: number) {
  for (let i = 0; receiver.received.length < n; i++) {
    await t.app.ctx.services.outbox.kick();
    await t.app.ctx.services.outbox.drain();
    if (i > 1000) {
      const failed = await t.db.select().from(webhookAttempts).where(isNotNull(webhookAttempts.error));
      throw new Error(
        `only ${receiver.received.length} of ${n} events arrived; rejected: ${receiver.rejected.join(', ')}; errors: ${failed.map((a) => a.error).join(', ')}`,
      );
    }
  }
}

const inject = async (opts: InjectOptions, status: number) => {
  const res = await t.app.inject(opts);
  expect(res.statusCode, res.body).toBe(status);
  return (res.body === '' ? {} : res.json()) as Record<string, unknown>;
};

describe('every catalogued event, verified, in order per resource', () => {
  it('arrives once each, verified by standardwebhooks, with sequences in order per resource', async () => {
    const created = await t.app.ctx.services.webhooks.create(
      { url: `http://receiver.test:${receiver.port}/portal-events`, description: 'CRM', eventTypes: [], reason: 'Test' },
      actor,
    );
    secret = created.secret;
    expect(secret).toMatch(/^whsec_/);
    const start = new Date('2026-01-05T10:00:00.000Z');
    setClock(start);

    // customer.created, customer.updated
    const email = 'hooks-everything@example.com';
    let cookie = await t.signIn(email);
    await inject(
      { method: 'PATCH', url: '/api/users/profile', headers: { cookie }, payload: { fname: 'Ada', lname: 'Lovelace' } },
      200,
    );
    // subscription.created, invoice.paid, license.issued
    const good = (await addCard(t, cookie)).json().paymentMethod.id as string;
    const sub = (await checkout(t, cookie, { interval: 'month', quantity: 2 })).json().subscription;
    const stripeId = sub.stripeId as string;
    const key = sub.licenseKey as string;
    // node.activated, node.released
    const node = (await inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: { fingerprint: 'fp-1' } }, 201))
      .node as { id: string };
    await t.app.inject({ method: 'DELETE', url: `/api/licenses/${key}/nodes/${node.id}`, headers: { cookie } });
    // subscription.changed, license.resized, invoice.paid
    await inject(
      { method: 'PUT', url: `/api/billing/subscriptions/${stripeId}/quantity`, headers: { cookie }, payload: { quantity: 3 } },
      200,
    );
    // subscription.cancelled, subscription.reactivated
    await inject({ method: 'DELETE', url: `/api/billing/subscriptions/${stripeId}/`, headers: { cookie } }, 200);
    await inject({ method: 'POST', url: `/api/billing/subscriptions/${stripeId}/reactivate`, headers: { cookie } }, 200);
    // license.suspended, license.resumed, license.extended
    const licenses = t.app.ctx.services.licenses;
    await t.db.transaction((tx) => licenses.setSuspended(tx, key, true, 'test'));
    await t.db.transaction((tx) => licenses.setSuspended(tx, key, false, 'test'));
    await t.db.transaction((tx) => licenses.extendBy(tx, key, 10, 'test'));
    // invoice.refunded, invoice.credited
    const [first] = await invoicesOf(t, stripeId);
    await t.app.ctx.services.billing.refundInvoice(first!.id, 100, 'test');
    await t.app.ctx.services.billing.creditInvoice(first!.id, 100, 'test');
    // subscription.payment_failed: the renewal is charged to a card with insufficient funds
    const poor = (await addCard(t, cookie, '4000 0000 0000 9995')).json().paymentMethod.id as string;
    await inject({ method: 'DELETE', url: `/api/billing/methods/${good}`, headers: { cookie } }, 204);
    // Deliveries run while the requests do (each commit kicks the outbox): let those in flight land
    // before both clocks jump a month (the receiver would find their timestamps a month old).
    await receiveAtLeast((await t.db.select().from(webhookDeliveries)).length);
    setClock(new Date(start.getTime() + 32 * 86_400_000));
    await t.app.ctx.services.billing.runRenewals();
    expect((await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, stripeId)))[0]!.status).toBe('past_due');
    // subscription.recovered: a working card added pays the open invoice
    cookie = await t.signIn(email);
    await addCard(t, cookie, '5555 5555 5555 4444');
    expect((await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, stripeId)))[0]!.status).toBe('active');
    expect(poor).toBeTruthy();
    // subscription.ended, license.expired, license.revoked, customer.deleted: the account goes
    const bye = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie },
    });
    expect(bye.statusCode, bye.body).toBe(204);

    const expected = await t.db.select().from(webhookDeliveries);
    expect(expected.length).toBeGreaterThan(WEBHOOK_EVENT_TYPES.length);
    await receiveAtLeast(expected.length);

    expect(receiver.rejected).toEqual([]);
    const types = new Set(receiver.received.map((r) => r.type));
    expect([...WEBHOOK_EVENT_TYPES].filter((ty) => !types.has(ty))).toEqual([]);
    // Once each: no id twice, every delivery delivered.
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
    expect(receiver.received.length).toBe(expected.length);
    const settled = await t.db.select().from(webhookDeliveries);
    expect(settled.every((d) => d.status === 'delivered')).toBe(true);
    // Each payload is what its event's schema in the contract says.
    for (const r of receiver.received) expect(() => WEBHOOK_EVENT_SCHEMAS[r.type].parse(r.payload), r.type).not.toThrow();
    // Per resource: arrival order is sequence order, 1, 2, 3, … (this endpoint wants every event).
    const byResource = new Map<string, number[]>();
    for (const r of receiver.received) byResource.set(r.key, [...(byResource.get(r.key) ?? []), r.sequence]);
    for (const [resource, sequences] of byResource) {
      expect(sequences, resource).toEqual(sequences.map((_, i) => i + 1));
    }
    // The subscription's final state in its last event: ended.
    const lastOfSubscription = receiver.received.filter((r) => r.key === `subscription:${stripeId}`).at(-1)!;
    expect(lastOfSubscription.type).toBe('subscription.ended');
    expect(connections.every((c) => c === `127.0.0.1:${receiver.port}`)).toBe(true);
  });
});

describe('a receiver that keeps failing', () => {
  it('gets retries on the schedule, the later events about the same resource wait, then the endpoint is turned off and the owners told', async () => {
    // Only this endpoint from here on.
    await t.db.update(webhookEndpoints).set({ enabled: false });
    const { endpoint } = await t.app.ctx.services.webhooks.create(
      { url: `http://receiver.test:${receiver.port}/down`, description: 'Down', eventTypes: [], reason: 'Test' },
      actor,
    );
    answer = 500;
    const before = receiver.received.length;
    const start = new Date('2026-06-01T00:00:00.000Z');
    setClock(start);
    const key = (
      await t.app.ctx.services.licenses.issueForEmail({
        email: 'hooks-failing@example.com',
        maxNodes: 1,
        expiresAt: new Date(start.getTime() + 30 * 86_400_000),
        actor: 'test',
      })
    ).key;
    await t.db.transaction((tx) => t.app.ctx.services.licenses.setSuspended(tx, key, true, 'test'));
    const attemptsOf = async () =>
      t.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id)).orderBy(webhookAttempts.id);
    const drain = async () => {
      await t.app.ctx.services.outbox.kick();
      await t.app.ctx.services.outbox.drain();
    };

    await drain();
    expect(await attemptsOf()).toHaveLength(1);
    let now = start.getTime();
    for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      setClock(new Date(now + delay - 1000));
      await drain();
      expect(await attemptsOf(), `not before the ${i + 2}nd attempt is due`).toHaveLength(i + 1);
      now += delay;
      setClock(new Date(now));
      await drain();
      expect(await attemptsOf(), `attempt ${i + 2}`).toHaveLength(i + 2);
    }
    const attempts = await attemptsOf();
    // Every attempt was of the first event (license.issued); the suspension waited behind it.
    expect(new Set(attempts.map((a) => a.deliveryId)).size).toBe(1);
    expect(attempts.map((a) => a.at.getTime() - start.getTime())).toEqual(
      [0, ...WEBHOOK_RETRY_DELAYS_MS].map((_, i, all) => all.slice(0, i + 1).reduce((s, d) => s + d, 0)),
    );
    expect(attempts.every((a) => a.responseStatus === 500 && a.error === 'The endpoint answered 500')).toBe(true);
    const [off] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(off).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const deliveries = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(deliveries.map((d) => d.status).sort()).toEqual(['cancelled', 'failed']);
    const mail = t.mailer.messages.filter((m) => m.to === 'owner@vendor.example');
    expect(mail.at(-1)?.subject).toBe('A webhook endpoint was turned off');
    expect(receiver.received.length).toBe(before);
    // Nothing more is tried.
    setClock(new Date(now + 7 * 86_400_000));
    await drain();
    expect(await attemptsOf()).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);

    // Back up, turned on, its secret rotated (the receiver knows only the new one) and the failed
    // event resent: it arrives, with the same webhook-id.
    answer = 200;
    await t.app.ctx.services.webhooks.update(endpoint.id, { enabled: true, reason: 'Receiver fixed' }, actor);
    const failed = deliveries.find((d) => d.status === 'failed')!;
    const rotated = await t.app.ctx.services.webhooks.rotateSecret(endpoint.id, { overlapHours: 0, reason: 'Test' }, actor);
    secret = rotated.secret;
    await t.app.ctx.services.webhooks.resend(endpoint.id, failed.id, 'Receiver fixed', actor);
    await receiveAtLeast(before + 1);
    expect(receiver.received.at(-1)).toMatchObject({ id: failed.messageId, type: 'license.issued' });
  });
});

describe('addresses that are refused (127.0.0.1 alone is allow-listed here)', () => {
  it.each([
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://crm.internal.test/hook',
    'http://metadata.test/hook',
    'http://127.0.0.2/hook',
    'http://[::1]/hook',
  ])('%s: every attempt is refused and logged, no connection is opened', async (url) => {
    await t.db.update(webhookEndpoints).set({ enabled: false });
    const { endpoint } = await t.app.ctx.services.webhooks.create(
      { url, description: '', eventTypes: [], reason: 'Test' },
      actor,
    );
    const opened = connections.length;
    await t.app.ctx.services.licenses.issueForEmail({
      email: 'hooks-refused@example.com',
      maxNodes: 1,
      expiresAt: new Date(t.clock.now().getTime() + 86_400_000),
      actor: 'test',
    });
    await t.app.ctx.services.outbox.kick();
    await t.app.ctx.services.outbox.drain();
    const attempts = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.error).toMatch(/^Refused/);
    expect(attempts[0]!.responseStatus).toBeNull();
    expect(connections.length).toBe(opened);
  });
});
