import { consolePath, type TaxReport } from '@portal/contract';
import { api } from '../../lib/api';

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/console/reports/tax?from&to: tax by country and rate, reverse charge and exports, less credit notes. */
    getTaxReport: build.query<TaxReport, { from: string; to: string }>({
      query: ({ from, to }) => `${consolePath('getTaxReport')}?${new URLSearchParams({ from, to }).toString()}`,
      providesTags: ['Invoices'],
    }),
  }),
});

export const { useGetTaxReportQuery } = reportsApi;
