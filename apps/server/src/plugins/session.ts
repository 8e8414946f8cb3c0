import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/errors';
import type { SessionContext, SessionService } from '../modules/auth/sessions';
import { asArray, methodsOf, PARSED } from './request-bodies';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; the signed-in user and their session. */
    auth: SessionContext | null;
  }
}

export type SessionCookie = {
  name: string;
  set: (reply: FastifyReply, secret: string) => void;
  clear: (reply: FastifyReply) => void;
  read: (req: FastifyRequest) => string | undefined;
};

export function sessionCookie(opts: { secure: boolean; maxAgeSeconds: number }): SessionCookie {
  // The __Host- prefix pins the cookie to this host, https and path / (browsers enforce it).
  const name = opts.secure ? '__Host-portal_session' : 'portal_session';
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: opts.secure, path: '/' };
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

/**
 * Looks the session up once per request; routes that need a user call `requireUser`. A route that
 * can take a body and whose schema says it answers 401 needs a session: it is checked in
 * `onRequest`, before the body is read or parsed, so a signed-out request costs no parsing (the
 * handler's own call then finds the session already looked up).
 */
export function registerSession(app: FastifyInstance, deps: { sessions: SessionService; cookie: SessionCookie }) {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    // Only where a body can be parsed: a GET route keeps deciding itself how it answers signed out.
    if (!methodsOf(route).some((m) => PARSED.has(m))) return;
    const responses = route.schema?.response as Record<string, unknown> | undefined;
    if (!responses || !('401' in responses)) return;
    const signedIn: onRequestAsyncHookHandler = async (req) => {
      await requireUser(req);
    };
    route.onRequest = [signedIn, ...asArray(route.onRequest)];
  });

  async function loadAuth(req: FastifyRequest): Promise<SessionContext | null> {
    if (req.auth) return req.auth;
    const secret = deps.cookie.read(req);
    if (!secret) return null;
    req.auth = await deps.sessions.lookup(secret);
    return req.auth;
  }

  async function requireUser(req: FastifyRequest): Promise<SessionContext> {
    const auth = await loadAuth(req);
    if (!auth) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
    return auth;
  }

  return { loadAuth, requireUser };
}
export type SessionGuard = ReturnType<typeof registerSession>;
