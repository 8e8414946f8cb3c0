import type { Redis } from 'ioredis';

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number; remaining: number };

/** Fixed-window counters; in-process by default, Redis when several instances share limits. */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweeps = 0;
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      if (++sweeps % 1000 === 0) for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count++;
      return {
        allowed: w.count <= limit,
        retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)),
        remaining: Math.max(0, limit - w.count),
      };
    },
    async close() {
      windows.clear();
    },
  };
}

/**
 * Shared counters in Redis. While Redis is unreachable the limits still hold per instance (an
 * in-process fallback) rather than failing the request.
 */
export function redisRateLimiter(redis: Redis, onError: (err: unknown) => void = () => {}): RateLimiter {
  const fallback = memoryRateLimiter();
  return {
    async hit(key, limit, windowMs) {
      const k = `rl:${key}`;
      try {
        const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
        let ms = ttl;
        if (ttl < 0) {
          await redis.pexpire(k, windowMs);
          ms = windowMs;
        }
        return {
          allowed: count <= limit,
          retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
          remaining: Math.max(0, limit - count),
        };
      } catch (err) {
        onError(err);
        return fallback.hit(key, limit, windowMs);
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
