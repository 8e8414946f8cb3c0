import { AppError } from '../../lib/errors';
import type { GatewayEvent, GatewayEvents } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import type { createCards } from './cards';

const PROVIDER = 'stripe';

/**
 * Provider events (Stripe's webhooks): verified, recorded once per event id and processed through
 * the outbox, where the gateway re-reads the object and says what it means; billing then mirrors
 * the state onto its record, and the license, the activity log and the receipt follow.
 */
export function createProviderSync(ctx: BillingContext, cards: Pick<ReturnType<typeof createCards>, 'payPastDueWith'>) {
  const { db, clock, log, audit, outbox, config } = ctx;
  const events: GatewayEvents | undefined = ctx.gateway.events;
  const gatewayKind = ctx.gateway.kind;

  async function apply(event: GatewayEvent, eventId: string) {
    if (event.type === 'subscription_changed') {
      await db.transaction(async (tx) => {
        const owner = event.customerId ? await repo.findCustomerByProviderId(tx, event.customerId) : undefined;
        const { before, row } = await repo.saveProviderState(tx, gatewayKind, event.subscription, {
          userId: owner?.userId ?? null,
          plan: config.pricing.plan,
          at: clock.now(),
        });
        if (!row) return;
        await ctx.transition(tx, before, row, { actor: PROVIDER, cause: before ? { kind: 'provider' } : { kind: 'created' } });
        if (!event.receipt) return;
        const billTo = await ctx.billToFor(tx, row.userId);
        if (billTo) await ctx.sendReceipt(tx, billTo, event.receipt, row);
      });
      return;
    }
    // A card attached at the provider: its calls are not ours to roll back, so none of this waits
    // in a transaction; a subscription the card cannot pay stays past_due, and the provider retries.
    const owner = await repo.findCustomerByProviderId(db, event.customerId);
    if (!owner) return;
    const gateway = ctx.gateway;
    const customer = { userId: owner.userId, customerId: event.customerId };
    const listed = await gateway.listCards(db, event.customerId);
    // The first card becomes the default, so renewals have something to charge.
    if (!listed.some((c) => c.isDefault)) await gateway.setDefaultCard(db, event.customerId, event.cardId, eventId);
    await cards.payPastDueWith(db, customer, event.cardId, PROVIDER, eventId, (err, sub) => {
      log.warn({ err, subscription: sub.providerId }, 'the new card did not pay the open invoice');
    });
    const card = listed.find((c) => c.id === event.cardId);
    await db.transaction(async (tx) => {
      await audit.record(tx, { type: 'card_added', userId: owner.userId, actor: PROVIDER, cardId: event.cardId, card });
    });
  }

  if (events) {
    outbox.on('billing.stripe.sync', async (job) => {
      const event = await events.read(job);
      if (event) await apply(event, job.eventId);
    });
  }

  return {
    /** POST /api/billing/webhook: verified, recorded once per event id, processed through the outbox. */
    async handleWebhook(raw: Buffer, signature: string | undefined): Promise<{ duplicate: boolean }> {
      if (!events) throw new AppError('NOT_FOUND', 'No such endpoint: webhooks are only used with Stripe');
      const event = events.verify(raw, signature);
      const fresh = await db.transaction(async (tx) => {
        const isNew = await repo.recordWebhookEvent(tx, event.id, event.type, clock.now());
        if (isNew && event.job) {
          await outbox.enqueue(tx, 'billing.stripe.sync', { ...event.job, eventId: event.id, eventType: event.type });
        }
        return isNew;
      });
      if (fresh) void outbox.kick();
      return { duplicate: !fresh };
    },
  };
}
