/**
 * Stripe Tax as the Stripe stand-in plays it: a customer's tax location from their address, and
 * the tax of an invoice's lines. The rates are the stand-in's own (a seller in Germany registered
 * in a few countries), so a test sees amounts only "Stripe" produced, never the portal's rates file.
 */

type Json = Record<string, unknown>;

/** Tax per customer country, in basis points; other countries are located but not collected in. */
export const WIRE_TAX_RATES: Record<string, number> = { DE: 1900, FR: 2000, AT: 2000, NL: 2100, GB: 2000 };
const EU = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV'];
EU.push('MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK');
/** The stand-in's seller: an EU business sale to another member state with a VAT number is reverse charged. */
const SELLER_COUNTRY = 'DE';

/** Stripe's tax ID types the stand-in knows (Stripe knows many more). */
export const WIRE_TAX_ID_TYPES = ['eu_vat', 'gb_vat', 'ch_vat', 'us_ein', 'no_vat', 'au_abn'];

export type WireAddress = {
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
};
export type WireTaxId = { id: string; type: string; value: string };
export type TaxLocation = { address: WireAddress | null; taxIds: { type: string; value: string }[] };
export type WireTaxAmount = { amount: number; taxable_amount: number; rate_bp: number; taxability_reason: string };

/** `address[...]` of a form body as Stripe keeps it (every field present, null when not given). */
export function addressOf(raw: unknown): WireAddress | null {
  if (!raw || typeof raw !== 'object') return null;
  const a = raw as Json;
  const s = (k: string) => (typeof a[k] === 'string' && a[k] !== '' ? (a[k] as string) : null);
  return {
    country: s('country'),
    line1: s('line1'),
    line2: s('line2'),
    postal_code: s('postal_code'),
    city: s('city'),
    state: s('state'),
  };
}

/**
 * Stripe's `customer.tax.automatic_tax`: `unrecognized_location` without a country (or a US
 * address without a postal code), `supported` where the seller collects tax, else `not_collecting`.
 */
export function automaticTaxStatus(address: WireAddress | null): 'supported' | 'not_collecting' | 'unrecognized_location' {
  const country = address?.country;
  if (!country || (country === 'US' && !address.postal_code)) return 'unrecognized_location';
  return country in WIRE_TAX_RATES || EU.includes(country) ? 'supported' : 'not_collecting';
}

/** The customer's `tax` hash (`expand[]=tax`). */
export const taxView = (address: WireAddress | null) => ({
  automatic_tax: automaticTaxStatus(address),
  ip_address: null,
  location: address?.country ? { country: address.country, source: 'billing_address', state: address.state } : null,
  provider: 'stripe',
});

/** One tax amount per line: the rate of the customer's location, rounded per line half away from zero. */
export function taxesOf(lines: readonly { amount: number }[], where: TaxLocation): WireTaxAmount[] {
  const country = where.address?.country ?? '';
  const reverse = country !== SELLER_COUNTRY && EU.includes(country) && where.taxIds.some((t) => t.type === 'eu_vat');
  const rate = reverse ? 0 : (WIRE_TAX_RATES[country] ?? 0);
  const reason = reverse ? 'reverse_charge' : rate ? 'standard_rated' : 'not_collecting';
  return lines.map((l) => ({
    amount: Math.sign(l.amount) * Math.round((Math.abs(l.amount) * rate) / 10000),
    taxable_amount: l.amount,
    rate_bp: rate,
    taxability_reason: reason,
  }));
}

/** An invoice's `total_taxes` (Stripe's API since 2025-03-31): one entry per line's tax. */
export const totalTaxesView = (taxes: readonly WireTaxAmount[]) =>
  taxes.map((t) => ({
    amount: t.amount,
    tax_behavior: 'exclusive',
    tax_rate_details: { tax_rate: `txr_wire_${t.rate_bp}` },
    taxability_reason: t.taxability_reason,
    taxable_amount: t.taxable_amount,
    type: 'tax_rate_details',
  }));

/** Stripe's error when automatic tax cannot locate the customer. */
export const LOCATION_INVALID = {
  type: 'invalid_request_error',
  code: 'customer_tax_location_invalid',
  message: "The customer's location isn't recognized. Provide a valid address or IP address to calculate tax.",
};
