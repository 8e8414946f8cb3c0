import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorSchema,
  LinkIdParamsSchema,
  PublicConfigSchema,
  RedeemLinkResponseSchema,
  RequestLinkBodySchema,
  RequestLinkResponseSchema,
  SessionResponseSchema,
} from '@portal/contract';
import type { AppContext } from '../../app-context';
import { clientKey } from '../../plugins/rate-limit';
import { toSessionUser } from '../users/users.service';

const SMALL_BODY = 16 * 1024;

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, services, guard, cookie, rateLimit } = ctx;

  r.get(
    '/config',
    { schema: { tags: ['auth'], summary: 'What the web app needs before sign-in', response: { 200: PublicConfigSchema } } },
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
      bodyLimit: SMALL_BODY,
      schema: {
        tags: ['auth'],
        summary: 'E-mail a sign-in link (also signs up a new address)',
        body: RequestLinkBodySchema,
        response: { 202: RequestLinkResponseSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req, reply) => {
      await rateLimit(`auth:client:${clientKey(req)}`, config.rateLimits.authPerMinute);
      await rateLimit(
        `auth:address:${req.body.email}`,
        config.rateLimits.linkPerAddressPerMinute,
        'Too many sign-in links were requested for this address.',
      );
      await services.auth.requestLink(req.body.email, req.body.to);
      return reply.status(202).send({ sent: true as const });
    },
  );

  r.get(
    '/auth/link/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Redeem a sign-in link: starts a session',
        params: LinkIdParamsSchema,
        response: { 200: RedeemLinkResponseSchema, 404: ErrorSchema, 410: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req, reply) => {
      await rateLimit(`auth:client:${clientKey(req)}`, config.rateLimits.authPerMinute);
      const { user, to, sessionSecret } = await services.auth.redeemLink(req.params.id);
      cookie.set(reply, sessionSecret);
      return { user: toSessionUser(user), to };
    },
  );

  r.get(
    '/auth/session',
    { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: SessionResponseSchema, 401: ErrorSchema } } },
    async (req) => {
      const auth = await guard.requireUser(req);
      return { user: toSessionUser(auth.user) };
    },
  );

  r.get('/auth/logout', { schema: { tags: ['auth'], summary: 'End the session' } }, async (req, reply) => {
    const auth = await guard.loadAuth(req);
    if (auth) await services.sessions.destroy(auth.idHash);
    cookie.clear(reply);
    if (req.headers['sec-fetch-mode'] === 'navigate' || String(req.headers.accept ?? '').includes('text/html')) {
      return reply.redirect('/login', 303);
    }
    return reply.status(204).send();
  });
}
