import { z } from 'zod';
import type { Tx } from '../../../db/client';

/**
 * Stripe calls that follow a local commit, run by the outbox and retried with the same idempotency
 * keys until Stripe has them. The outbox's job map takes these schemas (modules/outbox/jobs.ts).
 */
export const STRIPE_JOBS = {
  /** A verified Stripe webhook event: re-read the object at Stripe and mirror it. */
  'billing.stripe.sync': z.object({
    object: z.enum(['subscription', 'invoice', 'setup_intent']),
    id: z.string().min(1),
    eventId: z.string().min(1),
    eventType: z.string().min(1),
  }),
  /** Cancel a Stripe subscription now (account deletion). */
  'billing.stripe.cancel': z.object({ subscriptionId: z.string().min(1), opId: z.string().min(1) }),
  /** Detach every card of a Stripe customer (account deletion). */
  'billing.stripe.detach-cards': z.object({ customerId: z.string().min(1), opId: z.string().min(1) }),
};

type Payload<K extends keyof typeof STRIPE_JOBS> = z.input<(typeof STRIPE_JOBS)[K]>;
type Data<K extends keyof typeof STRIPE_JOBS> = z.output<(typeof STRIPE_JOBS)[K]>;
type DeferredKind = 'billing.stripe.cancel' | 'billing.stripe.detach-cards';

/** The slice of the outbox the Stripe gateway uses: queue work in a transaction, and run it. */
export type DeferredWork = {
  enqueue<K extends DeferredKind>(tx: Tx, kind: K, payload: Payload<K>): Promise<void>;
  on<K extends DeferredKind>(kind: K, handler: (data: Data<K>) => Promise<void>): void;
};
