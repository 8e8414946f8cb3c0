import { isEuCountry, type TaxIdStatus, type TaxIdType } from '@portal/contract';
import type { TaxRates } from './tax-rates';

/**
 * The built-in tax engine (docs/decisions/110-invoicing-and-tax.md). Pure: the regime of a sale
 * from the seller's and the buyer's country and tax ID, and the tax of an invoice's lines.
 *
 * - none: the seller is not registered for VAT (a fresh install): no tax.
 * - domestic: buyer in the seller's country (or no country known yet): that country's rate.
 * - eu_consumer: EU seller, buyer in another member state without a valid VAT number: the buyer
 *   country's rate (place of supply of electronically supplied services to consumers, OSS).
 * - reverse_charge: EU seller, buyer in another member state with a VAT number VIES found valid: 0 %.
 * - export: buyer outside the seller's tax area (the EU for an EU seller, else its own country): 0 %.
 */
export type TaxRegime = 'none' | 'domestic' | 'eu_consumer' | 'reverse_charge' | 'export';

export type TaxDecision = {
  regime: TaxRegime;
  /** Whose rate applies (null: no tax). */
  country: string | null;
  /** Basis points: 1900 = 19 %. */
  rateBp: number;
  /** The sentence the invoice must carry for this regime, if any. */
  note: string | null;
};

export type TaxSeller = { vatRegistered: boolean; country: string | undefined };
export type TaxBuyer = {
  country: string;
  taxId: { type: TaxIdType; value: string; status: TaxIdStatus } | null;
} | null;

export const REVERSE_CHARGE_NOTE =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).';
export const EXPORT_NOTE =
  'Export: supply outside the scope of VAT in the seller\u2019s country (place of supply outside its tax area).';

export function decideTax(seller: TaxSeller, buyer: TaxBuyer, rates: TaxRates): TaxDecision {
  if (!seller.vatRegistered || !seller.country) return { regime: 'none', country: null, rateBp: 0, note: null };
  const rate = (country: string) => {
    const bp = rates.rateBp(country);
    if (bp === undefined) throw new Error(`No VAT rate for ${country} in the tax rates file`);
    return bp;
  };
  const home = seller.country;
  // No address yet (a subscription older than its billing details): taxed as a domestic sale.
  if (!buyer || buyer.country === home) return { regime: 'domestic', country: home, rateBp: rate(home), note: null };
  const sellerInEu = isEuCountry(home);
  if (sellerInEu && isEuCountry(buyer.country)) {
    if (buyer.taxId?.type === 'eu_vat' && buyer.taxId.status === 'valid') {
      return { regime: 'reverse_charge', country: buyer.country, rateBp: 0, note: REVERSE_CHARGE_NOTE };
    }
    return { regime: 'eu_consumer', country: buyer.country, rateBp: rate(buyer.country), note: null };
  }
  return { regime: 'export', country: buyer.country, rateBp: 0, note: EXPORT_NOTE };
}

/** The one rounding rule: half away from zero, to the minor unit. `amount × bp / 10000` exactly. */
export function taxOfAmount(amount: number, rateBp: number): number {
  const scaled = Math.abs(amount) * rateBp;
  const tax = Math.floor((scaled + 5000) / 10000);
  return amount < 0 ? -tax : tax;
}

export type TaxedLine = { amount: number; tax: number };
export type TaxBreakdown = { rateBp: number; net: number; tax: number }[];
export type TaxTotals = { net: number; tax: number; total: number; lineTaxes: number[]; breakdown: TaxBreakdown };

/** Tax per line (rounded per line), summed per rate; the totals add up to the cent. */
export function taxLines(lines: readonly { amount: number }[], rateBp: number): TaxTotals {
  const lineTaxes = lines.map((l) => taxOfAmount(l.amount, rateBp));
  const net = lines.reduce((s, l) => s + l.amount, 0);
  const tax = lineTaxes.reduce((s, t) => s + t, 0);
  return { net, tax, total: net + tax, lineTaxes, breakdown: lines.length ? [{ rateBp, net, tax }] : [] };
}

/** "19 %", "25.5 %", "0 %". */
export const percentLabel = (bp: number) => `${(bp / 100).toString()} %`;
