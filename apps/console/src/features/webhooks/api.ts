import {
  consolePath,
  type CreateWebhookEndpointBody,
  type Page,
  type RotateWebhookSecretBody,
  type UpdateWebhookEndpointBody,
  type WebhookAttempt,
  type WebhookEndpoint,
} from '@portal/contract';
import { api } from '../../lib/api';

type WithSecret = { endpoint: WebhookEndpoint; secret: string };

export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    listWebhookEndpoints: build.query<{ items: WebhookEndpoint[] }, void>({
      query: () => consolePath('listWebhookEndpoints'),
      providesTags: ['Webhooks'],
    }),
    /** The answer holds the signing secret, shown this once. */
    createWebhookEndpoint: build.mutation<WithSecret, CreateWebhookEndpointBody>({
      query: (body) => ({ url: consolePath('createWebhookEndpoint'), method: 'POST', body }),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    updateWebhookEndpoint: build.mutation<{ endpoint: WebhookEndpoint }, { id: string; body: UpdateWebhookEndpointBody }>({
      query: ({ id, body }) => ({ url: consolePath('updateWebhookEndpoint', { endpointId: id }), method: 'PATCH', body }),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    deleteWebhookEndpoint: build.mutation<void, { id: string; reason: string }>({
      query: ({ id, reason }) => ({
        url: consolePath('deleteWebhookEndpoint', { endpointId: id }),
        method: 'DELETE',
        body: { reason },
      }),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    rotateWebhookSecret: build.mutation<WithSecret, { id: string; body: RotateWebhookSecretBody }>({
      query: ({ id, body }) => ({ url: consolePath('rotateWebhookSecret', { endpointId: id }), method: 'POST', body }),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    listWebhookAttempts: build.query<Page<WebhookAttempt>, { id: string; page: number }>({
      query: ({ id, page }) => `${consolePath('listWebhookAttempts', { endpointId: id })}?page=${page}&size=20`,
      providesTags: ['Webhooks'],
    }),
    resendWebhook: build.mutation<{ deliveryId: number }, { id: string; deliveryId: number; reason: string }>({
      query: ({ id, deliveryId, reason }) => ({
        url: consolePath('resendWebhook', { endpointId: id, deliveryId: String(deliveryId) }),
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
  }),
});

export const {
  useListWebhookEndpointsQuery,
  useCreateWebhookEndpointMutation,
  useUpdateWebhookEndpointMutation,
  useDeleteWebhookEndpointMutation,
  useRotateWebhookSecretMutation,
  useListWebhookAttemptsQuery,
  useResendWebhookMutation,
} = webhooksApi;
