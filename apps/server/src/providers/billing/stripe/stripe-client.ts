import type Stripe from 'stripe';
import type { Config } from '../../../config';
import { AppError } from '../../../lib/errors';
import { optionalModule } from '../../../lib/optional-module';

type StripeConfig = NonNullable<Config['stripe']>;

/** `new Stripe(key, { host, port, protocol })` from STRIPE_API_URL, so tests and proxies can stand in for api.stripe.com. */
export function createStripeClient(cfg: StripeConfig): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, timeout: 20_000, telemetry: false };
  if (cfg.apiUrl) {
    const u = new URL(cfg.apiUrl);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    options.host = u.hostname;
    options.port = u.port || (protocol === 'http' ? 80 : 443);
    options.protocol = protocol;
  }
  const StripeClient = optionalModule<typeof Stripe>('stripe');
  return new StripeClient(cfg.secretKey, options);
}

/** Maps Stripe's failures onto our error shape: declines are 402 with Stripe's own message. */
export function toAppError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; message?: string; statusCode?: number };
  if (e.type === 'StripeCardError') return new AppError('CARD_DECLINED', e.message || 'Your card was declined.');
  if (
    e.type === 'StripeConnectionError' ||
    e.type === 'StripeAPIError' ||
    e.type === 'StripeRateLimitError' ||
    (e.statusCode ?? 0) >= 500
  ) {
    return new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached. Please try again in a moment.');
  }
  return err;
}

/** Runs one Stripe call, its failures mapped by `toAppError`. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toAppError(err);
  }
}
