import type { Interval, Invoice, PaymentMethod, SetupIntentResponse, Subscription } from '@portal/contract';
import { api } from '../../lib/api';

type Items<T> = { items: T[] };
type SubscriptionResult = { subscription: Subscription };

export const billingApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/billing/methods/ */
    listPaymentMethods: builder.query<Items<PaymentMethod>, void>({
      query: () => '/billing/methods/',
      providesTags: ['Billing'],
    }),
    /** DELETE /api/billing/methods/{id} */
    removePaymentMethod: builder.mutation<null, string>({
      query: (id) => ({ url: `/billing/methods/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Billing'],
    }),
    /** POST /api/billing/intents/setup (no body) */
    createSetupIntent: builder.mutation<SetupIntentResponse, void>({
      query: () => ({ url: '/billing/intents/setup', method: 'POST' }),
      invalidatesTags: ['Billing'],
    }),
    /** GET /api/billing/subscriptions/ */
    listSubscriptions: builder.query<Items<Subscription>, void>({
      query: () => '/billing/subscriptions/',
      providesTags: ['Billing'],
    }),
    /** GET /api/billing/subscriptions/{stripeId}/invoices */
    listInvoices: builder.query<Items<Invoice>, string>({
      query: (stripeId) => `/billing/subscriptions/${encodeURIComponent(stripeId)}/invoices`,
      providesTags: ['Billing'],
    }),
    /** PATCH /api/billing/subscriptions/{stripeId}/ { interval } */
    updateInterval: builder.mutation<SubscriptionResult, { stripeId: string; interval: Interval }>({
      query: ({ stripeId, interval }) => ({
        url: `/billing/subscriptions/${encodeURIComponent(stripeId)}/`,
        method: 'PATCH',
        body: { interval },
      }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** PUT /api/billing/subscriptions/{stripeId}/quantity { quantity } */
    updateQuantity: builder.mutation<SubscriptionResult, { stripeId: string; quantity: number }>({
      query: ({ stripeId, quantity }) => ({
        url: `/billing/subscriptions/${encodeURIComponent(stripeId)}/quantity`,
        method: 'PUT',
        body: { quantity },
      }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** DELETE /api/billing/subscriptions/{stripeId}/ (cancel at period end) */
    cancelSubscription: builder.mutation<SubscriptionResult, string>({
      query: (stripeId) => ({ url: `/billing/subscriptions/${encodeURIComponent(stripeId)}/`, method: 'DELETE' }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** POST /api/billing/subscriptions/{stripeId}/reactivate (no body) */
    reactivateSubscription: builder.mutation<SubscriptionResult, string>({
      query: (stripeId) => ({
        url: `/billing/subscriptions/${encodeURIComponent(stripeId)}/reactivate`,
        method: 'POST',
      }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    // checkout (POST /api/billing/intents/checkout) lands with the billing page.
  }),
});

export const {
  useListPaymentMethodsQuery,
  useRemovePaymentMethodMutation,
  useCreateSetupIntentMutation,
  useListSubscriptionsQuery,
  useListInvoicesQuery,
  useUpdateIntervalMutation,
  useUpdateQuantityMutation,
  useCancelSubscriptionMutation,
  useReactivateSubscriptionMutation,
} = billingApi;
