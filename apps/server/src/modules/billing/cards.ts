import { randomUUID } from 'node:crypto';
import type { PaymentMethod, SetupIntentResponse } from '@portal/contract';
import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import type { CardFormInput, Payment } from '../../providers/billing/gateway';
import { billToOf, type BillingContext, type BillingUser } from './billing-context';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository';

/** The customer's cards: setting one up, the local card form, removal, and what a new card does. */
export function createCards(ctx: BillingContext) {
  const { db, audit, outbox } = ctx;

  async function listPaymentMethods(userId: string): Promise<PaymentMethod[]> {
    const customerId = await ctx.customerIdOf(db, userId);
    return customerId ? ctx.gateway.listCards(db, customerId) : [];
  }

  /**
   * What a payment of a past_due subscription's open invoice does, whoever paid it: the
   * transition (the license back to the paid period, the activity entry), then the receipts.
   */
  async function settleOpenInvoice(tx: Tx, userId: string, sub: SubscriptionRow, payment: Payment, actor: string) {
    const row = await ctx.transition(tx, sub, payment.state, { actor, cause: { kind: 'paid', invoice: payment.paid[0] } });
    const billTo = await ctx.billToFor(tx, userId);
    for (const inv of payment.paid) if (billTo) await ctx.sendReceipt(tx, billTo, inv, row);
    return row;
  }

  /**
   * A new card pays a past_due subscription's open invoice at once and pays for it from now on.
   * `onFailure` (Stripe, outside a transaction) logs a subscription that still cannot be paid and
   * goes on with the next; without it (the local engine, inside the caller's transaction) a
   * failure fails the whole change.
   */
  async function payPastDueWith(
    tx: Tx,
    owner: { userId: string; customerId: string },
    cardId: string,
    actor: string,
    opId: string,
    onFailure?: (err: unknown, sub: SubscriptionRow) => void,
  ) {
    const gateway = ctx.gateway;
    const pastDue = (await repo.listSubscriptions(tx, owner.userId)).filter(
      (s) => s.provider === gateway.kind && s.status === 'past_due',
    );
    for (const sub of pastDue) {
      try {
        const withCard = await ctx.applyState(tx, sub, await gateway.setSubscriptionCard(tx, sub, cardId, opId));
        await settleOpenInvoice(
          tx,
          owner.userId,
          withCard,
          await gateway.payOpenInvoices(tx, withCard, owner.customerId, cardId, opId),
          actor,
        );
      } catch (err) {
        if (!onFailure) throw err;
        onFailure(err, sub);
      }
    }
  }

  return {
    listPaymentMethods,
    payPastDueWith,
    settleOpenInvoice,

    async createSetupIntent(user: BillingUser): Promise<SetupIntentResponse> {
      const gateway = ctx.gateway;
      const clientSecret = await db.transaction(async (tx) => {
        const customer = await ctx.lockCustomer(tx, billToOf(user));
        return gateway.createSetupIntent(tx, customer.providerCustomerId, randomUUID());
      });
      return {
        provider: gateway.kind,
        clientSecret,
        ...(gateway.publishableKey ? { publishableKey: gateway.publishableKey } : {}),
      };
    },

    /** The local engine's card form (POST /api/billing/local/confirm-setup). */
    async confirmLocalSetup(user: BillingUser, input: CardFormInput): Promise<PaymentMethod> {
      const form = ctx.gateway.cardForm;
      if (!form) throw new AppError('NOT_FOUND', 'No such endpoint: the local card form is off while Stripe is configured');
      const card = await db.transaction(async (tx) => {
        const customer = await repo.lockCustomer(tx, user.id);
        if (!customer || customer.provider !== ctx.gateway.kind) {
          throw new AppError('NOT_FOUND', 'This card setup was not found. Start adding the card again.');
        }
        const customerId = customer.providerCustomerId;
        const added = await form.confirmSetup(tx, customerId, input);
        await audit.record(tx, { type: 'card_added', userId: user.id, actor: user.email, cardId: added.id, card: added });
        await payPastDueWith(tx, { userId: user.id, customerId }, added.id, user.email, randomUUID());
        return (await ctx.gateway.listCards(tx, customerId)).find((c) => c.id === added.id) ?? added;
      });
      void outbox.kick();
      return card;
    },

    /**
     * Removes a card. A card paying for a running subscription is only removed when another card
     * can take over (it becomes the default and that subscription's card); see
     * docs/decisions/013-card-removal.md.
     */
    async removePaymentMethod(user: BillingUser, cardId: string): Promise<void> {
      const gateway = ctx.gateway;
      await db.transaction(async (tx) => {
        const existing = await repo.lockCustomer(tx, user.id);
        if (!existing || existing.provider !== gateway.kind) throw notFound('The card');
        const customerId = existing.providerCustomerId;
        const cards = await gateway.listCards(tx, customerId);
        const target = cards.find((c) => c.id === cardId);
        if (!target) throw notFound('The card');
        const others = cards.filter((c) => c.id !== cardId);
        const paidBy = (await repo.runningSubscriptions(tx, user.id, gateway.kind)).filter(
          (s) => s.paymentMethodId === cardId || (!s.paymentMethodId && target.isDefault),
        );
        const replacement = others.find((c) => c.isDefault) ?? others[0];
        if (paidBy.length > 0 && !replacement) {
          throw new AppError(
            'CONFLICT',
            'This card pays for an active subscription. Add another card first, or cancel the subscription.',
          );
        }
        const opId = randomUUID();
        if (replacement && (target.isDefault || paidBy.length > 0)) {
          await gateway.setDefaultCard(tx, customerId, replacement.id, opId);
          for (const sub of paidBy)
            await ctx.applyState(tx, sub, await gateway.setSubscriptionCard(tx, sub, replacement.id, opId));
        }
        await gateway.detachCard(tx, customerId, cardId, opId);
        await audit.record(tx, {
          type: 'card_removed',
          userId: user.id,
          actor: user.email,
          cardId,
          card: target,
          subscriptionsMovedTo: paidBy.length > 0 ? replacement : undefined,
        });
      });
    },
  };
}
