import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
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
} from '@portal/contract';
import { csvLine, csvLines } from '../csv';
import { batchAfter, CSV_BATCH_ROWS, type Cursor, type Lists, type Window } from '../lists';
import type { createOverview } from '../overview';
import { at, guardedResponses } from '../staff-guard';

export type ReportsRoutesDeps = { lists: Lists; overview: ReturnType<typeof createOverview> };

/**
 * Answers the page as JSON, or for `?format=csv` every row of the list (its filters and order) as a
 * CSV download, streamed: read in batches, each after the last row of the one before, and written
 * as it comes, so that memory stays flat however many rows there are.
 */
async function pageOrCsv<T extends Record<string, unknown>, P extends { items: T[] }>(
  reply: FastifyReply,
  format: string | undefined,
  name: string,
  list: (w?: Window) => Promise<P & { last?: Cursor }>,
  columns: ReadonlyArray<keyof T & string>,
) {
  if (format !== 'csv') return list();
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
  ],
  licenses: ['licenseKey', 'email', 'status', 'maxNodes', 'activeNodes', 'expiresAt', 'createdAt', 'subscriptionId', 'userId'],
  invoices: ['number', 'email', 'status', 'amountDue', 'amountPaid', 'currency', 'created', 'subscriptionId', 'userId', 'id'],
} as const;

const listAnswer = <S extends z.ZodType>(page: S) => ({
  200: z.union([page, z.string()]),
  400: ErrorSchema,
  ...guardedResponses,
});

/** The overview and the lists of customers, subscriptions, licenses and invoices. */
export async function reportsRoutes(app: FastifyInstance, { lists, overview }: ReportsRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      pageOrCsv(reply, req.query.format, 'customers', (w) => lists.listCustomers(req.query, w), CSV_COLUMNS.customers),
  });

  r.route({
    ...at('listSubscriptions'),
    schema: {
      summary: 'Subscriptions',
      querystring: ListSubscriptionsQuerySchema,
      response: listAnswer(ConsoleSubscriptionPageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(
        reply,
        req.query.format,
        'subscriptions',
        (w) => lists.listSubscriptions(req.query, w),
        CSV_COLUMNS.subscriptions,
      ),
  });

  r.route({
    ...at('listLicenses'),
    schema: { summary: 'Licenses', querystring: ListLicensesQuerySchema, response: listAnswer(ConsoleLicensePageSchema) },
    handler: async (req, reply) =>
      pageOrCsv(reply, req.query.format, 'licenses', (w) => lists.listLicenses(req.query, w), CSV_COLUMNS.licenses),
  });

  r.route({
    ...at('listInvoices'),
    schema: {
      summary: 'Invoices (local engine)',
      querystring: ListInvoicesQuerySchema,
      response: listAnswer(ConsoleInvoicePageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(reply, req.query.format, 'invoices', (w) => lists.listInvoices(req.query, w), CSV_COLUMNS.invoices),
  });
}
