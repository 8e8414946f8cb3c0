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

export const clientKey = (req: FastifyRequest) => req.ip;
