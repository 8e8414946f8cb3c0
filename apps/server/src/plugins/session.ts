import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import type { SessionContext, SessionService } from '../modules/auth/sessions';

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

/** Looks the session up once per request; routes that need a user call `requireUser`. */
export function registerSession(app: FastifyInstance, deps: { sessions: SessionService; cookie: SessionCookie }) {
  app.decorateRequest('auth', null);

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
