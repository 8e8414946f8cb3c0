import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';
import type { RateLimiter } from '../../lib/rate-limiter';
import {
  flowStateCodec,
  IdentityProviderUnavailableError,
  oidcIdentityProvider,
  type IdentityClaims,
  type IdentityProvider,
} from '../../providers/identity';

/** How long a started sign-in may take at the provider before its cookie is refused. */
export const GOOGLE_FLOW_TTL_MS = 10 * 60_000;

/** Why a flow ended without verified claims (each app turns it into its sign-in page's message). */
export type GoogleFlowFailure =
  | 'google' // cancelled, tampered, expired, replayed, or refused by the provider
  | 'google_unavailable' // the provider could not be reached
  | 'rate_limited';

export type GoogleFlowOptions = {
  google: NonNullable<Config['google']>;
  /** The app's own callback URL, as registered with the provider. */
  redirectUri: string;
  /** Seals the flow cookie (the app's session secret). */
  secret: string;
  /** Keeps each app's sealed flows apart: one app's flow cookie never opens in the other. */
  purpose: string;
  /** The flow cookie's name without `__Host-` (added behind https). */
  cookieName: string;
  secure: boolean;
  clock: Clock;
  /** Marks a flow used (shared by every instance when Redis is configured). */
  limiter: Pick<RateLimiter, 'hit'>;
  /** The app's rate limit for sign-in attempts: false when the client is over it. */
  withinLimit: (req: FastifyRequest) => Promise<boolean>;
  log: FastifyBaseLogger;
};

/**
 * Sign-in with Google (OpenID Connect, authorization code with PKCE S256, state and nonce), the
 * rules both apps share: the sealed, single-use, 10-minute flow cookie, the provider's checks of the
 * callback and the ID token. The caller decides who the verified claims sign in.
 */
export function googleSignInFlow(opts: GoogleFlowOptions) {
  const { clock, limiter, log, withinLimit } = opts;
  const identity: IdentityProvider = oidcIdentityProvider({ ...opts.google, redirectUri: opts.redirectUri });
  const codec = flowStateCodec(opts.secret, opts.purpose);
  const flowCookie = flowStateCookie(opts.cookieName, opts.secure);

  /** Sets the flow cookie and answers the provider's URL, or why not. */
  async function start(
    req: FastifyRequest,
    reply: FastifyReply,
    to: string | null,
  ): Promise<{ url: string } | { error: GoogleFlowFailure }> {
    if (!(await withinLimit(req))) return { error: 'rate_limited' };
    let request: Awaited<ReturnType<IdentityProvider['authorizationRequest']>>;
    try {
      request = await identity.authorizationRequest();
    } catch (err) {
      if (!(err instanceof IdentityProviderUnavailableError)) throw err;
      log.warn({ err: err.cause }, 'Google sign-in: the identity provider could not be reached');
      return { error: 'google_unavailable' };
    }
    flowCookie.set(reply, codec.seal({ ...request.checks, to, expiresAt: clock.now().getTime() + GOOGLE_FLOW_TTL_MS }));
    return { url: request.url.href };
  }

  /**
   * The callback: clears the flow cookie, checks it (sealed, unexpired, first use), and answers the
   * verified claims with the flow's `to`, or why not.
   */
  async function finish(
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ to: string | null } & ({ claims: IdentityClaims } | { error: GoogleFlowFailure })> {
    // Whatever happens next, this cookie has served its one purpose.
    const sealed = flowCookie.read(req);
    flowCookie.clear(reply);
    const flow = sealed ? codec.open(sealed) : null;
    const to = flow?.to ?? null;
    if (!(await withinLimit(req))) return { to, error: 'rate_limited' };
    if (!flow || flow.expiresAt <= clock.now().getTime()) {
      log.warn({ reason: sealed ? 'flow cookie invalid or expired' : 'flow cookie missing' }, 'Google sign-in refused');
      return { to, error: 'google' };
    }
    // Single use on the server too, so a copied cookie cannot be replayed even where the browser
    // kept it; the limiter's store is shared by every instance when Redis is configured.
    const firstUse = await limiter.hit(`oidc-flow:${sha256(flow.state)}`, 1, GOOGLE_FLOW_TTL_MS);
    if (!firstUse.allowed) {
      log.warn({ reason: 'flow cookie replayed' }, 'Google sign-in refused');
      return { to, error: 'google' };
    }
    const query = req.query as { error?: string; error_description?: string } | undefined;
    if (query?.error) {
      log.info({ error: query.error, description: query.error_description }, 'Google sign-in ended at the provider');
      return { to, error: 'google' };
    }

    const callbackUrl = new URL(opts.redirectUri);
    callbackUrl.search = new URL(req.url, opts.redirectUri).search;
    try {
      return { to, claims: await identity.finish(callbackUrl, flow) };
    } catch (err) {
      if (err instanceof IdentityProviderUnavailableError) {
        log.warn({ err: err.cause }, 'Google sign-in: the identity provider could not be reached');
        return { to, error: 'google_unavailable' };
      }
      log.warn({ err }, 'Google sign-in refused');
      return { to, error: 'google' };
    }
  }

  return { start, finish };
}

/** The short-lived, httpOnly, SameSite=Lax cookie that carries one sign-in flow to its callback. */
function flowStateCookie(baseName: string, secure: boolean) {
  // Lax still sends it on the provider's top-level redirect back to us; __Host- pins it to this host.
  const name = secure ? `__Host-${baseName}` : baseName;
  const base = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  return {
    name,
    set: (reply: FastifyReply, value: string) =>
      void reply.setCookie(name, value, { ...base, maxAge: GOOGLE_FLOW_TTL_MS / 1000 }),
    clear: (reply: FastifyReply) => void reply.clearCookie(name, base),
    read: (req: FastifyRequest) => req.cookies[name],
  };
}
