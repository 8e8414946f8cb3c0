import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import type { RateLimiter } from '../lib/rate-limiter';

/** Throws 429 with Retry-After when `key` has used up `perMinute` this minute; 0 turns the limit off. */
export function createRateLimit(limiter: RateLimiter) {
  return async function limit(
    key: string,
    perMinute: number,
    message = 'Too many requests. Please wait a moment and try again.',
  ) {
    if (perMinute <= 0) return;
    const r = await limiter.hit(key, perMinute, 60_000);
    if (!r.allowed) {
      throw new AppError('RATE_LIMITED', `${message} Try again in ${r.retryAfterSeconds} seconds.`, {
        retryAfterSeconds: r.retryAfterSeconds,
      });
    }
  };
}
export type RateLimit = ReturnType<typeof createRateLimit>;

/**
 * The per-address limit on sign-in links (RATE_LIMIT_LINK_PER_ADDRESS a minute), one counter for
 * an address whoever asks: the visitor on the login page, or the vendor's staff resending a link.
 */
export function linkAddressLimit(rateLimit: RateLimit, perMinute: number) {
  return (email: string) =>
    rateLimit(`auth:address:${email}`, perMinute, 'Too many sign-in links were requested for this address.');
}
export type LinkAddressLimit = ReturnType<typeof linkAddressLimit>;

export const clientKey = (req: FastifyRequest) => req.ip;
