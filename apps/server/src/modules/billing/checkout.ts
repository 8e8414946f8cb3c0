import type { CheckoutPreview, Interval, Subscription } from '@portal/contract';
import { sha256 } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import { billToOf, type BillingContext, type BillingUser } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import { billingDetailsRepository as details } from './billing-details.repository';
import { addIntervals, fullPeriod } from '../../providers/billing/local/proration';
import type { ProviderTaxSync } from './provider-tax';

/** The built-in tax engine needs the buyer's country before the first sale (the rate depends on it). */
export const COUNTRY_FIRST = 'Add your billing address (at least the country) before buying: the tax depends on it.';

/** A double-submitted checkout (same user, interval and quantity) within this window is the same purchase. */
export const CHECKOUT_DEDUP_MS = 10_000;

export type CheckoutBody = { interval: Interval; quantity: number; paymentMethodId?: string | undefined };
export type CheckoutResult = { subscription: Subscription; clientSecret?: string; created: boolean };

/**
 * Buys a subscription and issues its license in one transaction. Idempotent: a client-supplied
 * Idempotency-Key names the purchase; without one, the same user buying the same interval and
 * quantity again within CHECKOUT_DEDUP_MS gets the first answer (a double-click or a retried
 * request), never a second subscription or charge. The customer row lock serialises both.
 */
export function createCheckout(ctx: BillingContext, providerTax: ProviderTaxSync) {
  const { db, clock, outbox, config } = ctx;
  /** Tax comes from the built-in engine (the local engine, the seller registered for VAT) or from Stripe Tax. */
  const taxedHere = () => (config.seller.vatRegistered && ctx.gateway.kind === 'local') || providerTax.on;

  /** What a checkout of `quantity` at `interval` would charge now: net, tax and total (changes nothing). */
  async function previewCheckout(user: BillingUser, interval: Interval, quantity: number): Promise<CheckoutPreview> {
    const now = clock.now();
    const unitAmount = interval === 'month' ? config.pricing.monthUnitAmount : config.pricing.yearUnitAmount;
    const period = fullPeriod({
      plan: config.pricing.plan,
      interval,
      unitAmount,
      quantity,
      periodStart: now,
      periodEnd: addIntervals(now, interval, 1),
    });
    const billTo = billToOf(user);
    // Stripe Tax: Stripe's preview of the first invoice, for the billing details as saved.
    const fromProvider = await providerTax.previewCheckout(db, { id: user.id, name: billTo.name }, interval, quantity);
    if (fromProvider) return fromProvider;
    const terms = await ctx.terms(db, billTo);
    // With Stripe, Stripe's invoice carries the tax (Stripe Tax); the built-in engine adds none there.
    const taxed =
      ctx.gateway.kind === 'local'
        ? terms.tax(period.lines)
        : { net: period.subtotal, tax: 0, total: period.subtotal, breakdown: [] };
    return {
      subtotal: taxed.net,
      tax: taxed.tax,
      total: taxed.total,
      taxLines: taxed.breakdown,
      taxNote: ctx.gateway.kind === 'local' ? terms.note : null,
      currency: config.pricing.currency,
      lines: period.lines,
    };
  }

  async function checkout(user: BillingUser, body: CheckoutBody, idempotencyKey?: string): Promise<CheckoutResult> {
    const now = clock.now();
    const checkoutKey = idempotencyKey
      ? `client:${sha256(`${user.id}:${idempotencyKey}`)}`
      : `auto:${sha256([user.id, body.interval, body.quantity, body.paymentMethodId ?? '', Math.floor(now.getTime() / CHECKOUT_DEDUP_MS)].join('|'))}`;
    const result = await db.transaction(async (tx) => {
      if (taxedHere() && !(await details.find(tx, user.id))) throw new AppError('BAD_REQUEST', COUNTRY_FIRST);
      const billTo = billToOf(user);
      const customer = await ctx.lockCustomer(tx, billTo);
      const earlier =
        (await repo.findByCheckoutKey(tx, user.id, checkoutKey)) ??
        (idempotencyKey
          ? undefined
          : await repo.findRecentCheckout(
              tx,
              user.id,
              body.interval,
              body.quantity,
              new Date(now.getTime() - CHECKOUT_DEDUP_MS),
            ));
      if (earlier) {
        if (earlier.interval !== body.interval || earlier.quantity !== body.quantity) {
          throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different purchase.');
        }
        return { row: earlier, created: false };
      }
      const gateway = ctx.gateway;
      const cards = await gateway.listCards(tx, customer.providerCustomerId);
      if (body.paymentMethodId && !cards.some((c) => c.id === body.paymentMethodId)) throw notFound('The card');
      const cardId = body.paymentMethodId ?? (cards.find((c) => c.isDefault) ?? cards[0])?.id ?? null;
      await providerTax.beforeCheckout(tx, user.id, customer.providerCustomerId, billTo.name);
      const created = await gateway.createSubscription(
        tx,
        {
          customerId: customer.providerCustomerId,
          billTo,
          interval: body.interval,
          quantity: body.quantity,
          cardId,
          checkoutKey,
          plan: config.pricing.plan,
        },
        async (state) => {
          const saved = await repo.saveProviderState(tx, gateway.kind, state, {
            userId: user.id,
            plan: config.pricing.plan,
            checkoutKey,
            at: clock.now(),
          });
          return { row: saved.row!, before: saved.before };
        },
      );
      const row = created.row;
      await ctx.transition(tx, created.before, row, { actor: user.email, cause: { kind: 'created', invoice: created.invoice } });
      if (created.invoice) await ctx.sendReceipt(tx, billTo, created.invoice, row);
      return { row, created: true, clientSecret: created.clientSecret };
    });
    void outbox.kick();
    return {
      subscription: await ctx.withKey(result.row),
      created: result.created,
      ...('clientSecret' in result && result.clientSecret ? { clientSecret: result.clientSecret } : {}),
    };
  }

  return { checkout, previewCheckout };
}
