import { AppError } from '../../lib/errors';
import type { Tx } from '../../db/client';
import type { GatewayEvent, GatewayEvents, Receipt } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { noticesOf } from './billing-notices';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository';
import { describe } from './lifecycle';
import { heldInvoiceObject } from './refunds';
import { paymentTrouble } from './transition';
import type { createCards } from './cards';

const PROVIDER = 'stripe';

/**
 * Provider events (Stripe's webhooks): verified, recorded once per event id and processed through
 * the outbox, where the gateway re-reads the object and says what it means; billing then mirrors
 * the state onto its record, and the license, the activity log and the receipt follow.
 */
export function createProviderSync(ctx: BillingContext, cards: Pick<ReturnType<typeof createCards>, 'payPastDueWith'>) {
  const { db, clock, log, audit, outbox, config } = ctx;
  const notices = noticesOf(ctx);
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
        // A payment the provider reports (Stripe's invoice.paid): its activity entry, and the
        // invoice.paid webhook event announced from it, in this transaction.
        const paid = event.receipt;
        if (paid?.held && row.userId) {
          const invoice = heldInvoiceObject(paid, paid.held, row.userId, 0);
          await audit.record(tx, { type: 'invoice_paid', userId: row.userId, actor: PROVIDER, invoice });
        }
        const billTo = await ctx.billToFor(tx, row.userId);
        if (!billTo) return;
        if (event.receipt) await ctx.sendReceipt(tx, billTo, event.receipt, row);
        await tellOfFailingPayment(tx, before, row, billTo.email, event.failedInvoice);
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

  /**
   * What the customer is told of a payment failing at the provider, which retries on its own
   * schedule: that it failed (once per period, with the invoice and the grace's end), and that the
   * subscription ended when it ends unpaid. Not sent where Stripe sends its own (STRIPE_SENDS_DUNNING).
   */
  async function tellOfFailingPayment(
    tx: Tx,
    before: SubscriptionRow | undefined,
    row: SubscriptionRow,
    to: string,
    failed?: Receipt,
  ) {
    if (!ctx.sendsDunningOf(row)) return;
    const trouble = paymentTrouble(row, config.payments.graceDays);
    if (trouble && failed && (await notices.recordOnce(tx, row.id, 'payment-failed', row.currentPeriodEnd))) {
      await ctx.sendMail(tx, {
        to,
        template: 'payment-failed',
        data: {
          number: failed.number,
          amountDue: failed.amountDue,
          currency: failed.currency,
          url: ctx.billingUrl,
          accessUntil: trouble.accessUntil.toISOString(),
        },
      });
    }
    if (before && before.status !== 'canceled' && row.status === 'canceled' && row.endedReason === 'unpaid') {
      await ctx.sendMail(tx, {
        to,
        template: 'subscription-ended',
        data: { summary: describe(row), endedOn: (row.canceledAt ?? clock.now()).toISOString(), url: ctx.billingUrl },
      });
    }
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
