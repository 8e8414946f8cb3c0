import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConsoleAuthOptionsSchema, ErrorSchema, type ConsoleGoogleError } from '@portal/contract';
import { persistentSecret, type Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limiter';
import { googleSignInFlow } from '../../modules/auth/google-flow';
import { clientKey, type RateLimit } from '../../plugins/rate-limit';
import type { StaffAuth } from '../staff-auth';
import { at, type StaffCookie } from '../staff-guard';

export type ConsoleGoogleRoutesDeps = {
  config: Pick<Config, 'google' | 'console' | 'sessionSecret' | 'dataDir' | 'rateLimits'>;
  auth: Pick<StaffAuth, 'signInWithIdentity'>;
  clock: Clock;
  cookie: StaffCookie;
  rateLimit: RateLimit;
  /** Marks a sign-in flow used. */
  limiter: Pick<RateLimiter, 'hit'>;
};

/** Where a staff member lands once signed in (the console's home). */
const CONSOLE_LANDING = '/overview';

// As the portal's callback: providers add parameters of their own; openid-client validates them.
const CallbackQuerySchema = z.looseObject({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/**
 * Staff sign-in with Google: the portal's OpenID Connect flow (googleSignInFlow) with the console's
 * own redirect URI (CONSOLE_PUBLIC_URL + the callback path), flow cookie and sealing purpose; a
 * verified address signs in only active staff. Without Google configured the two routes answer
 * 404 and the options say so.
 */
export async function consoleGoogleRoutes(app: FastifyInstance, deps: ConsoleGoogleRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, auth, clock, cookie, rateLimit, limiter } = deps;
  const log = app.log;
  const google = config.google;

  r.route({
    ...at('authOptions'),
    schema: { summary: 'The ways of signing in to the console', response: { 200: ConsoleAuthOptionsSchema } },
    handler: async () => ({ google: google !== null && google !== undefined }),
  });

  if (!google) {
    const notConfigured = async () => {
      throw new AppError(
        'NOT_FOUND',
        'Sign-in with Google is not set up for the console. Sign in with an e-mailed link instead.',
      );
    };
    for (const id of ['googleStart', 'googleCallback'] as const) {
      r.route({
        ...at(id),
        schema: { summary: 'Staff sign-in with Google (not configured)', response: { 404: ErrorSchema } },
        handler: notConfigured,
      });
    }
    return;
  }

  const flow = googleSignInFlow({
    google,
    redirectUri: `${config.console.publicUrl}${at('googleCallback').url}`,
    secret: config.sessionSecret ?? persistentSecret(config.dataDir, 'session-secret'),
    purpose: 'portal:console-oidc-flow-state:v1',
    // Not the portal's portal_oidc: both apps may share a host name (cookies ignore the port).
    cookieName: 'portal_console_oidc',
    secure: config.console.secureCookies,
    clock,
    limiter,
    withinLimit,
    log,
  });

  const toLogin = (reply: FastifyReply, error: ConsoleGoogleError) =>
    reply.header('cache-control', 'no-store').redirect(`/login?${new URLSearchParams({ error }).toString()}`, 303);

  r.route({
    ...at('googleStart'),
    schema: { summary: 'Start staff sign-in with Google: redirects to the identity provider' },
    handler: async (req, reply) => {
      const started = await flow.start(req, reply, null);
      if ('error' in started) return toLogin(reply, started.error);
      return reply.header('cache-control', 'no-store').redirect(started.url, 302);
    },
  });

  r.route({
    ...at('googleCallback'),
    schema: {
      summary: 'Where the identity provider returns: starts a staff session and opens the console',
      querystring: CallbackQuerySchema,
    },
    handler: async (req, reply) => {
      const result = await flow.finish(req, reply);
      if ('error' in result) return toLogin(reply, result.error);
      let sessionSecret: string;
      try {
        ({ sessionSecret } = await auth.signInWithIdentity(result.claims));
      } catch (err) {
        if (err instanceof AppError && err.code === 'FORBIDDEN') {
          log.info('Console Google sign-in refused: the address is not active staff');
          return toLogin(reply, 'google_not_staff');
        }
        log.error({ err }, 'Console Google sign-in failed');
        return toLogin(reply, 'google');
      }
      cookie.set(reply, sessionSecret);
      return reply.header('cache-control', 'no-store').redirect(CONSOLE_LANDING, 303);
    },
  });

  async function withinLimit(req: FastifyRequest): Promise<boolean> {
    try {
      await rateLimit(`console:client:${clientKey(req)}`, config.rateLimits.authPerMinute);
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED') return false;
      throw err;
    }
  }
}
