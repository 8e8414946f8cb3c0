import type Stripe from 'stripe';
import { AppError } from '../../../lib/errors';
import type { PaymentGateway } from '../gateway';
import { call, toAppError } from './stripe-client';
import { idOf } from './stripe-mapping';

/** Stripe's refusals of a refund that is no longer possible, in its own words: a 409, not a 500. */
const REFUSED = new Set(['charge_already_refunded', 'amount_too_large', 'charge_disputed']);

/**
 * Refunds at Stripe: POST /v1/refunds against the payment intent that paid the invoice, with an
 * idempotency key of the operation. Stripe keeps the invoice 'paid' and the refunds on the payment;
 * what was paid back so far is read from its refunds of that payment intent, never stored here.
 */
export function createStripeRefunds(stripe: Stripe) {
  /** What was paid back from `paymentIntent` (refunds that did not fail or get cancelled). */
  async function refundedFrom(paymentIntent: string): Promise<number> {
    const list = await call(() => stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }));
    return list.data.filter((r) => r.status !== 'failed' && r.status !== 'canceled').reduce((a, r) => a + r.amount, 0);
  }

  return {
    async findRefundable(_tx, id) {
      if (!/^in_[A-Za-z0-9]+$/.test(id)) return undefined;
      let inv: Stripe.Invoice;
      try {
        inv = await stripe.invoices.retrieve(id, { expand: ['payments'] });
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) return undefined;
        throw toAppError(err);
      }
      const paid = inv.payments?.data.find((p) => p.status === 'paid' && p.payment.type === 'payment_intent');
      const paymentRef = idOf(paid?.payment.payment_intent) ?? undefined;
      const customerId = idOf(inv.customer);
      return {
        id: inv.id ?? id,
        number: inv.number ?? id,
        status: inv.status ?? 'draft',
        currency: inv.currency,
        amountPaid: inv.amount_paid,
        amountRefunded: paymentRef ? await refundedFrom(paymentRef) : 0,
        owner: customerId ? { customerId } : null,
        paymentRef,
      };
    },

    async refund(_tx, invoice, amount, opId) {
      if (!invoice.paymentRef) {
        throw new AppError('CONFLICT', `Invoice ${invoice.number} was not paid by card at Stripe, so it cannot be refunded here`);
      }
      try {
        const r = await stripe.refunds.create(
          { payment_intent: invoice.paymentRef, amount, metadata: { invoice: invoice.id } },
          { idempotencyKey: `${opId}:refund` },
        );
        return { id: r.id, amount: r.amount, currency: r.currency };
      } catch (err) {
        const e = err as { type?: string; code?: string; message?: string };
        if (e.type === 'StripeInvalidRequestError' && e.code && REFUSED.has(e.code)) {
          throw new AppError('CONFLICT', `Stripe refused the refund: ${e.message ?? e.code}`);
        }
        throw toAppError(err);
      }
    },
  } satisfies Pick<PaymentGateway, 'findRefundable' | 'refund'>;
}
