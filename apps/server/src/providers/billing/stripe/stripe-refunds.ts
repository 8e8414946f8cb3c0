import type Stripe from 'stripe';
import { AppError } from '../../../lib/errors';
import type { PaymentGateway } from '../gateway';
import { call, toAppError } from './stripe-client';
import { fromUnix, idOf, periodOf } from './stripe-mapping';

/** Stripe's refusals of a refund that is no longer possible, in its own words: a 409, not a 500. */
const REFUSED = new Set(['charge_already_refunded', 'amount_too_large', 'charge_disputed']);

/**
 * Refunds and credits at Stripe, each with an idempotency key of the operation. A refund is POST
 * /v1/refunds against the payment intent that paid the invoice; a credit is a credit note on the
 * invoice whose whole amount goes to the customer's balance (Stripe takes it off the next invoices).
 * Stripe keeps the invoice 'paid'; what was given back so far is read from its refunds of that
 * payment intent and the invoice's credit notes, never stored here.
 */
export function createStripeRefunds(stripe: Stripe) {
  /** What was paid back from `paymentIntent` (refunds that did not fail or get cancelled). */
  async function refundedFrom(paymentIntent: string): Promise<number> {
    const list = await call(() => stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }));
    return list.data.filter((r) => r.status !== 'failed' && r.status !== 'canceled').reduce((a, r) => a + r.amount, 0);
  }

  /** What the invoice's credit notes put on the customer's balance (their refunds are counted as refunds). */
  async function creditedOn(invoiceId: string): Promise<number> {
    const list = await call(() => stripe.creditNotes.list({ invoice: invoiceId, limit: 100 }));
    return list.data
      .filter((n) => n.status !== 'void')
      .reduce((a, n) => a + n.total - n.refunds.reduce((r, x) => r + x.amount_refunded, 0) - (n.out_of_band_amount ?? 0), 0);
  }

  /** Stripe's refusal of something no longer possible is a 409 in its words; anything else as every call maps it. */
  function refused(err: unknown, what: string): unknown {
    const e = err as { type?: string; code?: string; param?: string; message?: string };
    // A credit note over what is left names its amount (Stripe gives no code for it).
    const overAmount = e.param === 'amount' || e.param === 'credit_amount';
    if (e.type === 'StripeInvalidRequestError' && ((e.code && REFUSED.has(e.code)) || overAmount)) {
      return new AppError('CONFLICT', `Stripe refused the ${what}: ${e.message ?? e.code}`);
    }
    return toAppError(err);
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
      const sub = inv.parent?.subscription_details?.subscription;
      return {
        id: inv.id ?? id,
        number: inv.number ?? id,
        status: inv.status ?? 'draft',
        currency: inv.currency,
        amountPaid: inv.amount_paid,
        amountReturned: (paymentRef ? await refundedFrom(paymentRef) : 0) + (await creditedOn(inv.id ?? id)),
        owner: customerId ? { customerId } : null,
        paymentRef,
        held: {
          amountDue: inv.amount_due,
          subscriptionId: idOf(sub ?? null),
          ...periodOf(inv),
          createdAt: fromUnix(inv.created),
        },
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
        throw refused(err, 'refund');
      }
    },

    async credit(_tx, invoice, amount, opId) {
      try {
        const n = await stripe.creditNotes.create(
          { invoice: invoice.id, amount, credit_amount: amount, metadata: { invoice: invoice.id } },
          { idempotencyKey: `${opId}:credit` },
        );
        return { id: n.id, amount: n.total, currency: n.currency };
      } catch (err) {
        throw refused(err, 'credit');
      }
    },
  } satisfies Pick<PaymentGateway, 'findRefundable' | 'refund' | 'credit'>;
}
