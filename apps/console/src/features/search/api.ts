import { consolePath, type SearchResults } from '@portal/contract';
import { api } from '../../lib/api';

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/console/search?q=: customers, licenses, nodes, subscriptions and invoices at once. */
    search: build.query<SearchResults, string>({
      query: (q) => ({ url: consolePath('search'), params: { q } }),
      // Results are a moment's answer: a search typed again a minute later asks again.
      keepUnusedDataFor: 30,
      // An action changes what a search finds (a deleted customer, an issued key, a released node).
      providesTags: ['Search'],
    }),
  }),
});

export const { useSearchQuery } = searchApi;
