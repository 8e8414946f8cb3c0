import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CONSOLE_API,
  CONSOLE_ROUTES,
  CONSOLE_SESSION_COOKIE,
  CONSOLE_SESSION_ONLY,
  consoleOpenIn,
  ErrorSchema,
  type ConsoleRouteId,
} from '@portal/contract';
import { AppError } from '../lib/errors';
import { bearerOf } from '../modules/api-tokens/api-token-fns';
import type { RateLimit } from '../plugins/rate-limit';
import { secretCookie, type SessionCookie } from '../plugins/session';
import type { StaffAuth, StaffSession } from './staff-auth';
import type { StaffActor } from './staff.service';
import { tokenActor, type StaffTokenPrincipal, type StaffTokenService } from './staff-tokens.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The console route's id in CONSOLE_ROUTES (its path, method and the roles allowed). */
    consoleRoute?: ConsoleRouteId;
  }
  interface FastifyRequest {
    /** The staff session, looked up on every console route (null when signed out). */
    staffSession: StaffSession | null;
    /** The staff API token a request came with (`Authorization: Bearer stk_…`); null for a session. */
    staffToken: StaffTokenPrincipal | null;
    /** The signed-in staff member, or the token, as the audit log names them (routes that need a role). */
    readonly staffActor: StaffActor;
  }
}

export type StaffCookie = SessionCookie;

const REALM = 'Bearer realm="console-api"';

/**
 * The console's own cookie: SameSite=Strict (a staff session is never sent along from another
 * site, not even on a top-level navigation), otherwise as the customer's (secretCookie).
 */
export function staffCookie(opts: { secure: boolean; maxAgeSeconds: number }): StaffCookie {
  return secretCookie({ name: CONSOLE_SESSION_COOKIE, sameSite: 'strict', ...opts });
}

/**
 * Every console route declares its id (`config.consoleRoute`); the route table says who may call
 * it. The check is one `onRequest` hook of the whole console app, so it runs for every request
 * whatever its method, Fastify's automatic HEAD routes included (they copy the GET route's options
 * before any `onRoute` hook could add a route-level check), and first: before the body is read or
 * any input validated. No session 401; a session still short of its second factor 403
 * SECOND_FACTOR_REQUIRED on every route the table does not open to it (`pending`); a role the
 * table does not list 403 FORBIDDEN. A route under the
 * console's prefix without an id, or whose method and path differ from the table's (HEAD answers
 * for its GET route), stops the app from starting. A request with `Authorization: Bearer` is a
 * staff API token's (docs/decisions/096-staff-token-principal.md): unknown, revoked or expired
 * 401; then its rate limit; then the table's roles for the token's role, never the routes of
 * CONSOLE_SESSION_ONLY, and no second-factor state (a token neither has nor completes one).
 */
export function registerStaffGuard(
  app: FastifyInstance,
  deps: {
    auth: Pick<StaffAuth, 'lookup'>;
    cookie: StaffCookie;
    tokens: Pick<StaffTokenService, 'authenticate' | 'recordUse'>;
    rateLimit: RateLimit;
    /** RATE_LIMIT_API_TOKEN: requests a minute per token. */
    tokenPerMinute: number;
  },
) {
  app.decorateRequest('staffSession', null);
  app.decorateRequest('staffToken', null);
  app.decorateRequest<StaffActor>('staffActor', {
    getter(this: FastifyRequest) {
      if (this.staffToken) return tokenActor(this.staffToken);
      const s = this.staffSession;
      if (!s) throw new Error(`${this.method} ${this.url} reads the staff member without a session`);
      return { id: s.staff.id, email: s.staff.email };
    },
  });

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${CONSOLE_API}/`)) return;
    const id = route.config?.consoleRoute;
    const entry = id ? CONSOLE_ROUTES[id] : undefined;
    if (!id || !entry) throw new Error(`${String(route.method)} ${route.url} declares no config.consoleRoute`);
    const method = route.method === 'HEAD' ? 'GET' : route.method;
    if (entry.method !== method || entry.path !== route.url) {
      throw new Error(`${id} is ${entry.method} ${entry.path} in CONSOLE_ROUTES, not ${String(route.method)} ${route.url}`);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const id = req.routeOptions.config.consoleRoute;
    // No route matched (the 404 handler) or the console's own files: nothing to guard.
    if (!id) return;
    const roles = CONSOLE_ROUTES[id].roles as readonly string[] | null;
    const bearer = bearerOf(req.headers.authorization);
    if (bearer) {
      // A bearer request is a token's, and only the token counts: the cookie is never read, so
      // no cross-site rule is needed for it (security.ts lets bearer requests through).
      if (roles === null) return;
      const token = await deps.tokens.authenticate(bearer.secret);
      if (!token) {
        reply.header('www-authenticate', `${REALM}, error="invalid_token"`);
        throw new AppError('UNAUTHENTICATED', 'This API token is not valid: it is unknown, revoked or expired.');
      }
      await deps.rateLimit(`staff-token:${token.id}`, deps.tokenPerMinute, 'Too many requests with this API token.');
      if (CONSOLE_SESSION_ONLY.includes(id)) {
        throw new AppError('FORBIDDEN', 'API tokens cannot be used for this. Sign in to the console to do it.');
      }
      if (!roles.includes(token.role)) throw new AppError('FORBIDDEN', `This token's role (${token.role}) may not do this`);
      req.staffToken = token;
      await deps.tokens.recordUse(token);
      return;
    }
    const secret = deps.cookie.read(req);
    req.staffSession = secret ? await deps.auth.lookup(secret) : null;
    if (roles === null) return;
    if (!req.staffSession) throw new AppError('UNAUTHENTICATED', 'Please sign in to the console to continue');
    const { state } = req.staffSession.secondFactor;
    if (!consoleOpenIn(state, id)) {
      throw new AppError(
        'SECOND_FACTOR_REQUIRED',
        state === 'verify'
          ? 'Confirm this sign-in with your passkey, authenticator app or a recovery code first'
          : `Your role (${req.staffSession.staff.role}) needs a second factor: add a passkey or an authenticator app under Security first`,
      );
    }
    if (!roles.includes(req.staffSession.staff.role)) {
      throw new AppError('FORBIDDEN', `Your role (${req.staffSession.staff.role}) may not do this`);
    }
  });
}

/**
 * The method, path and declaration of console route `id`, from the route table: a route is
 * named once, in CONSOLE_ROUTES (`r.route({ ...at('getCustomer'), schema, handler })`).
 */
export function at<const I extends ConsoleRouteId>(id: I) {
  const entry = CONSOLE_ROUTES[id];
  return { method: entry.method, url: entry.path, config: { consoleRoute: id } };
}

/** The answers every route behind a role documents besides its own. */
export const guardedResponses = { 401: ErrorSchema, 403: ErrorSchema } as const;
