import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EU_COUNTRIES } from '@portal/contract';
import shipped from './tax-rates.json' with { type: 'json' };

/** A rate in percent with at most two decimals, kept as basis points (19 % → 1900, 25.5 % → 2550). */
const Percent = z
  .number()
  .min(0)
  .max(100)
  .refine((p) => Number.isInteger(Math.round(p * 100)) && Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, 'at most two decimals');
const Country = z.string().regex(/^[A-Z]{2}$/, 'country codes are two capital letters');

export const TaxRatesFileSchema = z.object({
  checkedOn: z.iso.date(),
  ratesAsOf: z.iso.date().optional(),
  source: z.string().optional(),
  eu: z.record(Country, Percent),
  vendor: z.object({ rates: z.record(Country, Percent).default({}) }).default({ rates: {} }),
});

export type TaxRates = {
  checkedOn: string;
  /** Country → rate in basis points (the vendor's rules over the EU's). */
  rateBp(country: string): number | undefined;
};

export function taxRatesFrom(data: unknown, origin: string): TaxRates {
  const parsed = TaxRatesFileSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`${origin}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const missing = EU_COUNTRIES.filter((c) => parsed.data.eu[c] === undefined);
  if (missing.length) throw new Error(`${origin}: eu: no rate for ${missing.join(', ')}`);
  const table = new Map<string, number>();
  for (const [c, p] of Object.entries(parsed.data.eu)) table.set(c, Math.round(p * 100));
  for (const [c, p] of Object.entries(parsed.data.vendor.rates)) table.set(c, Math.round(p * 100));
  return { checkedOn: parsed.data.checkedOn, rateBp: (c) => table.get(c) };
}

/** The rates file: the vendor's copy (TAX_RATES_FILE) or the one shipped with the project. */
export function loadTaxRates(file: string | undefined): TaxRates {
  if (!file) return taxRatesFrom(shipped, 'the shipped tax-rates.json');
  return taxRatesFrom(JSON.parse(readFileSync(file, 'utf8')) as unknown, `TAX_RATES_FILE (${file})`);
}
