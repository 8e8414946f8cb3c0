import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiTokenListSchema,
  ApiTokenParamsSchema,
  CreateApiTokenBodySchema,
  CreatedApiTokenSchema,
  ErrorSchema,
} from '@portal/contract';
import { signedIn } from '../../plugins/session';
import type { ApiTokenService } from './api-tokens.service';

/**
 * The signed-in customer's personal API tokens, on the profile. None of these routes is in
 * ROUTE_SCOPES: a token can neither list, create nor revoke tokens.
 */
export async function apiTokensRoutes(
  app: FastifyInstance,
  { tokens }: { tokens: Pick<ApiTokenService, 'list' | 'create' | 'revoke'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/users/tokens',
    signedIn({
      summary: 'The personal API tokens of the signed-in user that are not revoked, newest first (never their secrets)',
      response: { 200: ApiTokenListSchema, 403: ErrorSchema },
    }),
    async (req) => ({ items: await tokens.list(req.user.id) }),
  );

  r.post(
    '/users/tokens',
    signedIn({
      summary: 'Create a personal API token; the answer holds its secret, which is never shown again',
      body: CreateApiTokenBodySchema,
      response: { 201: CreatedApiTokenSchema, 400: ErrorSchema, 403: ErrorSchema, 409: ErrorSchema },
    }),
    async (req, reply) => {
      const created = await tokens.create(req.user.id, req.user.email, req.body);
      return reply.status(201).send(created);
    },
  );

  r.delete(
    '/users/tokens/:id',
    signedIn({
      summary: 'Revoke a personal API token: it answers 401 from now on',
      params: ApiTokenParamsSchema,
      response: { 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
    }),
    async (req, reply) => {
      await tokens.revoke(req.user.id, req.user.email, req.params.id);
      return (reply as FastifyReply).status(204).send();
    },
  );
}
