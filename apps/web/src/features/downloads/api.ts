import type { DownloadInfo } from '@portal/contract';
import { api } from '../../lib/api';

export const downloadsApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/products/pce/download?refresh: a signed, expiring URL for the ISO. */
    getDownload: builder.query<DownloadInfo, { refresh?: boolean } | void>({
      query: (args) => ({ url: '/products/pce/download', params: args?.refresh ? { refresh: 'true' } : undefined }),
      providesTags: ['Products'],
    }),
  }),
});

export const { useGetDownloadQuery, useLazyGetDownloadQuery } = downloadsApi;
