import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { CheckoutPreview, Interval, TaxLine } from '@portal/contract';
import { ADDRESS_NOT_LOCATED, type ProviderTax, type TaxCustomer } from '../gateway';
import { AppError } from '../../../lib/errors';
import { call, toAppError } from './stripe-client';
import { previewLinesOf, stripeTotals } from './stripe-mapping';

/** Stripe Tax cannot place a customer with these statuses of `customer.tax.automatic_tax`. */
const UNLOCATED = new Set(['unrecognized_location', 'failed']);

/** The portal's billing details as Stripe's address and `customer_details`. */
function addressOf(c: TaxCustomer): Stripe.AddressParam {
  const a = c.address;
  return {
    country: a.country,
    line1: a.line1 ?? '',
    line2: a.line2 ?? '',
    postal_code: a.postalCode ?? '',
    city: a.city ?? '',
    state: a.region ?? '',
  };
}

/** The tax per rate of an invoice: Stripe names each rate by id, its percentage is on the rate. */
export async function stripeTaxLines(stripe: Stripe, inv: Stripe.Invoice): Promise<TaxLine[]> {
  const byRate = new Map<string, TaxLine>();
  for (const t of inv.total_taxes ?? []) {
    const id = t.tax_rate_details?.tax_rate ?? '';
    const line = byRate.get(id) ?? { rateBp: 0, net: 0, tax: 0 };
    line.net += t.taxable_amount ?? 0;
    line.tax += t.amount;
    byRate.set(id, line);
  }
  for (const [id, line] of byRate) {
    if (!id) continue;
    const rate = await call(() => stripe.taxRates.retrieve(id));
    line.rateBp = Math.round((rate.effective_percentage ?? rate.percentage) * 100);
  }
  return [...byRate.values()];
}

/** A Stripe call whose refusal to place the customer's address is the customer's 400. */
async function previewOrRefuse<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as { code?: string }).code === 'customer_tax_location_invalid')
      throw new AppError('BAD_REQUEST', ADDRESS_NOT_LOCATED);
    throw toAppError(err);
  }
}

/**
 * Stripe Tax (`STRIPE_TAX`, ADR 115): Stripe calculates the tax from the address and tax ID on its
 * customer, which the portal keeps equal to the customer's billing details. Rates, registrations
 * and the tax's rules are Stripe's; the portal writes the details, asks for automatic tax on every
 * subscription and preview, and shows the amounts Stripe answers.
 */
export function createStripeTax(stripe: Stripe, priceOf: (interval: Interval) => string): ProviderTax {
  return {
    async syncCustomer(customerId, c, opId) {
      // The address first, checked by Stripe Tax at once (`validate_location`): an address it cannot
      // place is refused before anything at Stripe changes (Stripe's customer-locations guide).
      let customer: Stripe.Customer;
      try {
        customer = await stripe.customers.update(
          customerId,
          { name: c.name || undefined, address: addressOf(c), tax: { validate_location: 'immediately' }, expand: ['tax'] },
          { idempotencyKey: `${opId}:address` },
        );
      } catch (err) {
        if ((err as { code?: string }).code === 'customer_tax_location_invalid') return { located: false };
        throw toAppError(err);
      }
      const existing = await call(() => stripe.customers.listTaxIds(customerId, { limit: 100 }));
      const kept = c.taxId ? existing.data.find((t) => t.type === c.taxId!.type && t.value === c.taxId!.value) : undefined;
      if (c.taxId && !kept) {
        const { type, value } = c.taxId;
        await call(() =>
          stripe.customers.createTaxId(
            customerId,
            { type: type as Stripe.CustomerCreateTaxIdParams.Type, value },
            { idempotencyKey: `${opId}:tax-id` },
          ),
        ).catch((err: { code?: string; message?: string }) => {
          if (err.code === 'tax_id_invalid') throw new AppError('BAD_REQUEST', err.message ?? 'Stripe refused this tax ID.');
          throw err;
        });
      }
      for (const old of existing.data) {
        if (old.id === kept?.id) continue;
        await call(() => stripe.customers.deleteTaxId(customerId, old.id)).catch((err: { statusCode?: number }) => {
          // Already gone (a retried save): nothing left to remove.
          if (err.statusCode !== 404) throw err;
        });
      }
      return { located: !UNLOCATED.has(customer.tax?.automatic_tax ?? 'unrecognized_location') };
    },

    async enableFor(sub, opId) {
      const s = await call(() => stripe.subscriptions.retrieve(sub.providerId));
      if (s.automatic_tax?.enabled || s.status === 'canceled' || s.status === 'incomplete_expired') return false;
      await call(() =>
        stripe.subscriptions.update(
          sub.providerId,
          { automatic_tax: { enabled: true } },
          { idempotencyKey: `${opId}:automatic-tax:${sub.providerId}` },
        ),
      );
      return true;
    },

    async previewCheckout(c, interval, quantity): Promise<CheckoutPreview> {
      const inv = await previewOrRefuse(() =>
        stripe.invoices.createPreview(
          {
            automatic_tax: { enabled: true },
            customer_details: {
              address: addressOf(c),
              ...(c.taxId
                ? { tax_ids: [{ type: c.taxId.type as Stripe.CustomerCreateTaxIdParams.Type, value: c.taxId.value }] }
                : {}),
            },
            subscription_details: { items: [{ price: priceOf(interval), quantity }] },
          },
          // A preview writes nothing, but every POST carries a key of its own operation.
          { idempotencyKey: `preview:${randomUUID()}` },
        ),
      );
      const t = stripeTotals(inv);
      const reverse = (inv.total_taxes ?? []).some((x) => x.taxability_reason === 'reverse_charge');
      return {
        subtotal: t.subtotal,
        tax: t.tax,
        total: t.total,
        taxLines: t.tax !== 0 ? await stripeTaxLines(stripe, inv) : [],
        taxNote: reverse ? 'Reverse charge' : null,
        currency: inv.currency,
        lines: previewLinesOf(inv),
      };
    },
  };
}
