import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWebhookEndpointBodySchema,
  DeleteWebhookEndpointBodySchema,
  ErrorSchema,
  ListWebhookAttemptsQuerySchema,
  ResendWebhookBodySchema,
  ResendWebhookParamsSchema,
  ResendWebhookResponseSchema,
  RotateWebhookSecretBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookAttemptPageSchema,
  WebhookEndpointListSchema,
  WebhookEndpointParamsSchema,
  WebhookEndpointResponseSchema,
  WebhookEndpointWithSecretSchema,
} from '@portal/contract';
import type { WebhookService } from '../../modules/webhooks/webhooks.service';
import { at, guardedResponses } from '../staff-guard';

export type WebhooksRoutesDeps = {
  webhooks: Pick<WebhookService, 'list' | 'create' | 'update' | 'remove' | 'rotateSecret' | 'listAttempts' | 'resend'>;
};

/** Owners manage the outbound webhooks' endpoints and read their delivery log (docs/webhooks.md). */
export async function webhooksRoutes(app: FastifyInstance, { webhooks }: WebhooksRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...at('listWebhookEndpoints'),
    schema: { summary: 'The webhook endpoints', response: { 200: WebhookEndpointListSchema, ...guardedResponses } },
    handler: async () => ({ items: await webhooks.list() }),
  });

  r.route({
    ...at('createWebhookEndpoint'),
    schema: {
      summary: 'Add a webhook endpoint: the answer holds its signing secret, shown this once',
      body: CreateWebhookEndpointBodySchema,
      response: { 201: WebhookEndpointWithSecretSchema, 400: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => reply.status(201).send(await webhooks.create(req.body, req.staffActor)),
  });

  r.route({
    ...at('updateWebhookEndpoint'),
    schema: {
      summary: "Change an endpoint's URL, events, description, or turn it off and on",
      params: WebhookEndpointParamsSchema,
      body: UpdateWebhookEndpointBodySchema,
      response: { 200: WebhookEndpointResponseSchema, 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => ({ endpoint: await webhooks.update(req.params.endpointId, req.body, req.staffActor) }),
  });

  r.route({
    ...at('deleteWebhookEndpoint'),
    schema: {
      summary: 'Delete an endpoint with its delivery log',
      params: WebhookEndpointParamsSchema,
      body: DeleteWebhookEndpointBodySchema,
      response: { 204: z.null(), 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      await webhooks.remove(req.params.endpointId, req.body.reason, req.staffActor);
      return reply.status(204).send(null);
    },
  });

  r.route({
    ...at('rotateWebhookSecret'),
    schema: {
      summary: 'A new signing secret, shown this once; the previous one keeps signing for the overlap',
      params: WebhookEndpointParamsSchema,
      body: RotateWebhookSecretBodySchema,
      response: { 200: WebhookEndpointWithSecretSchema, 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => webhooks.rotateSecret(req.params.endpointId, req.body, req.staffActor),
  });

  r.route({
    ...at('listWebhookAttempts'),
    schema: {
      summary: "The endpoint's delivery log, newest attempt first",
      params: WebhookEndpointParamsSchema,
      querystring: ListWebhookAttemptsQuerySchema,
      response: { 200: WebhookAttemptPageSchema, 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => webhooks.listAttempts(req.params.endpointId, req.query.page, req.query.size),
  });

  r.route({
    ...at('resendWebhook'),
    schema: {
      summary: "Send a delivery's event again (same webhook-id), after the endpoint's other events about its resource",
      params: ResendWebhookParamsSchema,
      body: ResendWebhookBodySchema,
      response: { 202: ResendWebhookResponseSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) =>
      reply.status(202).send({
        deliveryId: await webhooks.resend(req.params.endpointId, req.params.deliveryId, req.body.reason, req.staffActor),
      }),
  });
}
