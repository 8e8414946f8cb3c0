import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import type { InvoiceParty } from '../../db/schema/index';
import type { BillTo, InvoiceTerms } from '../../providers/billing/gateway';
import { billingDetailsRepository as details, type BillingDetailsRow } from './billing-details.repository';
import { decideTax, taxLines, type TaxBuyer } from './tax/tax-engine';
import type { TaxRates } from './tax/tax-rates';

type Seller = Config['seller'];

/** The seller as invoices name it (settings), or null when no seller name is set (a fresh install). */
export function sellerParty(seller: Seller): InvoiceParty | null {
  if (!seller.name) return null;
  return {
    name: seller.name,
    addressLines: seller.addressLines,
    country: seller.country ?? null,
    taxId: seller.taxId ? { type: 'seller', value: seller.taxId } : null,
    registration: seller.registration ?? null,
    footerLines: seller.footerLines,
  };
}

/** What a seller's invoices lack, for the start-up warning (empty: nothing). */
export function missingSellerDetails(seller: Seller): string[] {
  const missing: string[] = [];
  if (!seller.name) missing.push('SELLER_NAME');
  if (seller.addressLines.length === 0) missing.push('SELLER_ADDRESS');
  if (!seller.country) missing.push('SELLER_COUNTRY');
  if (!seller.taxId) missing.push('SELLER_TAX_ID');
  return missing;
}

/** The buyer as an invoice names it: the billing details, else the portal user's name and e-mail. */
export function buyerParty(billTo: Pick<BillTo, 'name' | 'email'> | null, d: BillingDetailsRow | undefined): InvoiceParty | null {
  if (!d) return billTo ? { name: billTo.name, email: billTo.email || null, addressLines: [], country: null, taxId: null } : null;
  const cityLine = [d.postalCode, d.city].filter(Boolean).join(' ');
  return {
    name: d.legalName ?? billTo?.name ?? '',
    contact: d.legalName && billTo?.name ? billTo.name : null,
    email: billTo?.email || null,
    addressLines: [d.line1, d.line2, cityLine, d.region].filter((l): l is string => Boolean(l)),
    country: d.country,
    taxId: d.taxIdType && d.taxIdValue ? { type: d.taxIdType, value: d.taxIdValue, status: d.taxIdStatus ?? 'unchecked' } : null,
  };
}

export const taxBuyerOf = (d: BillingDetailsRow | undefined): TaxBuyer =>
  d
    ? {
        country: d.country,
        taxId:
          d.taxIdType && d.taxIdValue
            ? { type: d.taxIdType as never, value: d.taxIdValue, status: (d.taxIdStatus ?? 'unchecked') as never }
            : null,
      }
    : null;

/**
 * The terms of a customer's next invoice: the seller from the settings, the buyer from their
 * billing details as they are now, and the tax the built-in engine decides for the two.
 */
export function createInvoiceTerms(deps: { seller: Seller; rates: TaxRates }) {
  return async function termsOf(tx: Tx, billTo: Pick<BillTo, 'userId' | 'email' | 'name'> | null): Promise<InvoiceTerms> {
    const d = billTo?.userId ? await details.find(tx, billTo.userId) : undefined;
    const decision = decideTax(deps.seller, taxBuyerOf(d), deps.rates);
    return {
      buyer: buyerParty(billTo, d),
      seller: sellerParty(deps.seller),
      regime: decision.regime,
      note: decision.note,
      tax: (lines) => {
        const t = taxLines(lines, decision.rateBp);
        return { net: t.net, tax: t.tax, total: t.total, breakdown: decision.regime === 'none' ? [] : t.breakdown };
      },
    };
  };
}
