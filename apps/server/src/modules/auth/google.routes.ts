import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_LANDING, ErrorSchema, GoogleStartQuerySchema } from '@portal/contract';
import { persistentSecret, type Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limiter';
import { clientKey, type RateLimit } from '../../plugins/rate-limit';
import type { SessionCookie } from '../../plugins/session';
import {
  flowStateCodec,
  IdentityProviderUnavailableError,
  oidcIdentityProvider,
  type IdentityProvider,
} from '../../providers/identity';
import type { AuthService } from './auth.service';

export type GoogleRoutesDeps = {
  config: Pick<Config, 'google' | 'publicUrl' | 'sessionSecret' | 'dataDir' | 'secureCookies' | 'rateLimits'>;
  auth: Pick<AuthService, 'signInWithIdentity'>;
  clock: Clock;
  cookie: SessionCookie;
  rateLimit: RateLimit;
  /** Marks a sign-in flow used (shared by every instance when Redis is configured). */
  limiter: Pick<RateLimiter, 'hit'>;
};

/** How long a started sign-in may take at the provider before its cookie is refused. */
const GOOGLE_FLOW_TTL_MS = 10 * 60_000;
const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/**
 * What /login?error= says when Google sign-in does not end in a session; the login page shows a
 * message for each.
 */
type GoogleSignInError =
  | 'google' // cancelled, tampered, expired, replayed, or refused by the provider
  | 'google_unavailable' // the provider could not be reached
  | 'google_email_unverified' // Google does not vouch for the address
  | 'google_account_conflict' // the address's account is tied to another Google account
  | 'rate_limited';

// Providers add their own parameters to the callback (Google: authuser, hd, prompt, scope), so
// this schema documents the callback without refusing extras; openid-client validates it.
const CallbackQuerySchema = z.looseObject({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const START_PATHS = ['/auth/google', '/auth/google/'] as const;

/** Sign-in with Google (OpenID Connect, authorization code with PKCE S256, state and nonce). */
export async function googleRoutes(app: FastifyInstance, deps: GoogleRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, auth, clock, cookie, rateLimit, limiter } = deps;
  const log = app.log;
  const google = config.google;

  if (!google) {
    const notConfigured = async () => {
      throw new AppError('NOT_FOUND', 'Sign-in with Google is not set up on this portal. Sign in with an e-mailed link instead.');
    };
    for (const url of [...START_PATHS, '/auth/google/callback']) {
      r.get(url, { schema: { summary: 'Sign in with Google (not configured)', response: { 404: ErrorSchema } } }, notConfigured);
    }
    return;
  }

  const redirectUri = `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`;
  const identity: IdentityProvider = oidcIdentityProvider({ ...google, redirectUri });
  const codec = flowStateCodec(config.sessionSecret ?? persistentSecret(config.dataDir, 'session-secret'));
  const flowCookie = flowStateCookie(config.secureCookies);

  const toLogin = (reply: FastifyReply, error: GoogleSignInError, to?: string | null) => {
    const params = new URLSearchParams({ error });
    if (to) params.set('to', to);
    return reply.header('cache-control', 'no-store').redirect(`/login?${params.toString()}`, 303);
  };

  for (const url of START_PATHS) {
    r.get(
      url,
      {
        schema: {
          // One entry in the API docs is enough for the two spellings.
          hide: url === '/auth/google',
          summary: 'Start sign-in with Google: redirects to the identity provider',
          querystring: GoogleStartQuerySchema,
          response: { 400: ErrorSchema },
        },
      },
      async (req, reply) => {
        const to = req.query.to ?? null;
        if (!(await withinLimit(req))) return toLogin(reply, 'rate_limited', to);
        let request: Awaited<ReturnType<IdentityProvider['authorizationRequest']>>;
        try {
          request = await identity.authorizationRequest();
        } catch (err) {
          if (!(err instanceof IdentityProviderUnavailableError)) throw err;
          log.warn({ err: err.cause }, 'Google sign-in: the identity provider could not be reached');
          return toLogin(reply, 'google_unavailable', to);
        }
        flowCookie.set(reply, codec.seal({ ...request.checks, to, expiresAt: clock.now().getTime() + GOOGLE_FLOW_TTL_MS }));
        return reply.header('cache-control', 'no-store').redirect(request.url.href, 302);
      },
    );
  }

  r.get(
    '/auth/google/callback',
    {
      schema: {
        summary: 'Where the identity provider returns: starts a session and redirects to the app',
        querystring: CallbackQuerySchema,
      },
    },
    async (req, reply) => {
      // Whatever happens next, this cookie has served its one purpose.
      const sealed = flowCookie.read(req);
      flowCookie.clear(reply);
      const flow = sealed ? codec.open(sealed) : null;
      const to = flow?.to ?? null;
      if (!(await withinLimit(req))) return toLogin(reply, 'rate_limited', to);
      if (!flow || flow.expiresAt <= clock.now().getTime()) {
        log.warn({ reason: sealed ? 'flow cookie invalid or expired' : 'flow cookie missing' }, 'Google sign-in refused');
        return toLogin(reply, 'google', to);
      }
      // Single use on the server too, so a copied cookie cannot be replayed even where the browser
      // kept it; the limiter's store is shared by every instance when Redis is configured.
      const firstUse = await limiter.hit(`oidc-flow:${sha256(flow.state)}`, 1, GOOGLE_FLOW_TTL_MS);
      if (!firstUse.allowed) {
        log.warn({ reason: 'flow cookie replayed' }, 'Google sign-in refused');
        return toLogin(reply, 'google', to);
      }
      if (req.query.error) {
        log.info({ error: req.query.error, description: req.query.error_description }, 'Google sign-in ended at the provider');
        return toLogin(reply, 'google', to);
      }

      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(req.url, config.publicUrl).search;
      let claims;
      try {
        claims = await identity.finish(callbackUrl, flow);
      } catch (err) {
        if (err instanceof IdentityProviderUnavailableError) {
          log.warn({ err: err.cause }, 'Google sign-in: the identity provider could not be reached');
          return toLogin(reply, 'google_unavailable', to);
        }
        log.warn({ err }, 'Google sign-in refused');
        return toLogin(reply, 'google', to);
      }

      let sessionSecret: string;
      try {
        ({ sessionSecret } = await auth.signInWithIdentity(claims));
      } catch (err) {
        if (err instanceof AppError && err.code === 'FORBIDDEN') return toLogin(reply, 'google_email_unverified', to);
        if (err instanceof AppError && err.code === 'CONFLICT') return toLogin(reply, 'google_account_conflict', to);
        log.error({ err }, 'Google sign-in failed');
        return toLogin(reply, 'google', to);
      }
      cookie.set(reply, sessionSecret);
      return reply.header('cache-control', 'no-store').redirect(to ?? DEFAULT_LANDING, 303);
    },
  );

  async function withinLimit(req: FastifyRequest): Promise<boolean> {
    try {
      await rateLimit(`auth:client:${clientKey(req)}`, config.rateLimits.authPerMinute);
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED') return false;
      throw err;
    }
  }
}

/** The short-lived, httpOnly, SameSite=Lax cookie that carries one sign-in flow to its callback. */
function flowStateCookie(secure: boolean) {
  // Lax still sends it on the provider's top-level redirect back to us; __Host- pins it to this host.
  const name = secure ? '__Host-portal_oidc' : 'portal_oidc';
  const base = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  return {
    name,
    set: (reply: FastifyReply, value: string) =>
      void reply.setCookie(name, value, { ...base, maxAge: GOOGLE_FLOW_TTL_MS / 1000 }),
    clear: (reply: FastifyReply) => void reply.clearCookie(name, base),
    read: (req: FastifyRequest) => req.cookies[name],
  };
}
