import type { LicenseSummary } from '@portal/contract';
import { api } from '../../lib/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/products/licenses: licenses, nodes in use and allowed, licenses at their limit or expiring soon. */
    getLicenseSummary: builder.query<LicenseSummary, void>({
      query: () => '/products/licenses',
      // License figures change with license and billing mutations (activation, release, quantity).
      providesTags: ['Licenses', 'Products'],
    }),
  }),
});

export const { useGetLicenseSummaryQuery } = dashboardApi;
