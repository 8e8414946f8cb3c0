import { fetchBaseQuery, type FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import type {
  ApiTokenList,
  AuditEvent,
  CreateApiTokenBody,
  CreatedApiToken,
  Page,
  UpdateProfileBody,
  UserResponse,
} from '@portal/contract';
import { api } from '../../lib/api';
import { signedOut } from '../../lib/state/user-slice';
import { errorBody } from '@portal/ui';

export interface ActivityArgs {
  page: number;
  size: number;
}

/** The export as it is saved: the file name the server proposes and the JSON text. */
export interface AccountExportFile {
  filename: string;
  json: string;
}

/**
 * The API's base query treats every 401 as "the session ended" and signs the user out. Account
 * deletion also answers 401 with RECENT_SIGN_IN_REQUIRED while the session is fine (it is only too
 * old to delete the account), and the page must then offer to sign in again: so this one call
 * goes through a plain base query and signs out only on any other 401.
 */
const plainBaseQuery = fetchBaseQuery({ baseUrl: '/api', credentials: 'same-origin' });

/** 'attachment; filename="acme-account-export-2026-01-01.json"' -> the file name. */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(header ?? '');
  return match?.[1]?.trim() || fallback;
}

export const profileApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** PATCH /api/users/profile: name and company (an empty company clears it); answers the user. */
    updateProfile: builder.mutation<UserResponse, UpdateProfileBody>({
      query: (body) => ({ url: '/users/profile', method: 'PATCH', body }),
      invalidatesTags: ['Users'],
    }),
    /** GET /api/users/activity?page&size: the activity log, newest first. */
    listActivity: builder.query<Page<AuditEvent>, ActivityArgs>({
      query: ({ page, size }) => ({ url: '/users/activity', params: { page, size } }),
      providesTags: ['Users'],
    }),
    /** GET /api/users/tokens: the personal API tokens (never their secrets), newest first. */
    listApiTokens: builder.query<ApiTokenList, void>({
      query: () => '/users/tokens',
      providesTags: ['Users'],
    }),
    /** POST /api/users/tokens: a new token; the answer holds its secret, shown this once. */
    createApiToken: builder.mutation<CreatedApiToken, CreateApiTokenBody>({
      query: (body) => ({ url: '/users/tokens', method: 'POST', body }),
      invalidatesTags: ['Users'],
    }),
    /** DELETE /api/users/tokens/{id}: revokes a token; it answers 401 from then on. */
    revokeApiToken: builder.mutation<null, string>({
      query: (id) => ({ url: `/users/tokens/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Users'],
    }),
    /**
     * GET /api/users/export: everything the portal holds about the user, as a JSON file. A mutation:
     * it runs when the person asks for it and is not kept in the cache.
     */
    exportData: builder.mutation<AccountExportFile, void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const result = await baseQuery({ url: '/users/export', responseHandler: 'content-type' });
        if (result.error) return { error: result.error };
        const response = (result.meta as FetchBaseQueryMeta | undefined)?.response;
        const filename = filenameFromDisposition(response?.headers.get('content-disposition'), 'account-export.json');
        return { data: { filename, json: JSON.stringify(result.data, null, 2) } };
      },
    }),
    /** DELETE /api/users/?i_want_to_delete_my_account=true: erases the account and ends every session. */
    deleteAccount: builder.mutation<null, void>({
      queryFn: async (_arg, queryApi, extra) => {
        const result = await plainBaseQuery(
          { url: '/users/', method: 'DELETE', params: { i_want_to_delete_my_account: 'true' } },
          queryApi,
          extra as object,
        );
        if (result.error) {
          if (result.error.status === 401 && errorBody(result.error)?.code !== 'RECENT_SIGN_IN_REQUIRED') {
            queryApi.dispatch(signedOut());
          }
          return { error: result.error };
        }
        return { data: null };
      },
      invalidatesTags: ['Users'],
    }),
    /**
     * GET /api/auth/logout, for "sign in again to confirm" on account deletion. The auth feature's
     * `logout` is the same call; features do not share endpoints, so this one has its own name.
     */
    signOutToConfirm: builder.mutation<null, void>({
      query: () => ({
        url: '/auth/logout',
        method: 'GET',
        headers: { accept: 'application/json' },
        responseHandler: 'content-type',
      }),
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useListActivityQuery,
  useExportDataMutation,
  useDeleteAccountMutation,
  useSignOutToConfirmMutation,
  useListApiTokensQuery,
  useCreateApiTokenMutation,
  useRevokeApiTokenMutation,
} = profileApi;
