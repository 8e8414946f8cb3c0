import {
  consolePath,
  type ConsoleCustomerRow,
  type ConsoleInvoiceRow,
  type ConsoleLicenseRow,
  type ConsoleSubscriptionRow,
} from '@portal/contract';
import { api } from '../../lib/api';

export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}
/** A list's query as the address holds it (page, size, sort, order, q and its filters). */
export type ListQuery = Record<string, string | number>;

export const listsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listCustomers: build.query<Page<ConsoleCustomerRow>, ListQuery>({
      query: (params) => ({ url: consolePath('listCustomers'), params }),
      providesTags: ['Customer'],
    }),
    listSubscriptions: build.query<Page<ConsoleSubscriptionRow>, ListQuery>({
      query: (params) => ({ url: consolePath('listSubscriptions'), params }),
      providesTags: ['Subscriptions'],
    }),
    listLicenses: build.query<Page<ConsoleLicenseRow>, ListQuery>({
      query: (params) => ({ url: consolePath('listLicenses'), params }),
      providesTags: ['Licenses'],
    }),
    listInvoices: build.query<Page<ConsoleInvoiceRow>, ListQuery>({
      query: (params) => ({ url: consolePath('listInvoices'), params }),
      providesTags: ['Invoices'],
    }),
  }),
});

export const { useListCustomersQuery, useListSubscriptionsQuery, useListLicensesQuery, useListInvoicesQuery } = listsApi;
