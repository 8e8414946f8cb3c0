import { randomBytes } from 'node:crypto';
import type { ChangePreview, Interval, Invoice, PaymentMethod } from '@portal/contract';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomSecret, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import {
  billingRepository as repo,
  type CardRow,
  type InvoiceRow,
  type SubscriptionRow,
} from '../../modules/billing/billing.repository';
import {
  addIntervals,
  applyBalance,
  fullPeriod,
  intervalChange,
  nextPeriodEnd,
  quantityChange,
  type ProrationResult,
} from '../../modules/billing/proration';
import { assertChargeable, checkCard, type CardInput } from './cards';
import type { BillTo, BillingProvider, PlannedChange } from './provider';

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

export type RenewalOutcome = {
  row: SubscriptionRow;
  invoice?: InvoiceRow;
  outcome: 'renewed' | 'payment_failed' | 'ended';
  endedBecause?: 'cancelled' | 'unpaid';
};

/**
 * The embedded billing engine: customers, cards, setup intents, subscriptions and numbered invoices
 * in our own database. A charge is an invoice row written in the caller's transaction after the
 * card's behaviour allows it, so a declined charge leaves nothing behind.
 */
export function createLocalEngine(deps: { config: Config; clock: Clock }) {
  const { pricing } = deps.config;
  const unitAmount = (interval: Interval) => (interval === 'month' ? pricing.monthUnitAmount : pricing.yearUnitAmount);

  /**
   * Writes the invoice of `result` and takes the payment. `failOpen` (renewals) keeps an unpaid
   * invoice open instead of failing the whole transaction.
   */
  async function charge(
    tx: Tx,
    p: { sub: SubscriptionRow; billTo: BillTo; result: ProrationResult; reason: string; failOpen?: boolean },
  ): Promise<InvoiceRow> {
    const now = deps.clock.now();
    const balance = await repo.creditBalance(tx, p.billTo.userId);
    const { amountDue } = applyBalance(p.result.subtotal, balance);
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
      createdAt: now,
    });
  }

  const engine = {
    kind: 'local' as const,
    publishableKey: undefined,

    async lockCustomer(tx, billTo) {
      const existing = await repo.lockCustomer(tx, billTo.userId);
      if (existing?.provider === 'local') return existing;
      // A customer of another provider (the vendor switched engines) starts afresh here.
      if (existing) await repo.replaceCustomer(tx, billTo.userId, 'local', localId('cus'), deps.clock.now());
      else {
        await repo.insertCustomer(tx, {
          userId: billTo.userId,
          provider: 'local',
          providerCustomerId: localId('cus'),
          createdAt: deps.clock.now(),
        });
      }
      const row = await repo.lockCustomer(tx, billTo.userId);
      return row!;
    },

    async createSetupIntent(tx, customerId) {
      const id = localId('seti');
      const clientSecret = `${id}_secret_${randomSecret()}`;
      await repo.insertSetupIntent(tx, { id, customerId, clientSecretHash: sha256(clientSecret), createdAt: deps.clock.now() });
      return clientSecret;
    },

    async listCards(tx, customerId) {
      return (await repo.listCards(tx, customerId)).map(toCard);
    },

    async setDefaultCard(tx, customerId, cardId) {
      await repo.setDefaultCard(tx, customerId, cardId);
    },

    async setSubscriptionCard(tx, sub, cardId) {
      return repo.updateSubscription(tx, sub.id, { paymentMethodId: cardId, updatedAt: deps.clock.now() });
    },

    async detachCard(tx, customerId, cardId) {
      await repo.detachCard(tx, customerId, cardId, deps.clock.now());
    },

    async createSubscription(tx, input) {
      const now = deps.clock.now();
      if (!input.cardId) throw new AppError('BAD_REQUEST', 'Add a card before subscribing.');
      const card = await repo.findCard(tx, input.customer.providerCustomerId, input.cardId);
      if (!card) throw new AppError('NOT_FOUND', 'The card was not found');
      const price = unitAmount(input.interval);
      const end = addIntervals(now, input.interval, 1);
      const row = await repo.insertSubscription(tx, {
        providerId: localId('sub'),
        userId: input.billTo.userId,
        provider: 'local',
        status: 'active',
        plan: pricing.plan,
        quantity: input.quantity,
        interval: input.interval,
        unitAmount: price,
        currency: pricing.currency,
        paymentMethodId: card.id,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        checkoutKey: input.checkoutKey,
        createdAt: now,
        updatedAt: now,
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
      return { row, invoice };
    },

    async changeQuantity(tx, sub, quantity, billTo) {
      const result = quantityChange({
        plan: sub.plan,
        interval: sub.interval as Interval,
        unitAmount: sub.unitAmount,
        oldQuantity: sub.quantity,
        newQuantity: quantity,
        periodStart: sub.currentPeriodStart,
        periodEnd: sub.currentPeriodEnd,
        now: deps.clock.now(),
      });
      const invoice = await charge(tx, { sub, billTo, result, reason: 'subscription_update' });
      const row = await repo.updateSubscription(tx, sub.id, { quantity, updatedAt: deps.clock.now() });
      return { row, invoice };
    },

    async changeInterval(tx, sub, interval, billTo) {
      const price = unitAmount(interval);
      const result = intervalChange({
        plan: sub.plan,
        quantity: sub.quantity,
        oldInterval: sub.interval as Interval,
        oldUnitAmount: sub.unitAmount,
        newInterval: interval,
        newUnitAmount: price,
        periodStart: sub.currentPeriodStart,
        periodEnd: sub.currentPeriodEnd,
        now: deps.clock.now(),
      });
      const invoice = await charge(tx, { sub, billTo, result, reason: 'subscription_interval_change' });
      const row = await repo.updateSubscription(tx, sub.id, {
        interval,
        unitAmount: price,
        currentPeriodStart: result.periodStart,
        currentPeriodEnd: result.periodEnd,
        updatedAt: deps.clock.now(),
      });
      return { row, invoice };
    },

    async setCancelAtPeriodEnd(tx, sub, cancel) {
      const now = deps.clock.now();
      return repo.updateSubscription(tx, sub.id, { cancelAtPeriodEnd: cancel, canceledAt: cancel ? now : null, updatedAt: now });
    },

    async cancelNow(tx, sub) {
      const now = deps.clock.now();
      return repo.updateSubscription(tx, sub.id, {
        status: 'canceled',
        cancelAtPeriodEnd: false,
        canceledAt: now,
        currentPeriodEnd: sub.currentPeriodEnd < now ? sub.currentPeriodEnd : now,
        updatedAt: now,
      });
    },

    async detachAllCards(tx, customerId) {
      await repo.detachAllCards(tx, customerId, deps.clock.now());
    },

    async preview(tx, sub, change: PlannedChange) {
      const now = deps.clock.now();
      let result: ProrationResult;
      let nextRenewalAt = sub.currentPeriodEnd;
      let nextRenewalAmount = sub.unitAmount * (change.quantity ?? sub.quantity);
      if (change.quantity !== undefined) {
        result = quantityChange({
          plan: sub.plan,
          interval: sub.interval as Interval,
          unitAmount: sub.unitAmount,
          oldQuantity: sub.quantity,
          newQuantity: change.quantity,
          periodStart: sub.currentPeriodStart,
          periodEnd: sub.currentPeriodEnd,
          now,
        });
      } else {
        const interval = change.interval!;
        result = intervalChange({
          plan: sub.plan,
          quantity: sub.quantity,
          oldInterval: sub.interval as Interval,
          oldUnitAmount: sub.unitAmount,
          newInterval: interval,
          newUnitAmount: unitAmount(interval),
          periodStart: sub.currentPeriodStart,
          periodEnd: sub.currentPeriodEnd,
          now,
        });
        nextRenewalAt = result.periodEnd;
        nextRenewalAmount = unitAmount(interval) * sub.quantity;
      }
      const balance = sub.userId ? await repo.creditBalance(tx, sub.userId) : 0;
      const { amountDue, creditApplied } = applyBalance(result.subtotal, balance);
      return {
        amountDue,
        subtotal: result.subtotal,
        creditApplied,
        currency: sub.currency,
        nextRenewalAt: nextRenewalAt.toISOString(),
        nextRenewalAmount,
        lines: result.lines,
      } satisfies ChangePreview;
    },

    async listInvoices(tx, sub) {
      return (await repo.listInvoices(tx, sub.id)).map((i): Invoice => ({
        id: i.id,
        number: i.number,
        status: i.status,
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        currency: i.currency,
        created: i.createdAt.toISOString(),
        periodStart: i.periodStart.toISOString(),
        periodEnd: i.periodEnd.toISOString(),
        url: invoiceUrl(i.id),
      }));
    },
  } satisfies BillingProvider;

  return {
    ...engine,

    /** The local card form: validates the card like Stripe's SetupIntent confirmation and stores brand, last 4 and expiry. */
    async confirmSetup(tx: Tx, customerId: string, input: CardInput & { clientSecret: string }): Promise<CardRow> {
      const intent = await repo.lockSetupIntent(tx, customerId, sha256(input.clientSecret));
      if (!intent) throw new AppError('NOT_FOUND', 'This card setup was not found. Start adding the card again.');
      if (intent.status === 'succeeded') {
        throw new AppError('CONFLICT', 'This card setup was already used. Start again to add another card.');
      }
      const now = deps.clock.now();
      const card = checkCard(input, now);
      const existing = await repo.listCards(tx, customerId);
      const id = localId('pm');
      const row: CardRow = {
        id,
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
      await repo.completeSetupIntent(tx, intent.id, id);
      return row;
    },

    /**
     * Renews one subscription whose period has ended: a new invoice for the next period, or the
     * end of a cancelled (or still unpaid) subscription. A failed renewal charge keeps the invoice
     * open and the subscription past_due; it ends at the following period end if still unpaid.
     */
    async renew(tx: Tx, sub: SubscriptionRow, billTo: BillTo): Promise<RenewalOutcome> {
      const now = deps.clock.now();
      if (sub.cancelAtPeriodEnd || sub.status === 'past_due') {
        const row = await repo.updateSubscription(tx, sub.id, {
          status: 'canceled',
          cancelAtPeriodEnd: false,
          canceledAt: sub.canceledAt ?? sub.currentPeriodEnd,
          updatedAt: now,
        });
        return { row, outcome: 'ended', endedBecause: sub.cancelAtPeriodEnd ? 'cancelled' : 'unpaid' };
      }
      const interval = sub.interval as Interval;
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
      const row = await repo.updateSubscription(tx, sub.id, {
        status: paid ? 'active' : 'past_due',
        currentPeriodStart: start,
        currentPeriodEnd: end,
        updatedAt: now,
      });
      return { row, invoice, outcome: paid ? 'renewed' : 'payment_failed' };
    },

    /** Pays a past_due subscription's open invoices with `cardId`; answers the invoices now paid. */
    async payOpenInvoices(tx: Tx, sub: SubscriptionRow, cardId: string, customerId: string): Promise<InvoiceRow[]> {
      const card = await repo.findCard(tx, customerId, cardId);
      if (!card) return [];
      try {
        assertChargeable(card.behaviour);
      } catch {
        return [];
      }
      const paid: InvoiceRow[] = [];
      for (const inv of await repo.openInvoices(tx, sub.id)) {
        paid.push(await repo.updateInvoice(tx, inv.id, { status: 'paid', amountPaid: inv.amountDue }));
      }
      return paid;
    },
  };
}
export type LocalEngine = ReturnType<typeof createLocalEngine>;
