import type { SupportInfo } from '@portal/contract';
import { api } from '../../lib/api';

export const supportApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/products/support: the plan derived from the user's subscriptions, contacts, hours. */
    getSupportInfo: builder.query<SupportInfo, void>({
      query: () => '/products/support',
      providesTags: ['Products'],
    }),
  }),
});

export const { useGetSupportInfoQuery } = supportApi;
