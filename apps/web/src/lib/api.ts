import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import type { PublicConfig } from '@portal/contract';
import { signedOut } from './state/user-slice';
import type { ClientState } from './state/hooks';

/** Cache groups, one per domain: a mutation invalidates its group so its reads refetch. */
export const TAGS = ['Products', 'Authentication', 'Licenses', 'Billing', 'Users'] as const;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  credentials: 'same-origin',
});

/** A call that answers 401 while we believe we are signed in means the session ended elsewhere. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401 && (api.getState() as ClientState).user.authenticated) {
    api.dispatch(signedOut());
  }
  return result;
};

/**
 * The one RTK Query API for /api. Features add their endpoints with `api.injectEndpoints` in
 * their own `api.ts`. Only the public configuration lives here, because the shell, the sign-in
 * screens and onboarding all need it.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAGS,
  endpoints: (builder) => ({
    /** GET /api/config: brand, documentation URL and sign-in options; public. */
    getConfig: builder.query<PublicConfig, void>({
      query: () => '/config',
      providesTags: ['Authentication'],
    }),
  }),
});

export const { useGetConfigQuery } = api;
