import {
  consolePath,
  type ActionResult,
  type ConsoleCustomer,
  type ConsoleRouteId,
  type UpdateCustomerBillingDetailsBody,
} from '@portal/contract';
import { api } from '../../lib/api';

/** The staff actions the customer page offers, by their route id. */
export const ACTION_ROUTES = [
  'suspendLicense',
  'resumeLicense',
  'extendLicense',
  'releaseNode',
  'issueLicense',
  'sendSignInLink',
  'endSessions',
  'cancelAtPeriodEnd',
  'reactivateSubscription',
  'cancelNow',
  'retryPayment',
  'refundInvoice',
  'creditInvoice',
  'deleteCustomer',
] as const satisfies readonly ConsoleRouteId[];
export type ActionRoute = (typeof ACTION_ROUTES)[number];

export interface ActionArgs {
  /** The route's path parameters (userId, licenseKey, nodeId, subscriptionId, invoiceId). */
  params: Record<string, string>;
  /** `{ reason, … }` as the contract's body schema of the action has it. */
  body: Record<string, unknown>;
}

export const customersApi = api.injectEndpoints({
  endpoints: (build) => {
    /** One action: POST with its reason; everything it may have changed is read again. */
    const action = (route: ActionRoute) =>
      build.mutation<ActionResult, ActionArgs>({
        query: ({ params, body }) => ({ url: consolePath(route, params), method: 'POST', body }),
        invalidatesTags: ['Customer', 'Subscriptions', 'Licenses', 'Invoices', 'Overview', 'Audit', 'Search'],
      });
    return {
      /** GET /api/console/customers/{userId}: everything the customer page shows, in one read. */
      getCustomer: build.query<ConsoleCustomer, string>({
        query: (userId) => consolePath('getCustomer', { userId }),
        providesTags: (_r, _e, userId) => [{ type: 'Customer', id: userId }, 'Customer'],
      }),
      suspendLicense: action('suspendLicense'),
      resumeLicense: action('resumeLicense'),
      extendLicense: action('extendLicense'),
      releaseNode: action('releaseNode'),
      issueLicense: action('issueLicense'),
      sendSignInLink: action('sendSignInLink'),
      endSessions: action('endSessions'),
      cancelAtPeriodEnd: action('cancelAtPeriodEnd'),
      reactivateSubscription: action('reactivateSubscription'),
      cancelNow: action('cancelNow'),
      retryPayment: action('retryPayment'),
      refundInvoice: action('refundInvoice'),
      creditInvoice: action('creditInvoice'),
      deleteCustomer: action('deleteCustomer'),
      /** POST …/customers/{userId}/billing-details: `{ reason, details }`; later invoices use them. */
      updateCustomerBillingDetails: build.mutation<ActionResult, { userId: string; body: UpdateCustomerBillingDetailsBody }>({
        query: ({ userId, body }) => ({ url: consolePath('updateCustomerBillingDetails', { userId }), method: 'POST', body }),
        invalidatesTags: ['Customer', 'Audit'],
      }),
    };
  },
});

export const { useGetCustomerQuery, useUpdateCustomerBillingDetailsMutation } = customersApi;
