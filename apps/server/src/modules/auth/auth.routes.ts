import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SessionQuerySchema,
  ErrorSchema,
  LinkIdParamsSchema,
  LinkRecipientResponseSchema,
  PublicConfigSchema,
  RedeemLinkResponseSchema,
  RequestLinkBodySchema,
  RequestLinkResponseSchema,
  SessionResponseSchema,
} from '@portal/contract';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { clientKey, type LinkAddressLimit, type RateLimit } from '../../plugins/rate-limit';
import { signInRequired, type SessionCookie } from '../../plugins/session';
import type { AuthService } from './auth.service';
import type { SessionService } from './sessions';
import { toSessionUser } from '../users/users.service';

export type AuthRoutesDeps = {
  config: Pick<Config, 'brand' | 'google' | 'stripe' | 'rateLimits'>;
  auth: Pick<AuthService, 'requestLink' | 'redeemLink' | 'linkRecipient'>;
  sessions: Pick<SessionService, 'destroy'>;
  cookie: SessionCookie;
  rateLimit: RateLimit;
  limitLinkAddress: LinkAddressLimit;
};

/**
 * The link exchange sets the session cookie, so it runs only for the portal's own page (a
 * same-origin fetch after the person pressed Continue). A cross-site page could otherwise send a
 * victim's browser to the exchange of the attacker's own link and sign the victim in to the
 * attacker's account (login CSRF). Refused before the link is looked at, so it stays usable.
 * Clients without Fetch Metadata (curl, scripts) are not browsers a page can steer.
 */
function refuseUnlessOwnPage(req: FastifyRequest) {
  const site = req.headers['sec-fetch-site'];
  if ((site !== undefined && site !== 'same-origin') || req.headers['sec-fetch-mode'] === 'navigate') {
    throw new AppError('CROSS_SITE_REQUEST', 'Open the sign-in link from your e-mail and press Continue on the page it opens.');
  }
}

export async function authRoutes(
  app: FastifyInstance,
  { config, auth, sessions, cookie, rateLimit, limitLinkAddress }: AuthRoutesDeps,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limitClient = (req: FastifyRequest) => rateLimit(`auth:client:${clientKey(req)}`, config.rateLimits.authPerMinute);

  r.get(
    '/config',
    { schema: { summary: 'What the web app needs before sign-in', response: { 200: PublicConfigSchema } } },
    async () => ({
      brandName: config.brand.name,
      docsUrl: config.brand.docsUrl,
      googleEnabled: Boolean(config.google),
      billingProvider: config.stripe ? ('stripe' as const) : ('local' as const),
      stripePublishableKey: config.stripe?.publishableKey ?? null,
    }),
  );

  r.post(
    '/auth/link',
    {
      schema: {
        summary: 'E-mail a sign-in link (also signs up a new address)',
        body: RequestLinkBodySchema,
        response: { 202: RequestLinkResponseSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req, reply) => {
      await limitClient(req);
      await limitLinkAddress(req.body.email);
      await auth.requestLink(req.body.email, req.body.to);
      return reply.status(202).send({ sent: true as const });
    },
  );

  r.get(
    '/auth/link/:id',
    {
      // HEAD must not redeem: Fastify's automatic HEAD route would run this handler.
      exposeHeadRoute: false,
      schema: {
        summary: "Redeem a sign-in link: starts a session (only for the portal's own page, never on a navigation)",
        params: LinkIdParamsSchema,
        response: { 200: RedeemLinkResponseSchema, 403: ErrorSchema, 404: ErrorSchema, 410: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req, reply) => {
      refuseUnlessOwnPage(req);
      await limitClient(req);
      const { user, to, sessionSecret } = await auth.redeemLink(req.params.id);
      cookie.set(reply, sessionSecret);
      return { user: toSessionUser(user), to };
    },
  );

  r.get(
    '/auth/recipient/:id',
    {
      schema: {
        summary: 'The address a usable sign-in link was sent to (does not use the link up)',
        params: LinkIdParamsSchema,
        response: { 200: LinkRecipientResponseSchema, 404: ErrorSchema, 410: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req) => {
      await limitClient(req);
      return auth.linkRecipient(req.params.id);
    },
  );

  r.get(
    '/auth/session',
    {
      // Looked up, not required: signed out, the query decides between 401 and 204 (after its validation).
      config: { auth: 'optional' },
      schema: {
        summary: 'The signed-in user; with ?optional=true, 204 instead of 401 when nobody is signed in',
        // The web app's start-up check asks with optional=true: a visitor without a session is
        // the normal case there, not an error (a 401 shows as an error in the browser console).
        querystring: SessionQuerySchema,
        response: { 200: SessionResponseSchema, 204: z.null(), 401: ErrorSchema },
      },
    },
    async (req, reply) => {
      if (req.auth) return { user: toSessionUser(req.auth.user) };
      if (req.query.optional === 'true') return reply.status(204).send(null);
      throw signInRequired();
    },
  );

  r.get('/auth/logout', { config: { auth: 'optional' }, schema: { summary: 'End the session' } }, async (req, reply) => {
    if (req.auth) await sessions.destroy(req.auth.idHash);
    cookie.clear(reply);
    if (req.headers['sec-fetch-mode'] === 'navigate' || String(req.headers.accept ?? '').includes('text/html')) {
      return reply.redirect('/login', 303);
    }
    return reply.status(204).send();
  });
}
