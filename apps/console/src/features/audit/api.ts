import { consolePath, type StaffAuditEntry } from '@portal/contract';
import { api } from '../../lib/api';

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/console/audit: every staff action with its reason, newest first. */
    listStaffAudit: build.query<
      { items: StaffAuditEntry[]; page: number; size: number; total: number },
      Record<string, string | number>
    >({
      query: (params) => ({ url: consolePath('listStaffAudit'), params }),
      providesTags: ['Audit'],
    }),
  }),
});

export const { useListStaffAuditQuery } = auditApi;
