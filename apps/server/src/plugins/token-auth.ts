import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiTokenScope } from '@portal/contract';
import { AppError } from '../lib/errors';
import { bearerOf } from '../modules/api-tokens/api-token-fns';
import type { ApiTokenService, TokenContext } from '../modules/api-tokens/api-tokens.service';
import type { RateLimit } from './rate-limit';
import { routeKey, scopedRouteKeys, scopeOf } from './token-scopes';

declare module 'fastify' {
  interface FastifyRequest {
    /** The personal API token a request was authenticated with; null for a cookie session or none. */
    apiToken: TokenContext | null;
  }
  interface FastifyInstance {
    /**
     * What a route served here declares: who may call it (`config.auth`, undefined when public) and
     * the scope a token needs (undefined when no token may). The API tests' scope matrix reads it.
     */
    tokenAccess: (method: string, url: string) => { auth: unknown; scope: ApiTokenScope | undefined };
  }
}

const REALM = 'Bearer realm="portal-api"';

/**
 * `Authorization: Bearer pat_…` (docs/decisions/090-api-tokens.md, 091-token-scopes-and-routes.md).
 * One `onRequest` hook of the whole portal API, so it runs for every method served (Fastify's
 * automatic HEAD routes included) and before the route's own session check: on a route that needs
 * a user, a bearer credential is the only one looked at (the cookie is not, so no cross-site rule
 * is needed for it). An unknown, revoked or expired token 401 with `WWW-Authenticate: Bearer`;
 * then the token's own rate limit; a route outside ROUTE_SCOPES, or a scope the token lacks, 403.
 * Public routes (sign-in, validation, activation by key) ignore credentials, as they always have.
 */
export function registerTokenAuth(
  app: FastifyInstance,
  deps: { tokens: Pick<ApiTokenService, 'authenticate' | 'recordUse'>; rateLimit: RateLimit; perMinute: number },
) {
  app.decorateRequest('apiToken', null);

  const served = new Map<string, unknown>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.set(routeKey(method, route.url), route.config?.auth);
  });
  app.decorate('tokenAccess', (method: string, url: string) => ({
    auth: served.get(routeKey(method, url)),
    scope: scopeOf(method, url),
  }));
  app.addHook('onReady', async () => {
    for (const key of scopedRouteKeys()) {
      if (served.get(key) !== 'user') throw new Error(`ROUTE_SCOPES names ${key}, which is not a route that needs a user`);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const bearer = bearerOf(req.headers.authorization);
    if (!bearer || !req.routeOptions.config.auth) return;
    const token = await deps.tokens.authenticate(bearer.secret);
    if (!token) {
      challenge(reply, 'error="invalid_token"');
      throw new AppError('UNAUTHENTICATED', 'This API token is not valid: it is unknown, revoked or expired.');
    }
    await deps.rateLimit(`api-token:${token.id}`, deps.perMinute, 'Too many requests with this API token.');
    const url = req.routeOptions.url ?? req.url;
    const scope = scopeOf(req.method, url);
    if (!scope) {
      throw new AppError('FORBIDDEN', 'API tokens cannot be used for this. Sign in to the portal to do it.');
    }
    if (!token.scopes.includes(scope)) {
      challenge(reply, `error="insufficient_scope", scope="${scope}"`);
      throw new AppError('FORBIDDEN', `This API token does not have the scope ${scope}, which this needs.`);
    }
    req.apiToken = token;
    req.auth = { idHash: `api-token:${token.id}`, user: token.user, createdAt: token.createdAt, method: 'api_token' };
    await deps.tokens.recordUse(token, `${req.method} ${url}`);
  });
}

function challenge(reply: FastifyReply, params: string) {
  reply.header('www-authenticate', `${REALM}, ${params}`);
}
