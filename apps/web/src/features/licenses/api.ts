import type {
  ActivateBody,
  ActivateResponse,
  License,
  LicenseNode,
  Page,
  ValidateBody,
  ValidateResponse,
} from '@portal/contract';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { api } from '../../lib/api';

/** The one API's base query is fetchBaseQuery, whose meta carries the HTTP response. */
const responseOf = (meta: unknown) => (meta as FetchBaseQueryMeta | undefined)?.response;

export interface PageArgs {
  page?: number;
  size?: number;
}

const licensePath = (licenseKey: string) => `/licenses/${encodeURIComponent(licenseKey)}`;

/** The activate answer, and whether it added a node (201) or found the fingerprint already active (200). */
export type ActivateResult = ActivateResponse & { created: boolean };

/** A signed license file: its exact bytes (pretty-printed JSON) and the name the server gives it. */
export interface LicenseFileDownload {
  filename: string;
  text: string;
}

function filenameOf(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename="?([^";]+)"?/i);
  return match?.[1] ?? fallback;
}

// The list's page size and the page an address names: shared with the server, which sends the
// first page's answer with the page (docs/decisions/139).
export { LICENSES_PAGE_SIZE, licensesPageAt as listPageAt } from '@portal/contract';

export const licensesApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/licenses/?page&size */
    listLicenses: builder.query<Page<License>, PageArgs>({
      query: ({ page, size }) => ({ url: '/licenses/', params: { page, size } }),
      providesTags: ['Licenses'],
    }),
    /** GET /api/licenses/{licenseKey}/nodes?page&size */
    listNodes: builder.query<Page<LicenseNode>, PageArgs & { licenseKey: string }>({
      query: ({ licenseKey, page, size }) => ({ url: `${licensePath(licenseKey)}/nodes`, params: { page, size } }),
      providesTags: ['Licenses'],
    }),
    /** POST /api/licenses/{licenseKey}/validate: a validation with a fingerprint also refreshes its last-seen time. */
    validateLicense: builder.mutation<ValidateResponse, ValidateBody & { licenseKey: string }>({
      query: ({ licenseKey, ...body }) => ({ url: `${licensePath(licenseKey)}/validate`, method: 'POST', body }),
      invalidatesTags: ['Licenses'],
    }),
    /** POST /api/licenses/{licenseKey}/activate: 201 for a new node, 200 when the fingerprint was already active. */
    activateLicense: builder.mutation<ActivateResult, ActivateBody & { licenseKey: string }>({
      query: ({ licenseKey, ...body }) => ({ url: `${licensePath(licenseKey)}/activate`, method: 'POST', body }),
      transformResponse: (answer: ActivateResponse, meta) => ({ ...answer, created: responseOf(meta)?.status === 201 }),
      invalidatesTags: ['Licenses'],
    }),
    /** DELETE /api/licenses/{licenseKey}/nodes/{id}: frees the node of a retired machine. */
    releaseNode: builder.mutation<void, { licenseKey: string; id: string }>({
      query: ({ licenseKey, id }) => ({
        url: `${licensePath(licenseKey)}/nodes/${encodeURIComponent(id)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Licenses'],
    }),
    /**
     * GET /api/licenses/{licenseKey}/file: the signed license file, kept byte for byte (a mutation,
     * as each download is a fresh, newly signed file that must not be served from the cache).
     */
    downloadLicenseFile: builder.mutation<LicenseFileDownload, { licenseKey: string }>({
      query: ({ licenseKey }) => ({
        url: `${licensePath(licenseKey)}/file`,
        // Success is the file's text; an error is the usual JSON `{ message, code }`.
        responseHandler: async (response) => (response.ok ? response.text() : response.json()),
      }),
      transformResponse: (text: string, meta, { licenseKey }) => ({
        text,
        filename: filenameOf(responseOf(meta)?.headers.get('content-disposition') ?? null, `license-${licenseKey}.json`),
      }),
    }),
  }),
});

export const {
  useListLicensesQuery,
  useListNodesQuery,
  useValidateLicenseMutation,
  useActivateLicenseMutation,
  useReleaseNodeMutation,
  useDownloadLicenseFileMutation,
} = licensesApi;
