import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConsoleCustomerPageSchema,
  ConsoleInvoicePageSchema,
  ConsoleLicensePageSchema,
  ConsoleSubscriptionPageSchema,
  ErrorSchema,
  ListCustomersQuerySchema,
  ListInvoicesQuerySchema,
  ListLicensesQuerySchema,
  ListSubscriptionsQuerySchema,
  OverviewSchema,
  TaxReportQuerySchema,
  TaxReportSchema,
  type TaxReportRow,
} from '@portal/contract';
import type { Db } from '../../db/client';
import { csvLine, csvLines, toCsv } from '../csv';
import { batchAfter, CSV_BATCH_ROWS, type Cursor, type Lists, type Window } from '../lists';
import type { createOverview } from '../overview';
import { at, guardedResponses } from '../staff-guard';
import type { StaffService } from '../staff.service';
import type { TaxReportService } from '../tax-report';

export type ReportsRoutesDeps = {
  db: Db;
  lists: Lists;
  overview: ReturnType<typeof createOverview>;
  staff: Pick<StaffService, 'record'>;
  taxReport: TaxReportService;
};

type ListName = 'customers' | 'subscriptions' | 'licenses' | 'invoices';
const EXPORT_ACTION = {
  customers: 'exportCustomers',
  subscriptions: 'exportSubscriptions',
  licenses: 'exportLicenses',
  invoices: 'exportInvoices',
} as const satisfies Record<ListName, string>;

/**
 * Answers the page as JSON, or for `?format=csv` every row of the list (its filters and order) as a
 * CSV download, streamed: read in batches, each after the last row of the one before, and written
 * as it comes, so that memory stays flat however many rows there are. An export takes customers'
 * data out of the console: the staff audit log records who took which list with which filters
 * before a byte is sent (no audit row, no export).
 */
