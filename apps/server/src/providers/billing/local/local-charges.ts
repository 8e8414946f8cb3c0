import type { Interval } from '@portal/contract';
import type { Tx } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { BillTo, InvoiceTermsOf, Payment, Receipt, SubscriptionRecord } from '../gateway';
import { assertChargeable } from './cards';
import { toReceipt } from './local-invoices';
import { localRepository as repo, type CardRow, type InvoiceRow } from './local.repository';
import { applyBalance, intervalChange, quantityChange, type ProrationResult } from './proration';

export type LocalPricing = { plan: string; currency: string; monthUnitAmount: number; yearUnitAmount: number };

/**
 * Charges of the local engine: a charge is an invoice row written in the caller's transaction after
 * the card's behaviour allows it, so a declined charge leaves nothing behind; the proration of a
 * change says what it charges.
 */
export function createLocalCharges(deps: { pricing: LocalPricing; clock: Clock; terms: InvoiceTermsOf }) {
  const { pricing, clock } = deps;
  const unitAmount = (interval: Interval) => (interval === 'month' ? pricing.monthUnitAmount : pricing.yearUnitAmount);

  /**
   * Writes the invoice of `result` and takes the payment. `failOpen` (renewals) keeps an unpaid
   * invoice open instead of failing the whole transaction.
   */
  async function charge(
    tx: Tx,
    p: { sub: SubscriptionRecord; billTo: BillTo; result: ProrationResult; reason: string; failOpen?: boolean },
  ): Promise<InvoiceRow> {
    const balance = await repo.creditBalance(tx, p.billTo.userId);
    // The parties and the tax as they are now: copied onto the invoice, never rewritten later.
    const terms = await deps.terms(tx, p.billTo);
    const taxed = terms.tax(p.result.lines);
    const { amountDue } = applyBalance(taxed.total, balance);
    let paid = true;
    if (amountDue > 0) {
      const card = p.sub.paymentMethodId ? await repo.findCardById(tx, p.sub.paymentMethodId) : undefined;
      try {
        if (!card) throw new AppError('CARD_DECLINED', 'There is no card to charge. Add a card and try again.');
        assertChargeable(card.behaviour);
      } catch (err) {
        if (!p.failOpen) throw err;
        paid = false;
      }
    }
    return repo.insertInvoice(tx, {
      subscriptionId: p.sub.id,
      userId: p.billTo.userId,
      status: paid ? 'paid' : 'open',
      currency: p.sub.currency,
      amountDue,
      amountPaid: paid ? amountDue : 0,
      periodStart: p.result.periodStart,
      periodEnd: p.result.periodEnd,
      lines: p.result.lines,
      customerName: p.billTo.name,
      customerEmail: p.billTo.email,
      reason: p.reason,
      createdAt: clock.now(),
      taxAmount: taxed.tax,
      taxBreakdown: taxed.breakdown,
      taxRegime: terms.regime,
      taxNote: terms.note,
      buyer: terms.buyer,
      seller: terms.seller,
    });
  }

  /** Pays a subscription's open invoices with `card`, if it can pay: what was paid and the new state. */
  async function payOpen(tx: Tx, sub: SubscriptionRecord, card: CardRow | undefined): Promise<Payment> {
    if (!card) return { state: {}, paid: [] };
    try {
      assertChargeable(card.behaviour);
    } catch (err) {
      return { state: {}, paid: [], declined: err instanceof Error ? err.message : 'Your card was declined.' };
    }
    const paid: Receipt[] = [];
    for (const inv of await repo.openInvoices(tx, sub.id)) {
      paid.push(toReceipt(await repo.updateInvoice(tx, inv.id, { status: 'paid', amountPaid: inv.amountDue })));
    }
    return { state: paid.length > 0 ? { status: 'active', nextPaymentAttemptAt: null } : {}, paid };
  }

  /** The proration of a planned quantity or interval change at `now`. */
  function prorate(sub: SubscriptionRecord, change: { quantity?: number; interval?: Interval }, now: Date) {
    const interval = sub.interval;
    if (change.quantity !== undefined) {
      return quantityChange({
        plan: sub.plan,
        interval,
        unitAmount: sub.unitAmount,
        oldQuantity: sub.quantity,
        newQuantity: change.quantity,
        periodStart: sub.currentPeriodStart,
        periodEnd: sub.currentPeriodEnd,
        now,
      });
    }
    const next = change.interval!;
    return intervalChange({
      plan: sub.plan,
      quantity: sub.quantity,
      oldInterval: interval,
      oldUnitAmount: sub.unitAmount,
      newInterval: next,
      newUnitAmount: unitAmount(next),
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
      now,
    });
  }

  return { unitAmount, charge, payOpen, prorate };
}
