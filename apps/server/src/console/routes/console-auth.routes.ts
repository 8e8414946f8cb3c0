import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConsoleLinkParamsSchema,
  ConsoleMeSchema,
  ConsoleRequestLinkBodySchema,
  ConsoleRequestLinkResponseSchema,
  ErrorSchema,
} from '@portal/contract';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { clientKey, type RateLimit } from '../../plugins/rate-limit';
import type { StaffAuth, StaffSession } from '../staff-auth';
import { at, guardedResponses, type StaffCookie } from '../staff-guard';

export type ConsoleAuthRoutesDeps = {
  config: Pick<Config, 'rateLimits'>;
  auth: Pick<StaffAuth, 'requestLink' | 'redeemLink' | 'signOut' | 'lookup'>;
  cookie: StaffCookie;
  rateLimit: RateLimit;
};

/** Who is signed in, and whether the second factor is still to come. */
const me = (s: StaffSession) => ({
  staff: { id: s.staff.id, email: s.staff.email, role: s.staff.role },
  secondFactor: s.secondFactor,
});

/** Sign-in sets the cookie: only for the console's own page (same-origin fetch), as the portal's. */
function refuseUnlessOwnPage(req: FastifyRequest) {
  const site = req.headers['sec-fetch-site'];
  if ((site !== undefined && site !== 'same-origin') || req.headers['sec-fetch-mode'] === 'navigate') {
    throw new AppError('CROSS_SITE_REQUEST', 'Open the sign-in link from your e-mail and press Continue on the page it opens.');
  }
}

/** Staff sign-in by e-mailed link, sign-out and who is signed in. */
export async function consoleAuthRoutes(app: FastifyInstance, { config, auth, cookie, rateLimit }: ConsoleAuthRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limitClient = (req: FastifyRequest) => rateLimit(`console:client:${clientKey(req)}`, config.rateLimits.authPerMinute);

  r.route({
    ...at('requestLink'),
    schema: {
      summary: 'E-mail a console sign-in link (202 whether or not the address is staff)',
      body: ConsoleRequestLinkBodySchema,
      response: { 202: ConsoleRequestLinkResponseSchema, 400: ErrorSchema, 429: ErrorSchema },
    },
    handler: async (req, reply) => {
      await limitClient(req);
      await rateLimit(
        `console:address:${req.body.email}`,
        config.rateLimits.linkPerAddressPerMinute,
        'Too many sign-in links were requested for this address.',
      );
      await auth.requestLink(req.body.email);
      return reply.status(202).send({ sent: true as const });
    },
  });

  r.route({
    ...at('exchangeLink'),
    schema: {
      summary: 'Redeem a console sign-in link: starts a staff session',
      params: ConsoleLinkParamsSchema,
      response: { 200: ConsoleMeSchema, 403: ErrorSchema, 404: ErrorSchema, 410: ErrorSchema, 429: ErrorSchema },
    },
    handler: async (req, reply) => {
      refuseUnlessOwnPage(req);
      await limitClient(req);
      const { sessionSecret } = await auth.redeemLink(req.params.id);
      cookie.set(reply, sessionSecret);
      const session = await auth.lookup(sessionSecret);
      if (!session) throw new AppError('UNAUTHENTICATED', 'Please sign in to the console to continue');
      return me(session);
    },
  });

  r.route({
    ...at('signOut'),
    schema: { summary: 'End the staff session', response: { 204: z.null() } },
    handler: async (req, reply) => {
      if (req.staffSession) await auth.signOut(req.staffSession.idHash);
      cookie.clear(reply);
      return reply.status(204).send(null);
    },
  });

  r.route({
    ...at('me'),
    schema: { summary: 'The signed-in staff member', response: { 200: ConsoleMeSchema, ...guardedResponses } },
    handler: async (req) => me(req.staffSession!),
  });
}
