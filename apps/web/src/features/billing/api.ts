import type { z } from 'zod';
import type {
  BillingDetailsResponse,
  ChangePreview,
  CheckoutPreview,
  UpdateBillingDetailsBody,
  CheckoutBody,
  CheckoutResponseSchema,
  Interval,
  Invoice,
  PayOpenInvoiceBody,
  LocalConfirmSetupBodySchema,
  PaymentMethod,
  PaymentMethodResponseSchema,
  PreviewChangeBody,
  Price,
  SetupIntentResponse,
  Subscription,
} from '@portal/contract';
import { subscriptionInvoicesPath, subscriptionPath } from '@portal/contract';
import { api } from '../../lib/api';

type Items<T> = { items: T[] };
type SubscriptionResult = { subscription: Subscription };
type CheckoutResult = z.infer<typeof CheckoutResponseSchema>;
type LocalConfirmSetupBody = z.input<typeof LocalConfirmSetupBodySchema>;
type PaymentMethodResult = z.infer<typeof PaymentMethodResponseSchema>;

const sub = subscriptionPath;

export const billingApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** GET /api/billing/prices: the plan's price per node and period (minor units). */
    listPrices: builder.query<Price, void>({
      query: () => '/billing/prices',
      providesTags: ['Billing'],
    }),
    /** GET /api/billing/details: who invoices are made out to (null until given). */
    getBillingDetails: builder.query<BillingDetailsResponse, void>({
      query: () => '/billing/details',
      providesTags: ['Billing'],
    }),
    /** PUT /api/billing/details: applies to later invoices; an EU VAT number is checked with VIES. */
    updateBillingDetails: builder.mutation<BillingDetailsResponse, UpdateBillingDetailsBody>({
      query: (body) => ({ url: '/billing/details', method: 'PUT', body }),
      invalidatesTags: ['Billing'],
    }),
    /** GET /api/billing/checkout/preview: net, tax and total of a checkout (changes nothing). */
    previewCheckout: builder.query<CheckoutPreview, { interval: Interval; quantity: number }>({
      query: ({ interval, quantity }) => `/billing/checkout/preview?interval=${interval}&quantity=${quantity}`,
      providesTags: ['Billing'],
    }),
    /** GET /api/billing/methods/ */
    listPaymentMethods: builder.query<Items<PaymentMethod>, void>({
      query: () => '/billing/methods/',
      providesTags: ['Billing'],
    }),
    /** DELETE /api/billing/methods/{id}; 409 when it is the only card paying for a subscription. */
    removePaymentMethod: builder.mutation<null, string>({
      query: (id) => ({ url: `/billing/methods/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Billing'],
    }),
    /**
     * POST /api/billing/intents/setup (no body): a client secret for the card form. It changes
     * nothing the page lists, so it invalidates nothing.
     */
    createSetupIntent: builder.mutation<SetupIntentResponse, void>({
      query: () => ({ url: '/billing/intents/setup', method: 'POST' }),
    }),
    /** POST /api/billing/local/confirm-setup: the local engine's card form (embedded default only). */
    confirmLocalSetup: builder.mutation<PaymentMethodResult, LocalConfirmSetupBody>({
      query: (body) => ({ url: '/billing/local/confirm-setup', method: 'POST', body }),
      invalidatesTags: ['Billing'],
    }),
    /**
     * POST /api/billing/intents/checkout: buys a subscription and issues its license. The
     * Idempotency-Key names one purchase, so a retried request never charges twice.
     */
    checkout: builder.mutation<CheckoutResult, { body: CheckoutBody; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: '/billing/intents/checkout',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** GET /api/billing/subscriptions/ */
    listSubscriptions: builder.query<Items<Subscription>, void>({
      query: () => '/billing/subscriptions/',
      providesTags: ['Billing'],
    }),
    /** GET /api/billing/subscriptions/{stripeId}/invoices */
    listInvoices: builder.query<Items<Invoice>, string>({
      query: subscriptionInvoicesPath,
      providesTags: ['Billing'],
    }),
    /**
     * POST /api/billing/subscriptions/{stripeId}/preview: what a quantity or interval change
     * would charge now and the next renewal. It changes nothing, so it is a query.
     */
    previewChange: builder.query<ChangePreview, { subscriptionId: string; change: PreviewChangeBody }>({
      query: ({ subscriptionId, change }) => ({ url: `${sub(subscriptionId)}/preview`, method: 'POST', body: change }),
      // No tag: after the change itself succeeds the page reloads; refetching the preview of a
      // change that has just been made would only flash its 'must be different' error.
      keepUnusedDataFor: 30,
    }),
    /** PATCH /api/billing/subscriptions/{stripeId}/ { interval } */
    updateInterval: builder.mutation<SubscriptionResult, { subscriptionId: string; interval: Interval }>({
      query: ({ subscriptionId, interval }) => ({ url: `${sub(subscriptionId)}/`, method: 'PATCH', body: { interval } }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** PUT /api/billing/subscriptions/{stripeId}/quantity { quantity } */
    updateQuantity: builder.mutation<SubscriptionResult, { subscriptionId: string; quantity: number }>({
      query: ({ subscriptionId, quantity }) => ({ url: `${sub(subscriptionId)}/quantity`, method: 'PUT', body: { quantity } }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** DELETE /api/billing/subscriptions/{stripeId}/ (cancel at period end) */
    cancelSubscription: builder.mutation<SubscriptionResult, string>({
      query: (subscriptionId) => ({ url: `${sub(subscriptionId)}/`, method: 'DELETE' }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /** POST /api/billing/subscriptions/{stripeId}/reactivate (no body) */
    reactivateSubscription: builder.mutation<SubscriptionResult, string>({
      query: (subscriptionId) => ({ url: `${sub(subscriptionId)}/reactivate`, method: 'POST' }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
    /**
     * POST /api/billing/subscriptions/{stripeId}/pay { paymentMethodId }: pays a failed renewal's
     * open invoice now with a card on file (402 declined). The Idempotency-Key names one attempt.
     */
    payOpenInvoice: builder.mutation<
      SubscriptionResult,
      { subscriptionId: string; body: PayOpenInvoiceBody; idempotencyKey: string }
    >({
      query: ({ subscriptionId, body, idempotencyKey }) => ({
        url: `${sub(subscriptionId)}/pay`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Billing', 'Licenses'],
    }),
  }),
});

export const {
  useGetBillingDetailsQuery,
  useUpdateBillingDetailsMutation,
  usePreviewCheckoutQuery,
  useListPricesQuery,
  useListPaymentMethodsQuery,
  useLazyListPaymentMethodsQuery,
  useRemovePaymentMethodMutation,
  useCreateSetupIntentMutation,
  useConfirmLocalSetupMutation,
  useCheckoutMutation,
  useListSubscriptionsQuery,
  useListInvoicesQuery,
  usePreviewChangeQuery,
  useUpdateIntervalMutation,
  useUpdateQuantityMutation,
  useCancelSubscriptionMutation,
  useReactivateSubscriptionMutation,
  usePayOpenInvoiceMutation,
} = billingApi;
