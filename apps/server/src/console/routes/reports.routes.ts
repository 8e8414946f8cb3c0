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
import { toCsv } from '../csv';
import type { Lists } from '../lists';
import type { createOverview } from '../overview';
import { at, guardedResponses } from '../staff-guard';

export type ReportsRoutesDeps = { lists: Lists; overview: ReturnType<typeof createOverview> };

/** Answers the page as JSON, or every row as a CSV download for `?format=csv`. */
function pageOrCsv<T extends Record<string, unknown>, P extends { items: T[] }>(
  reply: FastifyReply,
  format: string | undefined,
  name: string,
  result: P,
  columns: ReadonlyArray<keyof T & string>,
) {
  if (format !== 'csv') return result;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .serializer((p: unknown) => p as string)
    .send(toCsv(result.items, columns));
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
      pageOrCsv(reply, req.query.format, 'customers', await lists.listCustomers(req.query), CSV_COLUMNS.customers),
  });

  r.route({
    ...at('listSubscriptions'),
    schema: {
      summary: 'Subscriptions',
      querystring: ListSubscriptionsQuerySchema,
      response: listAnswer(ConsoleSubscriptionPageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(reply, req.query.format, 'subscriptions', await lists.listSubscriptions(req.query), CSV_COLUMNS.subscriptions),
  });

  r.route({
    ...at('listLicenses'),
    schema: { summary: 'Licenses', querystring: ListLicensesQuerySchema, response: listAnswer(ConsoleLicensePageSchema) },
    handler: async (req, reply) =>
      pageOrCsv(reply, req.query.format, 'licenses', await lists.listLicenses(req.query), CSV_COLUMNS.licenses),
  });

  r.route({
    ...at('listInvoices'),
    schema: {
      summary: 'Invoices (local engine)',
      querystring: ListInvoicesQuerySchema,
      response: listAnswer(ConsoleInvoicePageSchema),
    },
    handler: async (req, reply) =>
      pageOrCsv(reply, req.query.format, 'invoices', await lists.listInvoices(req.query), CSV_COLUMNS.invoices),
  });
}
