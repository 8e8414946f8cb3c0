import { consolePath, type AddStaffBody, type StaffActionBody, type StaffMember, type UpdateStaffBody } from '@portal/contract';
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
  }),
});

export const {
  useListStaffQuery,
  useAddStaffMutation,
  useUpdateStaffMutation,
  useRemoveStaffMutation,
  useResetStaffFactorsMutation,
} = staffApi;
