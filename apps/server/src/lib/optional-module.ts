import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A dependency only some deployments use (the Stripe SDK, the Redis client), loaded the first time
 * it is needed rather than at start-up: the embedded default starts without paying for it.
 */
export function optionalModule<T>(name: 'stripe' | 'ioredis'): T {
  return load(name) as T;
}
