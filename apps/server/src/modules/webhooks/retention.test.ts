import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, webhookMessages } from '../../db/schema/index';
import { createWebhookTransport } from './webhook-transport';

/** RETENTION_DAYS: what is older goes (done outbox rows, the delivery log, Stripe event ids); the rest stays. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp(
    { RETENTION_DAYS: '7' },
    {
      // Every delivery is refused before any connection: nothing leaves the machine.
      webhookTransport: createWebhookTransport({
        resolve: async () => [{ address: '10.0.0.1', family: 4 }],
        connect: () => {
          throw new Error('no connection in this test');
        },
        timeoutMs: 1000,
        maxResponseBytes: 1024,
      }),
    },
  );
});
afterAll(() => t?.close());

const DAY = 86_400_000;

describe('retention', () => {
  it('prunes what is older than RETENTION_DAYS and keeps what a pending delivery still needs', async () => {
    const services = t.app.ctx.services;
    const { endpoint } = await services.webhooks.create(
      { url: 'https://crm.example.com/hooks', description: '', eventTypes: [], reason: 'Test' },
      { id: null, email: 'test' },
    );
    const issue = (email: string) =>
      services.licenses.issueForEmail({
        email,
        maxNodes: 1,
        expiresAt: new Date(t.clock.now().getTime() + 30 * DAY),
        actor: 'test',
      });
    await t.db
      .insert(webhookEvents)
      .values({ id: 'evt_old', type: 'invoice.paid', receivedAt: t.clock.now(), processedAt: t.clock.now() });
    await issue('retention-old@example.com');
    await services.outbox.kick();
    await services.outbox.drain();
    // The old delivery failed its first attempt (refused) and waits for its retry: still pending.
    const [old] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(old!.status).toBe('pending');
    await t.db.update(webhookDeliveries).set({ status: 'delivered' }).where(eq(webhookDeliveries.id, old!.id));

    t.clock.advance(8 * DAY);
    await t.db
      .insert(webhookEvents)
      .values({ id: 'evt_new', type: 'invoice.paid', receivedAt: t.clock.now(), processedAt: t.clock.now() });
    await issue('retention-new@example.com');
    await services.outbox.kick();
    await services.outbox.drain();

    const pruned = await services.prune();
    expect(pruned).toMatchObject({ attempts: 1, deliveries: 1, messages: 1, providerEvents: 1 });
    expect((await t.db.select().from(webhookEvents)).map((e) => e.id)).toEqual(['evt_new']);
    const deliveries = await t.db.select().from(webhookDeliveries);
    expect(deliveries.map((d) => d.status)).toEqual(['pending']);
    expect(await t.db.select().from(webhookMessages)).toHaveLength(1);
    expect(await t.db.select().from(webhookAttempts)).toHaveLength(1);
    expect(await t.db.select().from(webhookEndpoints)).toHaveLength(1);
  });
});
