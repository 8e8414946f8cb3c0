import { randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '@portal/contract';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** `pat_` and 43 base64url characters (256 random bits). */
const SECRET = /^pat_[A-Za-z0-9_-]{43}$/;

/** A new secret: the prefix secret scanners look for, then 256 random bits. */
export const newSecretWith = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
export const newTokenSecret = () => newSecretWith(API_TOKEN_PREFIX);

/** The part of a secret that is shown again later: enough to tell tokens apart, never to use one. */
export const hintOf = (secret: string) => secret.slice(0, API_TOKEN_PREFIX.length + 4);

export const isTokenSecret = (secret: string) => SECRET.test(secret);

/** A secret of newSecretWith(prefix): the prefix, then 43 base64url characters. */
export const isSecretWith = (prefix: string, secret: string) =>
  secret.startsWith(prefix) && /^[A-Za-z0-9_-]{43}$/.test(secret.slice(prefix.length));

/**
 * What an Authorization header holds: nothing for us (absent, or another scheme, which the
 * session rules then ignore), or a Bearer credential, well-formed or not (RFC 6750: the scheme is
 * case-insensitive).
 */
export function bearerOf(header: string | undefined): { secret: string } | null {
  if (header === undefined) return null;
  const m = /^\s*bearer(?:\s+(.*?))?\s*$/i.exec(header);
  return m ? { secret: m[1] ?? '' } : null;
}

export const startOfMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE) * MINUTE);
export const startOfHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR) * HOUR);

export const expiryOf = (now: Date, days: number | null) => (days === null ? null : new Date(now.getTime() + days * DAY));

/**
 * What a use at `now` writes, given the last use stored: nothing within the same minute; the new
 * minute otherwise; and an entry in the activity log for the first use in an hour
 * (docs/decisions/092-api-token-use-in-the-activity-log.md).
 */
export function useToRecord(lastUsedAt: Date | null, now: Date): 'nothing' | 'minute' | 'hour' {
  if (lastUsedAt === null || lastUsedAt < startOfHour(now)) return 'hour';
  return lastUsedAt < startOfMinute(now) ? 'minute' : 'nothing';
}

/** Usable at `now`: not revoked and not past its expiry. */
export const isUsable = (t: { revokedAt: Date | null; expiresAt: Date | null }, now: Date) =>
  t.revokedAt === null && (t.expiresAt === null || t.expiresAt > now);
