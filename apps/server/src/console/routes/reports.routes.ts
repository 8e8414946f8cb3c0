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
} from '@portal/contract';
import type { Db } from '../../db/client';
import { toCsv } from '../csv';
import type { Lists } from '../lists';
import type { createOverview } from '../overview';
import { at, guardedResponses } from '../staff-guard';
import type { StaffService } from '../staff.service';

export type ReportsRoutesDeps = {
  db: Db;
  lists: Lists;
  overview: ReturnType<typeof createOverview>;
  staff: Pick<StaffService, 'record'>;
};

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

type ListName = keyof typeof CSV_COLUMNS;
const EXPORT_ACTION = {
  customers: 'exportCustomers',
  subscriptions: 'exportSubscriptions',
  licenses: 'exportLicenses',
  invoices: 'exportInvoices',
} as const satisfies Record<ListName, string>;

const listAnswer = <S extends z.ZodType>(page: S) => ({
  200: z.union([page, z.string()]),
  400: ErrorSchema,
  ...guardedResponses,
});

/** The overview and the lists of customers, subscriptions, licenses and invoices. */
export async function reportsRoutes(app: FastifyInstance, { db, lists, overview, staff }: ReportsRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Answers the page as JSON, or every row as a CSV download for `?format=csv`. An export takes a
   * customer list out of the console: the staff audit log records who took which rows, with the
   * filters, before a byte is sent (no audit row, no export).
   */
  async function pageOrCsv<T extends Record<string, unknown>, P extends { items: T[] }>(
    req: FastifyRequest<{ Querystring: { format?: string | undefined } }>,
    reply: FastifyReply,
    name: ListName,
    result: P,
  ) {
    if (req.query.format !== 'csv') return result;
    const { format: _format, page: _page, size: _size, ...filters } = req.query as Record<string, unknown>;
    await staff.record(db, req.staffActor, {
      action: EXPORT_ACTION[name],
      reason: '',
      subject: `${name}.csv`,
      data: { rows: result.items.length, filters },
    });
    const columns = CSV_COLUMNS[name] as ReadonlyArray<keyof T & string>;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.csv"`)
      .serializer((p: unknown) => p as string)
      .send(toCsv(result.items, columns));
  }

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
    handler: async (req, reply) => pageOrCsv(req, reply, 'customers', await lists.listCustomers(req.query)),
  });

  r.route({
    ...at('listSubscriptions'),
    schema: {
      summary: 'Subscriptions',
      querystring: ListSubscriptionsQuerySchema,
      response: listAnswer(ConsoleSubscriptionPageSchema),
    },
    handler: async (req, reply) => pageOrCsv(req, reply, 'subscriptions', await lists.listSubscriptions(req.query)),
  });

  r.route({
    ...at('listLicenses'),
    schema: { summary: 'Licenses', querystring: ListLicensesQuerySchema, response: listAnswer(ConsoleLicensePageSchema) },
    handler: async (req, reply) => pageOrCsv(req, reply, 'licenses', await lists.listLicenses(req.query)),
  });

  r.route({
    ...at('listInvoices'),
    schema: {
      summary: 'Invoices (local engine)',
      querystring: ListInvoicesQuerySchema,
      response: listAnswer(ConsoleInvoicePageSchema),
    },
    handler: async (req, reply) => pageOrCsv(req, reply, 'invoices', await lists.listInvoices(req.query)),
  });
}
