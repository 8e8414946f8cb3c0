import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ConsoleCustomerSchema,
  ConsoleSearchQuerySchema,
  CustomerParamsSchema,
  ErrorSchema,
  SearchResultsSchema,
} from '@portal/contract';
import type { Db } from '../../db/client';
import type { CustomerPage } from '../customer-page';
import { searchAll } from '../search.repository';
import { at, guardedResponses } from '../staff-guard';

export type CustomersRoutesDeps = { db: Db; page: Pick<CustomerPage, 'getCustomer'> };

/** Finding a customer and the customer page. */
export async function customersRoutes(app: FastifyInstance, { db, page }: CustomersRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...at('search'),
    schema: {
      summary: 'Search customers, license keys, nodes, subscriptions and invoices',
      querystring: ConsoleSearchQuerySchema,
      response: { 200: SearchResultsSchema, 400: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => searchAll(db, req.query.q),
  });

  r.route({
    ...at('getCustomer'),
    schema: {
      summary: 'The customer page',
      params: CustomerParamsSchema,
      response: { 200: ConsoleCustomerSchema, 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => page.getCustomer(req.params.userId),
  });
}
