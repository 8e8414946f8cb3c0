import { z } from 'zod';
import { int, optionalString, url } from './env-parsers';

/** Customers' sessions and signing in with Google (or another OpenID Connect issuer). */
export const SignInEnvSchema = z.object({
  SESSION_SECRET: optionalString,
  SESSION_IDLE_DAYS: int(7, 1, 365),
  SESSION_ABSOLUTE_DAYS: int(30, 1, 365),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  OIDC_ISSUER: url(['http:', 'https:']).transform((v) => v ?? 'https://accounts.google.com'),
});
type SignInEnv = z.output<typeof SignInEnvSchema>;

/** What the variables together cannot be, as `VARIABLE: why`; undefined when they fit. */
export function signInProblem(e: SignInEnv): string | undefined {
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    return 'GOOGLE_CLIENT_SECRET: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither';
  }
  return undefined;
}

export function signInSettings(e: SignInEnv) {
  return {
    sessionSecret: e.SESSION_SECRET,
    session: { idleDays: e.SESSION_IDLE_DAYS, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.OIDC_ISSUER }
        : undefined,
  };
}
