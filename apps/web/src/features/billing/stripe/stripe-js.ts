import type { Stripe } from '@stripe/stripe-js';

const loaded = new Map<string, Promise<Stripe>>();

/**
 * Stripe.js for a publishable key, loaded once and only when a Stripe form is shown: the module is
 * imported lazily, and `pure` injects Stripe's script on the first call, never at import. A failed
 * load is forgotten so that a retry loads again.
 */
export function getStripe(publishableKey: string): Promise<Stripe> {
  return stripeJsLoader.get(publishableKey);
}

/**
 * The loader behind `getStripe`, an object so that a component test makes the load fail with
 * `vi.spyOn` (the unit tests share one module graph, ADR 044, where a file's `vi.mock` does not reach
 * components another file imported first).
 */
export const stripeJsLoader = {
  get(publishableKey: string): Promise<Stripe> {
    let promise = loaded.get(publishableKey);
    if (!promise) {
      promise = import('@stripe/stripe-js/pure')
        .then(({ loadStripe }) => loadStripe(publishableKey))
        .then((stripe) => {
          if (!stripe) throw new Error('Stripe.js is not available in this browser.');
          return stripe;
        });
      promise.catch(() => loaded.delete(publishableKey));
      loaded.set(publishableKey, promise);
    }
    return promise;
  },
};

/** The message shown when Stripe's script cannot be loaded (offline, blocked by an extension...). */
export const STRIPE_UNAVAILABLE =
  "Stripe's secure card form could not be loaded. Check your connection (and any content blocker), then try again.";

/** An error of Stripe.js in the shape the shared error display reads. */
export const stripeError = (error: { message?: string } | undefined, fallback: string) => ({
  data: { message: error?.message?.trim() ? error.message : fallback },
});
