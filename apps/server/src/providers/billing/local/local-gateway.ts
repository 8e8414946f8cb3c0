import { randomBytes } from 'node:crypto';
import { refundedStatus, type ChangePreview, type Interval, type Invoice, type PaymentMethod } from '@portal/contract';
import type { Tx } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { randomSecret, sha256 } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import type { BillTo, InvoiceTermsOf, Payment, PaymentGateway, Receipt, StatePatch, SubscriptionRecord } from '../gateway';
import { assertChargeable, checkCard } from './cards';
import { localRepository as repo, type CardRow, type CreditNoteRow, type InvoiceRow } from './local.repository';
import { createLocalRefunds } from './local-refunds';
import { applyBalance, fullPeriod, intervalChange, nextPeriodEnd, quantityChange, type ProrationResult } from './proration';
import { addIntervals } from './proration';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Stripe-looking ids (sub_…, pm_…): 24 random base-62 characters after the prefix. */
export function localId(prefix: string): string {
  const bytes = randomBytes(24);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 62];
  return `${prefix}_${out}`;
}

export const toCard = (c: CardRow): PaymentMethod => ({
  id: c.id,
  brand: c.brand,
  last4: c.last4,
  expMonth: c.expMonth,
  expYear: c.expYear,
  isDefault: c.isDefault,
});

export const invoiceUrl = (id: string) => `/api/billing/invoices/${id}`;

/** What every view of an invoice shows. */
const amounts = (i: InvoiceRow) => ({
  id: i.id,
  number: i.number,
  status: i.status,
  amountDue: i.amountDue,
  amountPaid: i.amountPaid,
  currency: i.currency,
});
/** Net, tax and total of a taxed invoice (the lines are net; total = net + tax, before account credit); nothing where no tax applies. */
const totals = (i: InvoiceRow) => {
  if (!taxedRegime(i.taxRegime)) return {};
  const subtotal = i.lines.reduce((s, l) => s + l.amount, 0);
  return { subtotal, tax: i.taxAmount, total: subtotal + i.taxAmount };
};
/** Whether a regime puts tax figures on documents (an invoice of a seller not registered for VAT shows none). */
const taxedRegime = (regime: string | null) => regime !== null && regime !== 'none';

const toReceipt = (i: InvoiceRow): Receipt => ({
  ...amounts(i),
  createdAt: i.createdAt,
  lines: i.lines.map((l) => ({
    description: l.description,
    quantity: l.quantity,
    amount: l.amount,
    periodStart: new Date(l.periodStart),
    periodEnd: new Date(l.periodEnd),
  })),
  url: invoiceUrl(i.id),
});

/** The credit notes of an invoice as its list entry shows them (absent when it has none). */
function creditNotesOf(notes: CreditNoteRow[], invoiceId: string) {
  const own = notes.filter((n) => n.invoiceId === invoiceId);
  if (own.length === 0) return {};
  return {
    creditNotes: own.map((n) => ({
      id: n.id,
      number: n.number,
      kind: n.kind as 'refund' | 'credit',
      amount: n.total,
      created: n.createdAt.toISOString(),
      url: creditNoteUrl(n.id),
    })),
  };
}
export const creditNoteUrl = (id: string) => `/api/billing/credit-notes/${id}/pdf`;

export type LocalPricing = { plan: string; currency: string; monthUnitAmount: number; yearUnitAmount: number };

/**
 * The embedded billing engine: cards, setup intents and numbered invoices in our own database. A
 * charge is an invoice row written in the caller's transaction after the card's behaviour allows
 * it, so a declined charge leaves nothing behind.
 */
