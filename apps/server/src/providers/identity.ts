import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { z } from 'zod';

/** Who the identity provider says signed in, in our terms. */
export type IdentityClaims = {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  fname: string;
  lname: string;
  picture: string | null;
};

/** What must survive from the redirect to the callback: PKCE verifier, state and nonce. */
export type AuthorizationChecks = { codeVerifier: string; state: string; nonce: string };

/** The provider could not be reached (discovery failed); the caller should say "try later", not "denied". */
export class IdentityProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The identity provider could not be reached', { cause });
    this.name = 'IdentityProviderUnavailableError';
  }
}

export interface IdentityProvider {
  /** A fresh authorization request (PKCE S256, state, nonce) and the checks to keep until the callback. */
  authorizationRequest(): Promise<{ url: URL; checks: AuthorizationChecks }>;
  /**
   * Validates the callback against the checks, exchanges the code and answers the ID token's
   * claims. Throws on any mismatch, provider error or missing e-mail.
   */
  finish(callbackUrl: URL, checks: AuthorizationChecks): Promise<IdentityClaims>;
}

export type OidcOptions = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scope?: string;
  /** Seconds for each request to the provider (discovery, token exchange). */
  timeoutSeconds?: number;
};

/**
 * OpenID Connect with openid-client (Google in production, a local provider in tests).
 * Discovery runs once, on first use, and is cached; a failed discovery is retried on the next call
 * so a provider outage at start-up does not disable sign-in until a restart.
 */
export function oidcIdentityProvider(opts: OidcOptions): IdentityProvider {
  const scope = opts.scope ?? 'openid email profile';
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(new URL(opts.issuer), opts.clientId, opts.clientSecret, undefined, {
        // Plain http is only ever allowed for a local test provider; Google is https.
        ...(new URL(opts.issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        timeout: opts.timeoutSeconds ?? 10,
      })
      .catch((err: unknown) => {
        discovered = undefined;
        throw new IdentityProviderUnavailableError(err);
      });
    return discovered;
  }

  return {
    async authorizationRequest() {
      const config = await configuration();
      const checks = { codeVerifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: opts.redirectUri,
        scope,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url, checks };
    },

    async finish(callbackUrl, checks) {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('The provider answered without an ID token');
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email) throw new Error('The provider did not share an e-mail address');
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        // Some providers send the flag as a string; anything else is "not verified".
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        fname: text(claims.given_name, 100),
        lname: text(claims.family_name, 100),
        picture:
          typeof claims.picture === 'string' && /^https?:\/\//i.test(claims.picture) ? claims.picture.slice(0, 2048) : null,
      };
    },
  };
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** The flow's checks plus where to land afterwards, as kept in the short-lived cookie. */
export type FlowState = AuthorizationChecks & { to: string | null; expiresAt: number };

const FlowStateSchema = z.object({
  codeVerifier: z.string().min(43).max(128),
  state: z.string().min(1).max(256),
  nonce: z.string().min(1).max(256),
  to: z.string().nullable(),
  expiresAt: z.number().int(),
});

/**
 * Seals the flow state with AES-256-GCM, so the browser can neither read the PKCE verifier nor
 * alter the state, nonce or return path; anything tampered with fails to open. `purpose` keeps
 * the flows of different apps apart (one app's sealed flow does not open in another).
 */
export function flowStateCodec(secret: string, purpose = 'portal:oidc-flow-state:v1') {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return {
    seal(state: FlowState): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(value: string): FlowState | null {
      if (!/^[A-Za-z0-9_-]{40,4096}$/.test(value)) return null;
      const raw = Buffer.from(value, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const parsed = FlowStateSchema.safeParse(JSON.parse(json));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
