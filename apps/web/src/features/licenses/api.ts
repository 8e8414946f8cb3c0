import type { License, LicenseNode, Page, ValidateBody, ValidateResponse } from '@portal/contract';
import { api } from '../../lib/api';

export interface PageArgs {
  page?: number;
  size?: number;
}

export const licensesApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/licenses/?page&size */
    listLicenses: builder.query<Page<License>, PageArgs>({
      query: ({ page, size }) => ({ url: '/licenses/', params: { page, size } }),
      providesTags: ['Licenses'],
    }),
    /** GET /api/licenses/{licenseKey}/nodes?page&size */
    listNodes: builder.query<Page<LicenseNode>, PageArgs & { licenseKey: string }>({
      query: ({ licenseKey, page, size }) => ({
        url: `/licenses/${encodeURIComponent(licenseKey)}/nodes`,
        params: { page, size },
      }),
      providesTags: ['Licenses'],
    }),
    /** POST /api/licenses/{licenseKey}/validate */
    validateLicense: builder.mutation<ValidateResponse, ValidateBody & { licenseKey: string }>({
      query: ({ licenseKey, ...body }) => ({
        url: `/licenses/${encodeURIComponent(licenseKey)}/validate`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Licenses'],
    }),
    // activateLicense (POST /api/licenses/{licenseKey}/activate) lands with the licenses page; it
    // needs the contract to export the inferred type of ActivateResponseSchema.
  }),
});

export const { useListLicensesQuery, useListNodesQuery, useValidateLicenseMutation } = licensesApi;
