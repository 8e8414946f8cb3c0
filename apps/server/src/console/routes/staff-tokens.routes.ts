import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedStaffTokenSchema,
  CreateStaffTokenBodySchema,
  ErrorSchema,
  RevokeStaffTokenBodySchema,
  StaffTokenListSchema,
  StaffTokenParamsSchema,
} from '@portal/contract';
import { at, guardedResponses } from '../staff-guard';
import type { StaffTokenService } from '../staff-tokens.service';

/**
 * Owners' staff API tokens. Each route is in CONSOLE_SESSION_ONLY: a token never lists, creates or
 * revokes tokens.
 */
export async function staffTokensRoutes(
  app: FastifyInstance,
  { tokens }: { tokens: Pick<StaffTokenService, 'list' | 'create' | 'revoke'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...at('listStaffTokens'),
    schema: {
      summary: 'The staff API tokens that are not revoked, newest first (never their secrets)',
      response: { 200: StaffTokenListSchema, ...guardedResponses },
    },
    handler: async () => ({ items: await tokens.list() }),
  });

  r.route({
    ...at('createStaffToken'),
    schema: {
      summary: 'Create a staff API token with one role and an expiry; the answer holds its secret, shown only once',
      body: CreateStaffTokenBodySchema,
      response: { 201: CreatedStaffTokenSchema, 400: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => reply.status(201).send(await tokens.create(req.staffActor, req.body)),
  });

  r.route({
    ...at('revokeStaffToken'),
    schema: {
      summary: 'Revoke a staff API token: it answers 401 from now on',
      params: StaffTokenParamsSchema,
      body: RevokeStaffTokenBodySchema,
      response: { 204: z.null(), 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      await tokens.revoke(req.staffActor, req.params.tokenId, req.body.reason);
      return reply.status(204).send(null);
    },
  });
}
