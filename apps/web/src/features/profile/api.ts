import { api } from '../../lib/api';

export const profileApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** DELETE /api/users/?i_want_to_delete_my_account=true: erases the account and ends every session. */
    deleteAccount: builder.mutation<null, void>({
      query: () => ({ url: '/users/', method: 'DELETE', params: { i_want_to_delete_my_account: 'true' } }),
      invalidatesTags: ['Users'],
    }),
  }),
});

export const { useDeleteAccountMutation } = profileApi;
