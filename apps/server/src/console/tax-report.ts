import { sql } from 'drizzle-orm';
import {
  TAX_REPORT_REGIMES,
  type TaxReport,
  type TaxReportRegime,
  type TaxReportRow,
  type TaxReportTotal,
} from '@portal/contract';
import type { Db } from '../db/client';
import { rowsOf as rows } from '../db/rows';
import { invoiceIsSaleSql } from '../modules/billing/invoice-rules';

const DAY = 86_400_000;

type Group = {
  currency: string;
  regime: string | null;
  country: string | null;
  rate_bp: number | string | null;
  n: number | string;
  net: number | string;
  tax: number | string;
};

/** An invoice of the time before the tax engine has no regime: it was not taxed. */
const regimeOf = (r: string | null): TaxReportRegime =>
  (TAX_REPORT_REGIMES as readonly string[]).includes(r ?? '') ? (r as TaxReportRegime) : 'none';

/**
 * The country whose rate applied (docs/decisions/110-invoicing-and-tax.md): the seller's for a
 * domestic sale (also when the buyer had no billing details yet), the buyer's otherwise. Read from
 * the document's own snapshots, so a later change of billing details never moves an issued sale.
 */
const countryOf = (regime: ReturnType<typeof sql.raw>, doc: ReturnType<typeof sql.raw>) =>
  sql`case when ${regime} = 'domestic' then ${doc}.seller->>'country' else ${doc}.buyer->>'country' end`;

/**
 * The tax report (docs/decisions/113-tax-report.md): the built-in engine's invoices issued in the
 * period (UTC dates, both included; drafts and void invoices left out), grouped by currency,
 * regime, country and rate, less the credit notes issued in the period against such invoices
 * (grouped by their invoice's regime and their own rate). Sums are taken by the database, in
 * minor units, so the figures match the documents to the cent.
 */
export function createTaxReport(deps: { db: Db }) {
  const { db } = deps;

  async function getTaxReport(from: string, to: string): Promise<TaxReport> {
    const start = new Date(`${from}T00:00:00Z`);
    const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY);
    const inv = sql.raw('i');
    const cn = sql.raw('c');
    const [invoiced, credited] = await Promise.all([
      rows<Group>(
        db,
        sql`select i.currency, i.tax_regime as regime, ${countryOf(sql.raw('i.tax_regime'), inv)} as country,
                   coalesce((i.tax_breakdown->0->>'rateBp')::int, 0) as rate_bp, count(*)::int as n,
                   coalesce(sum((select coalesce(sum((l->>'amount')::bigint), 0) from jsonb_array_elements(i.lines) l)), 0)::bigint as net,
                   coalesce(sum(i.tax_amount), 0)::bigint as tax
              from invoices i
             where i.created_at >= ${start.toISOString()} and i.created_at < ${end.toISOString()}
               and ${invoiceIsSaleSql(sql`i.status`)}
             group by 1, 2, 3, 4`,
      ),
      rows<Group>(
        db,
        sql`select c.currency, i.tax_regime as regime, ${countryOf(sql.raw('i.tax_regime'), cn)} as country,
                   coalesce((c.tax_breakdown->0->>'rateBp')::int, 0) as rate_bp, count(*)::int as n,
                   coalesce(sum(c.net_amount), 0)::bigint as net, coalesce(sum(c.tax_amount), 0)::bigint as tax
              from credit_notes c join invoices i on i.id = c.invoice_id
             where c.created_at >= ${start.toISOString()} and c.created_at < ${end.toISOString()}
             group by 1, 2, 3, 4`,
      ),
    ]);

    const byKey = new Map<string, TaxReportRow>();
    const rowOf = (g: Group): TaxReportRow => {
      const regime = regimeOf(g.regime);
      const rateBp = Number(g.rate_bp ?? 0);
      const key = JSON.stringify([g.currency, regime, g.country, rateBp]);
      let row = byKey.get(key);
      if (!row) {
        row = {
          currency: g.currency,
          regime,
          country: g.country,
          rateBp,
          invoices: 0,
          creditNotes: 0,
          invoicedNet: 0,
          invoicedTax: 0,
          creditedNet: 0,
          creditedTax: 0,
          net: 0,
          tax: 0,
        };
        byKey.set(key, row);
      }
      return row;
    };
    for (const g of invoiced) {
      const row = rowOf(g);
      row.invoices += Number(g.n);
      row.invoicedNet += Number(g.net);
      row.invoicedTax += Number(g.tax);
    }
    for (const g of credited) {
      const row = rowOf(g);
      row.creditNotes += Number(g.n);
      row.creditedNet += Number(g.net);
      row.creditedTax += Number(g.tax);
    }
    const order = (r: TaxReportRow) => TAX_REPORT_REGIMES.indexOf(r.regime);
    const lines = [...byKey.values()]
      .map((r) => ({ ...r, net: r.invoicedNet - r.creditedNet, tax: r.invoicedTax - r.creditedTax }))
      .sort(
        (a, b) =>
          a.currency.localeCompare(b.currency) ||
          order(a) - order(b) ||
          (a.country ?? '').localeCompare(b.country ?? '') ||
          b.rateBp - a.rateBp,
      );
    return { from, to, rows: lines, totals: totalsOf(lines) };
  }

  return { getTaxReport };
}
export type TaxReportService = ReturnType<typeof createTaxReport>;

/** Each currency's totals, from the report's lines. */
export function totalsOf(lines: readonly TaxReportRow[]): TaxReportTotal[] {
  const totals = new Map<string, TaxReportTotal>();
  for (const r of lines) {
    let t = totals.get(r.currency);
    if (!t) {
      t = { currency: r.currency, taxedNet: 0, tax: 0, reverseChargeNet: 0, exportNet: 0, untaxedNet: 0, net: 0, gross: 0 };
      totals.set(r.currency, t);
    }
    if (r.regime === 'domestic' || r.regime === 'eu_consumer') t.taxedNet += r.net;
    else if (r.regime === 'reverse_charge') t.reverseChargeNet += r.net;
    else if (r.regime === 'export') t.exportNet += r.net;
    else t.untaxedNet += r.net;
    t.tax += r.tax;
    t.net += r.net;
    t.gross = t.net + t.tax;
  }
  return [...totals.values()];
}
