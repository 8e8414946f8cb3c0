import { consolePath, type ConsoleAuthOptions, type ConsoleMe, type ConsoleRequestLinkBody } from '@portal/contract';
import { api } from '../../lib/api';

/** Staff sign-in by e-mailed link: the console's own links, sessions and cookie. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/console/auth/link: 202 whether or not the address belongs to staff. */
    requestLink: build.mutation<{ sent: true }, ConsoleRequestLinkBody>({
      query: (body) => ({ url: consolePath('requestLink'), method: 'POST', body }),
    }),
    /** POST /api/console/auth/link/{id}: redeems the e-mailed link for a staff session. */
    exchangeLink: build.mutation<ConsoleMe, string>({
      query: (id) => ({ url: consolePath('exchangeLink', { id }), method: 'POST' }),
    }),
    /** GET /api/console/auth/me: the signed-in staff member; 401 when signed out. */
    me: build.query<ConsoleMe, void>({
      query: () => consolePath('me'),
      providesTags: ['Session'],
    }),
    /** GET /api/console/auth/options: whether the sign-in page offers Google. */
    authOptions: build.query<ConsoleAuthOptions, void>({
      query: () => consolePath('authOptions'),
    }),
    signOut: build.mutation<void, void>({
      query: () => ({ url: consolePath('signOut'), method: 'POST' }),
    }),
  }),
});

export const { useRequestLinkMutation, useExchangeLinkMutation, useMeQuery, useAuthOptionsQuery, useSignOutMutation } = authApi;
