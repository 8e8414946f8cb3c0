import Stripe from 'stripe';
import { buildTestApp, type TestApp } from './helpers';
import { startStripeWireServer, type StripeWireServer } from './stripe-wire-server';

export type StripeKeys = { secretKey: string; publishableKey: string; webhookSecret: string };
export type SignOptions = { secret?: string; timestamp?: number };

/**
 * The real application configured for Stripe against the Stripe stand-in, which sells a monthly and
 * a yearly price and keeps the app's clock (`start` until the app exists, then the app's clock set
 * to it). `sign` writes a Stripe-Signature header for a webhook payload as Stripe does: the app's
 * webhook secret and the app's clock unless given.
 */
export async function buildStripeTestApp(
  keys: StripeKeys,
  start?: Date,
  env: Record<string, string> = {},
  overrides: Parameters<typeof buildTestApp>[1] = {},
) {
  // The stand-in asks for the time before the app exists.
  const built: { t?: TestApp } = {};
  const wire: StripeWireServer = await startStripeWireServer({
    secretKey: keys.secretKey,
    prices: [
      { id: 'price_month', unitAmount: 2500, currency: 'usd', interval: 'month' },
      { id: 'price_year', unitAmount: 25000, currency: 'usd', interval: 'year' },
    ],
    now: () => built.t?.clock.now() ?? start ?? new Date(),
  });
  const app = await buildTestApp(
    {
      STRIPE_SECRET_KEY: keys.secretKey,
      STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_API_URL: wire.url,
      STRIPE_PRICE_MONTH: 'price_month',
      STRIPE_PRICE_YEAR: 'price_year',
      ...env,
    },
    overrides,
  );
  built.t = app;
  if (start) app.clock.set(start);
  const sdk = new Stripe(keys.secretKey);
  return {
    t: app,
    wire,
    sign: (payload: string, opts: SignOptions = {}) =>
      sdk.webhooks.generateTestHeaderString({
        payload,
        secret: opts.secret ?? keys.webhookSecret,
        timestamp: opts.timestamp ?? Math.floor(app.clock.now().getTime() / 1000),
      }),
    async close() {
      await app.close();
      await wire.close();
    },
  };
}

export type StripeTestApp = Awaited<ReturnType<typeof buildStripeTestApp>>;
