import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_LANDING, ErrorSchema, GoogleStartQuerySchema } from '@portal/contract';
import { persistentSecret, type Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limiter';
import { clientKey, type RateLimit } from '../../plugins/rate-limit';
import type { SessionCookie } from '../../plugins/session';
import type { AuthService } from './auth.service';
import { googleSignInFlow, type GoogleFlowFailure } from './google-flow';

export type GoogleRoutesDeps = {
  config: Pick<Config, 'google' | 'publicUrl' | 'sessionSecret' | 'dataDir' | 'secureCookies' | 'rateLimits'>;
  auth: Pick<AuthService, 'signInWithIdentity'>;
  clock: Clock;
  cookie: SessionCookie;
  rateLimit: RateLimit;
  /** Marks a sign-in flow used (shared by every instance when Redis is configured). */
  limiter: Pick<RateLimiter, 'hit'>;
};

const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/**
 * What /login?error= says when Google sign-in does not end in a session; the login page shows a
 * message for each.
 */
type GoogleSignInError =
  | GoogleFlowFailure // cancelled, tampered, expired, replayed, refused, unreachable provider, rate limited
  | 'google_email_unverified' // Google does not vouch for the address
  | 'google_account_conflict'; // the address's account is tied to another Google account

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

  const flow = googleSignInFlow({
    google,
    redirectUri: `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`,
    secret: config.sessionSecret ?? persistentSecret(config.dataDir, 'session-secret'),
    purpose: 'portal:oidc-flow-state:v1',
    cookieName: 'portal_oidc',
    secure: config.secureCookies,
    clock,
    limiter,
    withinLimit,
    log,
  });

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
        const started = await flow.start(req, reply, to);
        if ('error' in started) return toLogin(reply, started.error, to);
        return reply.header('cache-control', 'no-store').redirect(started.url, 302);
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
      const result = await flow.finish(req, reply);
      const { to } = result;
      if ('error' in result) return toLogin(reply, result.error, to);

      let sessionSecret: string;
      try {
        ({ sessionSecret } = await auth.signInWithIdentity(result.claims));
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
