import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@portal/contract';
import { int, optionalString, url } from './env-parsers';

/** The vendor console: its own listener and origin, its first owner, staff second factors and sessions. */
export const ConsoleEnvSchema = z.object({
  /** The vendor console's own listener (0 turns it off) and the origin its e-mailed links use. */
  CONSOLE_PORT: int(3001, 0, 65535),
  CONSOLE_HOST: z.string().default('127.0.0.1'),
  CONSOLE_PUBLIC_URL: url(['http:', 'https:']),
  /** Made the console's first owner when there is no staff yet (a fresh install). */
  CONSOLE_BOOTSTRAP_EMAIL: optionalString.pipe(
    z
      .email('must be an e-mail address')
      .transform((v) => v.toLowerCase())
      .optional(),
  ),
  /**
   * The staff roles that must add a second factor (passkey or authenticator app) after the
   * e-mailed link: a comma-separated list of roles, `all` or `none`.
   */
  CONSOLE_REQUIRE_SECOND_FACTOR: z
    .string()
    .default('owner,billing')
    .transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      if (value === 'all') return [...STAFF_ROLES];
      // Empty is unset, as everywhere in the configuration: the default, never "none".
      if (value === '') return ['owner', 'billing'] as StaffRole[];
      if (value === 'none') return [];
      const roles = value.split(',').map((r) => r.trim());
      const unknown = roles.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be "all", "none" or roles among ${STAFF_ROLES.join(', ')} separated by commas, not "${unknown.join(', ')}"`,
        });
        return z.NEVER;
      }
      return [...new Set(roles)] as StaffRole[];
    }),
  /** A staff session ends after this many minutes without a request. */
  CONSOLE_SESSION_IDLE_MINUTES: int(60, 1, 24 * 60),
});
type ConsoleEnv = z.output<typeof ConsoleEnvSchema>;

/** The console's listener beside the portal's, as `VARIABLE: why`; undefined when they fit. */
export function consolePortProblem(e: ConsoleEnv, portalPort: number): string | undefined {
  if (e.CONSOLE_PORT !== 0 && e.CONSOLE_PORT === portalPort) {
    return 'CONSOLE_PORT: must differ from PORT (the console has a listener of its own; 0 turns it off)';
  }
  return undefined;
}

/** The console's origin beside the portal's, as `VARIABLE: why`; undefined when they fit. */
export function consoleOriginProblem(settings: ConsoleSettings, portalUrl: string): string | undefined {
  if (settings.port !== 0 && new URL(settings.publicUrl).origin === new URL(portalUrl).origin) {
    return 'CONSOLE_PUBLIC_URL: must be another origin than PUBLIC_URL (the console keeps its cookies apart)';
  }
  return undefined;
}

export function consoleSettings(e: ConsoleEnv) {
  const publicUrl = (e.CONSOLE_PUBLIC_URL ?? `http://localhost:${e.CONSOLE_PORT}`).replace(/\/+$/, '');
  return {
    /** 0: no console listener. */
    port: e.CONSOLE_PORT,
    host: e.CONSOLE_HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    bootstrapEmail: e.CONSOLE_BOOTSTRAP_EMAIL,
    /** Roles that must add and confirm a second factor (docs/decisions/070-staff-second-factor.md). */
    requireSecondFactor: e.CONSOLE_REQUIRE_SECOND_FACTOR as readonly StaffRole[],
    sessionIdleMinutes: e.CONSOLE_SESSION_IDLE_MINUTES,
  };
}
type ConsoleSettings = ReturnType<typeof consoleSettings>;
