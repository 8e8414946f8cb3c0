import { consolePath, type AddStaffBody, type StaffMember, type UpdateStaffBody } from '@portal/contract';
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
    removeStaff: build.mutation<void, string>({
      query: (id) => ({ url: consolePath('removeStaff', { id }), method: 'DELETE' }),
      invalidatesTags: ['Staff'],
    }),
  }),
});

export const { useListStaffQuery, useAddStaffMutation, useUpdateStaffMutation, useRemoveStaffMutation } = staffApi;
