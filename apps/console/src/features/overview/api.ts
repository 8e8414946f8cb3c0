import { consolePath, type Overview } from '@portal/contract';
import { api } from '../../lib/api';

export const overviewApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/console/overview: revenue, subscriptions and fleet now, and the last 12 months. */
    getOverview: build.query<Overview, void>({
      query: () => consolePath('getOverview'),
      providesTags: ['Overview'],
    }),
  }),
});

export const { useGetOverviewQuery } = overviewApi;
