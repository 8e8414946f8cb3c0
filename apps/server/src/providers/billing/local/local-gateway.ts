import type { ChangePreview } from '@portal/contract';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { InvoiceTermsOf, PaymentGateway, StatePatch } from '../gateway';
import { createLocalCards } from './local-cards';
import { createLocalCharges, type LocalPricing } from './local-charges';
import { localId } from './local-ids';
import { localDocuments, localInvoices, taxedRegime, toReceipt } from './local-invoices';
import { localRepository as repo } from './local.repository';
import { createLocalRefunds } from './local-refunds';
import { addIntervals, applyBalance, fullPeriod, nextPeriodEnd } from './proration';

/**
 * The embedded billing engine: cards (local-cards.ts), setup intents and numbered invoices
 * (local-invoices.ts) in our own database, charges (local-charges.ts), refunds and credits
 * (local-refunds.ts). This module holds the subscription's lifecycle and its renewals.
 */
export function createLocalGateway(deps: { pricing: LocalPricing; clock: Clock; terms: InvoiceTermsOf }) {
  const { pricing, clock } = deps;
  const { unitAmount, charge, payOpen, prorate } = createLocalCharges(deps);

  const gateway = {
    kind: 'local',
    publishableKey: undefined,

    async createCustomer() {
      return localId('cus');
    },

    ...createLocalCards({ clock }),

    async createSubscription(tx, input, save) {
      const now = clock.now();
      if (!input.cardId) throw new AppError('BAD_REQUEST', 'Add a card before subscribing.');
      const card = await repo.findCard(tx, input.customerId, input.cardId);
      if (!card) throw new AppError('NOT_FOUND', 'The card was not found');
      const price = unitAmount(input.interval);
      const end = addIntervals(now, input.interval, 1);
      const { row } = await save({
        providerId: localId('sub'),
        status: 'active',
        quantity: input.quantity,
        interval: input.interval,
        unitAmount: price,
        currency: pricing.currency,
        paymentMethodId: card.id,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: false,
        canceledAt: null,
      });
      const result = fullPeriod({
        plan: row.plan,
        interval: input.interval,
        unitAmount: price,
        quantity: input.quantity,
        periodStart: now,
        periodEnd: end,
      });
      const invoice = await charge(tx, { sub: row, billTo: input.billTo, result, reason: 'subscription_create' });
      return { row, invoice: toReceipt(invoice) };
    },

    async changeQuantity(tx, sub, quantity, billTo) {
      const result = prorate(sub, { quantity }, clock.now());
      const invoice = await charge(tx, { sub, billTo, result, reason: 'subscription_update' });
      return { state: { quantity }, invoice: toReceipt(invoice) };
    },

    async changeInterval(tx, sub, interval, billTo) {
      const result = prorate(sub, { interval }, clock.now());
      const invoice = await charge(tx, { sub, billTo, result, reason: 'subscription_interval_change' });
      const state = {
        interval,
        unitAmount: unitAmount(interval),
        currentPeriodStart: result.periodStart,
        currentPeriodEnd: result.periodEnd,
      };
      return { state, invoice: toReceipt(invoice) };
    },

    async setCancelAtPeriodEnd(_tx, _sub, cancel) {
      return { cancelAtPeriodEnd: cancel, canceledAt: cancel ? clock.now() : null };
    },

    async cancelNow() {
      // Nothing is charged after this: the billing record ending is all the local engine needs.
    },

    async payOpenInvoices(tx, sub, customerId, cardId) {
      // The card that takes over a past_due subscription becomes the customer's default too.
      await repo.setDefaultCard(tx, customerId, cardId);
      return payOpen(tx, sub, await repo.findCard(tx, customerId, cardId));
    },

    async preview(tx, sub, change) {
      const now = clock.now();
      const result = prorate(sub, change, now);
      const quantity = change.quantity ?? sub.quantity;
      const nextRenewalAt = change.interval ? result.periodEnd : sub.currentPeriodEnd;
      const nextRenewalAmount = (change.interval ? unitAmount(change.interval) : sub.unitAmount) * quantity;
      const balance = sub.userId ? await repo.creditBalance(tx, sub.userId) : 0;
      const terms = await deps.terms(tx, sub.userId ? { userId: sub.userId, email: '', name: '' } : null);
      const taxed = terms.tax(result.lines);
      const { amountDue, creditApplied } = applyBalance(taxed.total, balance);
      return {
        amountDue,
        subtotal: taxed.net,
        ...(taxedRegime(terms.regime)
          ? { tax: taxed.tax, total: taxed.total, taxLines: taxed.breakdown, taxNote: terms.note }
          : {}),
        creditApplied,
        currency: sub.currency,
        nextRenewalAt: nextRenewalAt.toISOString(),
        nextRenewalAmount,
        lines: result.lines,
      } satisfies ChangePreview;
    },

    ...localInvoices,

    ...createLocalRefunds({ clock, newId: (kind) => localId(kind === 'refund' ? 're' : 'cn') }),

    renewals: {
      /** A retry of a failed renewal: the open invoices, charged to the subscription's own card. */
      async retry(tx, sub) {
        return payOpen(tx, sub, sub.paymentMethodId ? await repo.findCardById(tx, sub.paymentMethodId) : undefined);
      },

      /**
       * One subscription whose period has ended: a new invoice for the next period, or the end of
       * a cancelled (or still unpaid) subscription. A failed renewal charge keeps the invoice open
       * and the subscription past_due; it ends at the following period end if still unpaid.
       */
      async renew(tx, sub, billTo) {
        if (sub.cancelAtPeriodEnd || sub.status === 'past_due') {
          const state: StatePatch = {
            status: 'canceled',
            cancelAtPeriodEnd: false,
            canceledAt: sub.canceledAt ?? sub.currentPeriodEnd,
          };
          return { outcome: 'ended', endedBecause: sub.cancelAtPeriodEnd ? 'cancelled' : 'unpaid', state };
        }
        const interval = sub.interval;
        const anchor = (await repo.billingAnchor(tx, sub.id)) ?? sub.currentPeriodStart;
        const start = sub.currentPeriodEnd;
        const end = nextPeriodEnd(anchor, interval, start);
        const result = fullPeriod({
          plan: sub.plan,
          interval,
          unitAmount: sub.unitAmount,
          quantity: sub.quantity,
          periodStart: start,
          periodEnd: end,
        });
        const invoice = await charge(tx, { sub, billTo, result, reason: 'subscription_cycle', failOpen: true });
        const paid = invoice.status === 'paid';
        const state: StatePatch = { status: paid ? 'active' : 'past_due', currentPeriodStart: start, currentPeriodEnd: end };
        return { outcome: paid ? 'renewed' : 'payment_failed', state, invoice: toReceipt(invoice) };
      },
    },
  } satisfies PaymentGateway;
  return { ...gateway, ...localDocuments };
}
export type LocalGateway = ReturnType<typeof createLocalGateway>;