async function pageOrCsv<T extends Record<string, unknown>, P extends { items: T[] }>(
  req: FastifyRequest<{ Querystring: { format?: string | undefined } }>,
  reply: FastifyReply,
  audit: { db: Db; staff: Pick<StaffService, 'record'> },
  name: ListName,
  list: (w?: Window) => Promise<P & { last?: Cursor }>,
  columns: ReadonlyArray<keyof T & string>,
) {
  if (req.query.format !== 'csv') return list();
  const { format: _format, page: _page, size: _size, ...filters } = req.query as Record<string, unknown>;
  await audit.staff.record(audit.db, req.staffActor, {
    action: EXPORT_ACTION[name],
    reason: '',
    subject: `${name}.csv`,
    data: { filters },
  });
  async function* lines() {
    yield csvLine(columns);
    let after: Cursor | undefined;
    for (;;) {
      const batch = await list(batchAfter(after));
      if (batch.items.length > 0) yield csvLines(batch.items, columns);
      if (batch.items.length < CSV_BATCH_ROWS || !batch.last) return;
      after = batch.last;
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .send(Readable.from(lines()));
}

/** The columns of each list's CSV download, in order. */
const CSV_COLUMNS = {
  customers: ['id', 'email', 'name', 'company', 'createdAt', 'activeSubscriptions', 'licenses'],
  subscriptions: [
    'subscriptionId',
    'email',
    'status',
    'interval',
    'quantity',
    'amount',
    'currency',
    'currentPeriodEnd',
    'cancelAtPeriodEnd',
    'createdAt',
    'userId',
    'nextAttemptAt',
    'accessUntil',
  ],
  licenses: ['licenseKey', 'email', 'status', 'maxNodes', 'activeNodes', 'expiresAt', 'createdAt', 'subscriptionId', 'userId'],
  invoices: ['number', 'email', 'status', 'amountDue', 'amountPaid', 'currency', 'created', 'subscriptionId', 'userId', 'id'],
} as const;

/** The tax report's CSV: its lines, then one `total` line per currency (net and tax of every regime). */
const TAX_CSV_COLUMNS = [
  'currency',
  'regime',
  'country',
  'ratePercent',
  'invoices',
  'creditNotes',
  'invoicedNet',
  'invoicedTax',
  'creditedNet',
  'creditedTax',
  'net',
  'tax',
] as const;
type TaxCsvRow = Omit<TaxReportRow, 'rateBp' | 'regime' | 'country'> & {
  regime: string;
  country: string | null;
  ratePercent: string | null;
};

const listAnswer = <S extends z.ZodType>(page: S) => ({
  200: z.union([page, z.string()]),
  400: ErrorSchema,
  ...guardedResponses,
});

/** The overview and the lists of customers, subscriptions, licenses and invoices. */
export async function reportsRoutes(app: FastifyInstance, { db, lists, overview, staff, taxReport }: ReportsRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const audit = { db, staff };

  r.route({
    ...at('getOverview'),
    schema: {
      summary: 'Revenue, subscriptions, nodes and the last 12 months',
      querystring: z.strictObject({}),
      response: { 200: OverviewSchema, 400: ErrorSchema, ...guardedResponses },
    },
    handler: async () => overview.getOverview(),
  });

  r.route({
    ...at('listCustomers'),
    schema: { summary: 'Customers', querystring: ListCustomersQuerySchema, response: listAnswer(ConsoleCustomerPageSchema) },
    handler: async (req, reply) =>
      pageOrCsv(req, reply, audit, 'customers', (w) => lists.listCustomers(req.query, w), CSV_COLUMNS.customers),
  });

  r.route({
    ...at('listSubscriptions'),
    schema: {
      summary: 'Subscriptions',
      querystring: ListSubscriptionsQuerySchema,
      response: listAnswer(ConsoleSubscriptionPageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(req, reply, audit, 'subscriptions', (w) => lists.listSubscriptions(req.query, w), CSV_COLUMNS.subscriptions),
  });

  r.route({
    ...at('listLicenses'),
    schema: { summary: 'Licenses', querystring: ListLicensesQuerySchema, response: listAnswer(ConsoleLicensePageSchema) },
    handler: async (req, reply) =>
      pageOrCsv(req, reply, audit, 'licenses', (w) => lists.listLicenses(req.query, w), CSV_COLUMNS.licenses),
  });

  r.route({
    ...at('listInvoices'),
    schema: {
      summary: 'Invoices (local engine)',
      querystring: ListInvoicesQuerySchema,
      response: listAnswer(ConsoleInvoicePageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(req, reply, audit, 'invoices', (w) => lists.listInvoices(req.query, w), CSV_COLUMNS.invoices),
  });

  r.route({
    ...at('getTaxReport'),
    schema: {
      summary: 'Tax collected by country and rate, reverse-charged sales and exports, less credit notes (local engine)',
      querystring: TaxReportQuerySchema,
      response: { 200: z.union([TaxReportSchema, z.string()]), 400: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      const { from, to, format } = req.query;
      const report = await taxReport.getTaxReport(from, to);
      if (format !== 'csv') return report;
      // An export as the lists' are: who took which period, in the staff audit log before a byte is sent.
      await staff.record(db, req.staffActor, {
        action: 'exportTaxReport',
        reason: '',
        subject: 'tax-report.csv',
        data: { filters: { from, to } },
      });
      const lines: TaxCsvRow[] = report.rows.map(({ rateBp, ...r }) => ({ ...r, ratePercent: (rateBp / 100).toFixed(2) }));
      for (const t of report.totals) {
        const own = report.rows.filter((r) => r.currency === t.currency);
        const sum = (k: 'invoices' | 'creditNotes' | 'invoicedNet' | 'invoicedTax' | 'creditedNet' | 'creditedTax') =>
          own.reduce((n, r) => n + r[k], 0);
        lines.push({
          currency: t.currency,
          regime: 'total',
          country: null,
          ratePercent: null,
          invoices: sum('invoices'),
          creditNotes: sum('creditNotes'),
          invoicedNet: sum('invoicedNet'),
          invoicedTax: sum('invoicedTax'),
          creditedNet: sum('creditedNet'),
          creditedTax: sum('creditedTax'),
          net: t.net,
          tax: t.tax,
        });
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="tax-report-${from}-${to}.csv"`)
        .send(toCsv(lines, TAX_CSV_COLUMNS));
    },
  });
}
