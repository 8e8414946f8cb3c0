import { z } from 'zod';
import { int, optionalString, trueOrFalse, url } from './env-parsers';

/** The plan and its prices, Stripe (when it is the payment provider) and failed payments. */
export const BillingEnvSchema = z.object({
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: url(['http:', 'https:']),
  STRIPE_PRICE_MONTH: optionalString,
  STRIPE_PRICE_YEAR: optionalString,
  STRIPE_SENDS_RECEIPTS: trueOrFalse,
  STRIPE_SENDS_DUNNING: trueOrFalse,
  /** Stripe Tax: Stripe calculates the tax of subscriptions, invoices and previews (ADR 115). */
  STRIPE_TAX: trueOrFalse,
  PLAN_NAME: z.string().default('Node license'),
  PRICE_MONTH: int(2500, 1),
  PRICE_YEAR: int(25000, 1),
  CURRENCY: z
    .string()
    .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter currency code such as usd')
    .default('usd')
    .transform((v) => v.toLowerCase()),
  /** Days a failed renewal keeps the license valid while the payment is retried (ADR 049). */
  PAYMENT_GRACE_DAYS: int(14, 0, 90),
  /** The built-in engine's retries of a failed renewal: days after the failure, ascending. */
  PAYMENT_RETRY_DAYS: optionalString.transform((v, ctx) => {
    if (v === undefined) return [1, 3, 5, 7];
    const days = v.split(',').map((d) => Number(d.trim()));
    const ok = days.every((d, i) => Number.isInteger(d) && d >= 1 && d <= 90 && (i === 0 || d > days[i - 1]!));
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: 'must be whole numbers of days from 1 to 90, ascending, for example 1,3,5,7' });
      return z.NEVER;
    }
    return days;
  }),
});
type BillingEnv = z.output<typeof BillingEnvSchema>;

/** What the variables together cannot be, as `VARIABLE: why`; undefined when they fit. */
export function billingProblem(e: BillingEnv): string | undefined {
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    return 'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set';
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_PUBLISHABLE_KEY) {
    // Without it the browser cannot load Stripe's card form, so no card could be added.
    return 'STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set';
  }
  if (e.STRIPE_TAX === 'true' && !e.STRIPE_SECRET_KEY) {
    return 'STRIPE_TAX: needs STRIPE_SECRET_KEY (Stripe Tax works on Stripe subscriptions only)';
  }
  return undefined;
}

export function billingSettings(e: BillingEnv) {
  return {
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? '',
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
          apiUrl: e.STRIPE_API_URL,
          priceMonth: e.STRIPE_PRICE_MONTH,
          priceYear: e.STRIPE_PRICE_YEAR,
          /** Stripe e-mails its own receipts (its "Successful payments" setting): the portal sends none for Stripe's invoices. */
          sendsReceipts: e.STRIPE_SENDS_RECEIPTS === 'true',
          /** Stripe e-mails its customers about failed payments: the portal's dunning e-mails are not sent for Stripe. */
          sendsDunning: e.STRIPE_SENDS_DUNNING === 'true',
          /** Stripe Tax: automatic tax on subscriptions, invoices and previews; billing details are kept on the Stripe customer. */
          tax: e.STRIPE_TAX === 'true',
        }
      : undefined,
    pricing: {
      plan: e.PLAN_NAME,
      currency: e.CURRENCY,
      monthUnitAmount: e.PRICE_MONTH,
      yearUnitAmount: e.PRICE_YEAR,
    },
    payments: { graceDays: e.PAYMENT_GRACE_DAYS, retryDays: e.PAYMENT_RETRY_DAYS },
  };
}
