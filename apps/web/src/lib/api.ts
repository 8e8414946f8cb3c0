import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import type { PublicConfig } from '@portal/contract';
import { takeFirstAnswer } from './first-answers';
import { signedOut } from './state/user-slice';
import type { ClientState } from './state/hooks';

/** Cache groups, one per domain: a mutation invalidates its group so its reads refetch. */
export const TAGS = ['Products', 'Authentication', 'Licenses', 'Billing', 'Users'] as const;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  credentials: 'same-origin',
});

/** The path under /api of a GET as fetchBaseQuery asks for it (its query in the order given); undefined for other methods. */
function getPathOf(args: string | FetchArgs): string | undefined {
  if (typeof args === 'string') return args;
  if (args.method && args.method.toUpperCase() !== 'GET') return undefined;
  const params = Object.entries(args.params ?? {}).filter(([, v]) => v !== undefined);
  if (params.length === 0) return args.url;
  const query = new URLSearchParams(params.map(([k, v]) => [k, String(v)]));
  return `${args.url}${args.url.includes('?') ? '&' : '?'}${query}`;
}

/** A read the server answered inside the page (docs/decisions/139), as fetchBaseQuery would have answered it. */
function firstAnswerOf(args: string | FetchArgs) {
  const path = getPathOf(args);
  const answer = path === undefined ? undefined : takeFirstAnswer(path);
  if (!answer) return undefined;
  return answer.status >= 200 && answer.status < 300
    ? { data: answer.body ?? null }
    : { error: { status: answer.status, data: answer.body } satisfies FetchBaseQueryError };
}

/** A call that answers 401 while we believe we are signed in means the session ended elsewhere. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = firstAnswerOf(args) ?? (await rawBaseQuery(args, api, extra));
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
