import path from 'node:path';
import { z } from 'zod';
import { VIES_DEFAULT_URL } from '../providers/vies/vies';
import { int, optionalString, url } from './env-parsers';

/** The seller on every invoice, the built-in tax engine and VIES (docs/operations: "Invoices and tax"). */
export const InvoicingEnvSchema = z.object({
  /** The seller on every invoice; a fresh install runs without them. */
  SELLER_NAME: optionalString,
  /** The seller's postal address, lines separated by "\n" or " | " (the country is SELLER_COUNTRY). */
  SELLER_ADDRESS: optionalString,
  SELLER_COUNTRY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as DE')
      .transform((v) => v.toUpperCase())
      .optional(),
  ),
  SELLER_TAX_ID: optionalString,
  /** The company registration (court and number), printed on invoices. */
  SELLER_REGISTRATION: optionalString,
  /** Printed at the foot of every invoice: bank details for transfers, terms. "\n" starts a line. */
  INVOICE_FOOTER: optionalString,
  /** The seller charges VAT (the built-in tax engine); needs SELLER_COUNTRY and SELLER_TAX_ID. */
  SELLER_VAT_REGISTERED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  /** The vendor's own copy of the tax rates file (default: the one shipped, tax-rates.json). */
  TAX_RATES_FILE: optionalString,
  /** VIES, the EU's VAT number check (default: the European Commission's service). */
  VIES_URL: url(['http:', 'https:']),
  VIES_TIMEOUT_MS: int(8000, 100, 60_000),
});
type InvoicingEnv = z.output<typeof InvoicingEnvSchema>;

/** What the variables together cannot be, as `VARIABLE: why`; undefined when they fit. */
export function invoicingProblem(e: InvoicingEnv): string | undefined {
  if (e.SELLER_VAT_REGISTERED && (!e.SELLER_COUNTRY || !e.SELLER_TAX_ID)) {
    return `${e.SELLER_COUNTRY ? 'SELLER_TAX_ID' : 'SELLER_COUNTRY'}: required when SELLER_VAT_REGISTERED is true (invoices name the seller's country and VAT number)`;
  }
  return undefined;
}

export function invoicingSettings(e: InvoicingEnv) {
  return {
    seller: {
      name: e.SELLER_NAME,
      addressLines: (e.SELLER_ADDRESS ?? '')
        .split(/\\n|\n| \| /)
        .map((l) => l.trim())
        .filter(Boolean),
      country: e.SELLER_COUNTRY,
      taxId: e.SELLER_TAX_ID,
      registration: e.SELLER_REGISTRATION,
      footerLines: (e.INVOICE_FOOTER ?? '')
        .split(/\\n|\n/)
        .map((l) => l.trim())
        .filter(Boolean),
      vatRegistered: e.SELLER_VAT_REGISTERED,
    },
    tax: { ratesFile: e.TAX_RATES_FILE ? path.resolve(e.TAX_RATES_FILE) : undefined },
    vies: { url: e.VIES_URL ?? VIES_DEFAULT_URL, timeoutMs: e.VIES_TIMEOUT_MS },
  };
}
