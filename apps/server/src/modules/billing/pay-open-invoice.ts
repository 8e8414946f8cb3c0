import { randomUUID } from 'node:crypto';
import type { Subscription } from '@portal/contract';
import { AppError, notFound } from '../../lib/errors';
import type { BillingContext, BillingUser } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import type { createCards } from './cards';
import type { createRenewals } from './renewals';

/**
 * The customer pays a past_due subscription's open invoice now with a card on file
 * (POST /api/billing/subscriptions/{stripeId}/pay). The payment goes through the transition like
 * every other (a retry that works, a new card, staff's "retry now"): the license goes back to the
 * paid period, the activity says so, the receipt is e-mailed, and the card pays the subscription
 * from then on. A declined card is a 402 with the card's own message and changes nothing: the
 * subscription stays past_due and the retry schedule stands. See docs/decisions/051.
 */
export function createPayOpenInvoice(
  ctx: BillingContext,
  renewals: Pick<ReturnType<typeof createRenewals>, 'catchUp'>,
  cards: Pick<ReturnType<typeof createCards>, 'settleOpenInvoice'>,
) {
  const { db, outbox } = ctx;

  return async function payOpenInvoice(
    user: BillingUser,
    subscriptionId: string,
    cardId: string,
    idempotencyKey?: string,
  ): Promise<Subscription> {
    // A repeated request (double click, a retry of the browser) gets the same keys at the provider.
    const opId = idempotencyKey ? `pay:${user.id}:${idempotencyKey}` : randomUUID();
    const row = await db.transaction(async (tx) => {
      // Locked: two payments of one invoice take turns, and the second finds nothing left to pay.
      const locked = await repo.findSubscription(tx, user.id, subscriptionId, true);
      if (!locked) throw notFound('The subscription');
      const sub = await renewals.catchUp(tx, locked);
      const gateway = ctx.gatewayFor(sub.provider);
      const customer = await repo.findCustomer(tx, user.id);
      const customerId = customer?.provider === sub.provider ? customer.providerCustomerId : undefined;
      const onFile = customerId ? await gateway.listCards(tx, customerId) : [];
      if (!customerId || !onFile.some((c) => c.id === cardId)) throw notFound('The card');
      if (sub.status !== 'past_due') {
        throw new AppError(
          'CONFLICT',
          sub.status === 'canceled'
            ? 'This subscription has ended: there is no invoice left to pay.'
            : 'This subscription has no failed payment: there is nothing to pay.',
        );
      }
      const payment = await gateway.payOpenInvoices(tx, sub, customerId, cardId, opId);
      if (payment.declined) throw new AppError('CARD_DECLINED', payment.declined);
      if (payment.paid.length === 0 && payment.state.status !== 'active') {
        throw new AppError('CONFLICT', 'The open invoice could not be found. Reload the page and try again.');
      }
      const paid = await cards.settleOpenInvoice(tx, user.id, sub, payment, user.email);
      // The card that paid pays the renewals from now on.
      return ctx.applyState(tx, paid, await gateway.setSubscriptionCard(tx, paid, cardId, opId));
    });
    void outbox.kick();
    return ctx.withKey(row);
  };
}