export function createLocalGateway(deps: { pricing: LocalPricing; clock: Clock; terms: InvoiceTermsOf }) {
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

  /** What only the built-in engine has: its credit notes, for their documents. */
  const documents = {
    /** The owner's credit note (local engine only; Stripe issues its own). */
    async creditNoteDocument(tx: Tx, userId: string, id: string) {
      const note = await repo.findCreditNoteForUser(tx, userId, id);
      if (!note) return undefined;
      const invoice = await repo.findInvoiceById(tx, note.invoiceId);
      return invoice ? { note, invoice } : undefined;
    },

    /** Any customer's invoice by id (the vendor's console). */
    invoiceById: (tx: Tx, id: string) => repo.findInvoiceById(tx, id),

    /** Refunded and credited totals of an invoice (its status on documents). */
    refundedTotals: (tx: Tx, ids: string[]) => repo.refundedTotals(tx, ids),
  };

  const gateway = {
    kind: 'local',
    publishableKey: undefined,

    async createCustomer() {
      return localId('cus');
    },

    async createSetupIntent(tx, customerId) {
      const id = localId('seti');
      const clientSecret = `${id}_secret_${randomSecret()}`;
      await repo.insertSetupIntent(tx, { id, customerId, clientSecretHash: sha256(clientSecret), createdAt: clock.now() });
      return clientSecret;
    },

    async listCards(tx, customerId) {
      return (await repo.listCards(tx, customerId)).map(toCard);
    },

    async setDefaultCard(tx, customerId, cardId) {
      await repo.setDefaultCard(tx, customerId, cardId);
    },

    async setSubscriptionCard(_tx, _sub, cardId) {
      return { paymentMethodId: cardId };
    },

    async detachCard(tx, customerId, cardId) {
      await repo.detachCard(tx, customerId, cardId, clock.now());
    },

    async detachAllCards(tx, customerId) {
      await repo.detachAllCards(tx, customerId, clock.now());
    },

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

    async listInvoices(tx, sub) {
      const rows = await repo.listInvoices(tx, sub.id);
      const refunded = await repo.refundedTotals(
        tx,
        rows.map((i) => i.id),
      );
      const notes = await repo.creditNotesOf(
        tx,
        rows.map((i) => i.id),
      );
      return rows.map((i): Invoice => ({
        ...amounts(i),
        ...totals(i),
        ...creditNotesOf(notes, i.id),
        status: refundedStatus(i.status, i.amountPaid, refunded.get(i.id)?.refunded ?? 0),
        created: i.createdAt.toISOString(),
        periodStart: i.periodStart.toISOString(),
        periodEnd: i.periodEnd.toISOString(),
        url: invoiceUrl(i.id),
      }));
    },

    async invoiceDocument(tx, owner, id) {
      const inv = await repo.findInvoiceForUser(tx, owner.userId, id);
      return inv ? { printable: inv } : undefined;
    },

    async exportInvoices(tx, userId, subs) {
      const providerIds = new Map(subs.map((s) => [s.id, s.providerId]));
      const rows = await repo.listInvoicesForUser(tx, userId);
      const refunded = await repo.refundedTotals(
        tx,
        rows.map((i) => i.id),
      );
      return rows.map((i) => ({
        id: i.id,
        number: i.number,
        subscription: i.subscriptionId ? (providerIds.get(i.subscriptionId) ?? null) : null,
        status: i.status,
        currency: i.currency,
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        amountRefunded: refunded.get(i.id)?.refunded ?? 0,
        amountCredited: refunded.get(i.id)?.credited ?? 0,
        periodStart: i.periodStart.toISOString(),
        periodEnd: i.periodEnd.toISOString(),
        created: i.createdAt.toISOString(),
        lines: i.lines,
      }));
    },

    async anonymiseCustomer(tx, userId, replacement) {
      await repo.anonymiseInvoices(tx, userId, replacement);
    },

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

    cardForm: {
      /** Validates the card like Stripe's SetupIntent confirmation and stores brand, last 4 and expiry. */
      async confirmSetup(tx, customerId, input) {
        const intent = await repo.lockSetupIntent(tx, customerId, sha256(input.clientSecret));
        if (!intent) throw new AppError('NOT_FOUND', 'This card setup was not found. Start adding the card again.');
        if (intent.status === 'succeeded') {
          throw new AppError('CONFLICT', 'This card setup was already used. Start again to add another card.');
        }
        const now = clock.now();
        const card = checkCard(input, now);
        const existing = await repo.listCards(tx, customerId);
        const row: CardRow = {
          id: localId('pm'),
          customerId,
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          behaviour: card.behaviour,
          isDefault: existing.length === 0,
          createdAt: now,
          detachedAt: null,
        };
        await repo.insertCard(tx, row);
        await repo.completeSetupIntent(tx, intent.id, row.id);
        return toCard(row);
      },
    },
  } satisfies PaymentGateway;
  return { ...gateway, ...documents };
}
export type LocalGateway = ReturnType<typeof createLocalGateway>;
