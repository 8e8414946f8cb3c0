import {
  consolePath,
  type AddStaffBody,
  type CreatedStaffToken,
  type CreateStaffTokenBody,
  type RevokeStaffTokenBody,
  type StaffActionBody,
  type StaffMember,
  type StaffTokenList,
  type UpdateStaffBody,
} from '@portal/contract';
import { api } from '../../lib/api';

export const staffApi = api.injectEndpoints({
  endpoints: (build) => ({
    listStaff: build.query<{ items: StaffMember[] }, void>({
      query: () => consolePath('listStaff'),
      providesTags: ['Staff'],
    }),
    addStaff: build.mutation<{ staff: StaffMember }, AddStaffBody>({
      query: (body) => ({ url: consolePath('addStaff'), method: 'POST', body }),
      invalidatesTags: ['Staff'],
    }),
    updateStaff: build.mutation<{ staff: StaffMember }, { id: string; body: UpdateStaffBody }>({
      query: ({ id, body }) => ({ url: consolePath('updateStaff', { id }), method: 'PATCH', body }),
      invalidatesTags: ['Staff'],
    }),
    removeStaff: build.mutation<void, { id: string; body: StaffActionBody }>({
      query: ({ id, body }) => ({ url: consolePath('removeStaff', { id }), method: 'DELETE', body }),
      invalidatesTags: ['Staff', 'Audit'],
    }),
    /** POST /api/console/staff/{id}/reset-factors: their factors and recovery codes go, their sessions end. */
    resetStaffFactors: build.mutation<void, { id: string; body: StaffActionBody }>({
      query: ({ id, body }) => ({ url: consolePath('resetStaffFactors', { id }), method: 'POST', body }),
      invalidatesTags: ['Staff', 'Audit'],
    }),
    listStaffTokens: build.query<StaffTokenList, void>({
      query: () => consolePath('listStaffTokens'),
      providesTags: ['StaffTokens'],
    }),
    createStaffToken: build.mutation<CreatedStaffToken, CreateStaffTokenBody>({
      query: (body) => ({ url: consolePath('createStaffToken'), method: 'POST', body }),
      invalidatesTags: ['StaffTokens', 'Audit'],
    }),
    revokeStaffToken: build.mutation<void, { tokenId: string; body: RevokeStaffTokenBody }>({
      query: ({ tokenId, body }) => ({ url: consolePath('revokeStaffToken', { tokenId }), method: 'DELETE', body }),
      invalidatesTags: ['StaffTokens', 'Audit'],
    }),
  }),
});

export const {
  useListStaffQuery,
  useAddStaffMutation,
  useUpdateStaffMutation,
  useRemoveStaffMutation,
  useResetStaffFactorsMutation,
  useListStaffTokensQuery,
  useCreateStaffTokenMutation,
  useRevokeStaffTokenMutation,
} = staffApi;
