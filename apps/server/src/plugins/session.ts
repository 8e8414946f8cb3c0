import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestAsyncHookHandler } from 'fastify';
import { ErrorSchema } from '@portal/contract';
import { AppError } from '../lib/errors';
import type { SessionContext, SessionService } from '../modules/auth/sessions';
import { asArray } from './request-bodies';

/**
 * Who may call a route, declared once in its options as `config: { auth }`:
 * - `'user'` (the options `signedIn(schema)` builds): a signed-in user. Anyone else gets 401 in `onRequest`, before the body is read or
 *   parsed and before any input is validated, so a signed-out caller learns nothing and costs no
 *   parsing. The handler reads `req.user` and `req.session`, never checks again.
 * - `'optional'`: the session is looked up if there is one (`req.auth`, null when signed out); the
 *   route itself decides what a signed-out request gets.
 * Without it a route is public, and no session is looked up.
 */
export type RouteAuth = 'user' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    /** The session found for a route that declares `auth`; null when signed out. */
    auth: SessionContext | null;
    /** The signed-in session, on a route that declares `auth: 'user'`. */
    readonly session: SessionContext;
    /** The signed-in user, on a route that declares `auth: 'user'`. */
    readonly user: SessionContext['user'];
  }
}

export type SessionCookie = {
  name: string;
  set: (reply: FastifyReply, secret: string) => void;
  clear: (reply: FastifyReply) => void;
  read: (req: FastifyRequest) => string | undefined;
};

/**
 * A cookie holding a session secret (43 base64url characters, nothing else is read back): HttpOnly,
 * path /, and behind https Secure with the `__Host-` prefix, which pins it to this host (browsers
 * enforce it). The portal's and the console's sessions differ in their name and SameSite only.
 */
export function secretCookie(opts: {
  name: string;
  sameSite: 'lax' | 'strict';
  secure: boolean;
  maxAgeSeconds: number;
}): SessionCookie {
  const name = opts.secure ? `__Host-${opts.name}` : opts.name;
  const base = { httpOnly: true, sameSite: opts.sameSite, secure: opts.secure, path: '/' };
  return {
    name,
    set: (reply, secret) => void reply.setCookie(name, secret, { ...base, maxAge: opts.maxAgeSeconds }),
    clear: (reply) => void reply.clearCookie(name, base),
    read: (req) => {
      const v = req.cookies[name];
      return v && /^[A-Za-z0-9_-]{43}$/.test(v) ? v : undefined;
    },
  };
}

/** The customer's session cookie (SameSite=Lax: the e-mailed link's landing page is a navigation). */
export function sessionCookie(opts: { secure: boolean; maxAgeSeconds: number }): SessionCookie {
  return secretCookie({ name: 'portal_session', sameSite: 'lax', ...opts });
}

/**
 * The options of a route that requires a signed-in user: the declaration, and the 401 it adds to
 * the route's documented answers.
 */
export function signedIn<const S extends FastifySchema & { response?: Record<number, unknown> }>(schema: S) {
  return {
    config: { auth: 'user' as const },
    schema: { ...schema, response: { ...schema.response, 401: ErrorSchema } },
  };
}

/** The answer to a signed-out request where a user is required. */
export const signInRequired = () => new AppError('UNAUTHENTICATED', 'Please sign in to continue');

/** The session of a route that declared `auth: 'user'` (its `onRequest` check has passed). */
function sessionOf(req: FastifyRequest): SessionContext {
  // Only a route that reads the user without declaring it gets here: a bug of the route, not of the caller.
  if (req.routeOptions.config.auth !== 'user' || !req.auth) {
    throw new Error(`${req.method} ${req.routeOptions.url ?? req.url} reads the user without declaring config: { auth: 'user' }`);
  }
  return req.auth;
}

/**
 * Applies each route's `config.auth`. A route whose schema documents a 401 must declare who may
 * call it, and a route that requires a user must document its 401: the app does not start otherwise.
 */
export function registerSession(app: FastifyInstance, deps: { sessions: SessionService; cookie: SessionCookie }) {
  app.decorateRequest('auth', null);
  app.decorateRequest<SessionContext>('session', {
    getter(this: FastifyRequest) {
      return sessionOf(this);
    },
  });
  app.decorateRequest<SessionContext['user']>('user', {
    getter(this: FastifyRequest) {
      return sessionOf(this).user;
    },
  });

  const lookUp = async (req: FastifyRequest) => {
    // Authenticated by a personal API token (token-auth.ts, which runs first): no cookie is read.
    if (req.apiToken) return;
    const secret = deps.cookie.read(req);
    req.auth = secret ? await deps.sessions.lookup(secret) : null;
  };
  const requireUser: onRequestAsyncHookHandler = async (req) => {
    await lookUp(req);
    if (!req.auth) throw signInRequired();
  };

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const responses = route.schema?.response as Record<string, unknown> | undefined;
    const documents401 = responses !== undefined && '401' in responses;
    const where = `${String(route.method)} ${route.url}`;
    if (documents401 && !auth) throw new Error(`${where} documents a 401 but declares no config.auth`);
    if (auth === 'user' && !documents401) throw new Error(`${where} requires a user but documents no 401`);
    if (!auth) return;
    // First, so a signed-out request is refused before any other check looks at its input.
    route.onRequest = [auth === 'user' ? requireUser : lookUp, ...asArray(route.onRequest)];
  });
}
