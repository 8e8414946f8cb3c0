import type {
  LinkRecipientResponse,
  RedeemLinkResponse,
  RequestLinkBody,
  RequestLinkResponse,
  SessionResponse,
} from '@portal/contract';
import { api } from '../../lib/api';

export const authApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** POST /api/auth/link: e-mail a sign-in link (answers the same whether or not the address is known). */
    requestLink: builder.mutation<RequestLinkResponse, RequestLinkBody>({
      query: (body) => ({ url: '/auth/link', method: 'POST', body }),
      invalidatesTags: ['Authentication'],
    }),
    /**
     * GET /api/auth/link/{id}: exchange the e-mailed secret for a session. A mutation although
     * it is a GET: it must run only when the person clicks, never from a cache or a prefetch.
     */
    redeemLink: builder.mutation<RedeemLinkResponse, string>({
      query: (id) => ({ url: `/auth/link/${encodeURIComponent(id)}`, method: 'GET' }),
      invalidatesTags: ['Authentication'],
    }),
    /**
     * GET /api/auth/recipient/{id}: the address a usable link was sent to, shown before the
     * person continues (a link someone else sent would otherwise sign them in to that account).
     * Read-only: it never uses the link up.
     */
    getLinkRecipient: builder.query<LinkRecipientResponse, string>({
      query: (id) => `/auth/recipient/${encodeURIComponent(id)}`,
      keepUnusedDataFor: 0,
    }),
    /** GET /api/auth/session: the signed-in user, or 401. */
    getSession: builder.query<SessionResponse, void>({
      query: () => '/auth/session',
      providesTags: ['Authentication'],
    }),
    /** GET /api/auth/logout: ends the session server-side and clears the cookie (204). */
    logout: builder.mutation<null, void>({
      query: () => ({
        url: '/auth/logout',
        method: 'GET',
        headers: { accept: 'application/json' },
        responseHandler: 'content-type',
      }),
      invalidatesTags: ['Authentication'],
    }),
  }),
});

export const { useRequestLinkMutation, useRedeemLinkMutation, useGetLinkRecipientQuery, useGetSessionQuery, useLogoutMutation } =
  authApi;

/** Where the Google button sends the browser (a full page navigation). */
export function googleStartUrl(to: string | null): string {
  return to ? `/api/auth/google/?to=${encodeURIComponent(to)}` : '/api/auth/google/';
}
