import { z } from 'zod';
import { EmailJobSchema } from '../email/email-job';

/**
 * Every kind of background work the outbox runs, with the schema of its payload. `enqueue` and
 * `on` are typed by this map (an unknown kind does not compile) and a payload is parsed by its
 * schema before its handler sees it. Rows stay readable across releases: a kind keeps its name and
 * a schema only ever accepts more (rows already queued in a database must still be handled).
 */
export const JOBS = {
  /** An e-mail: a template and its data (rendered when sent), or an already rendered message. */
  email: EmailJobSchema,
  /** A verified Stripe webhook event: re-read the object at Stripe and mirror it. */
  'billing.stripe.sync': z.object({
    object: z.enum(['subscription', 'invoice', 'setup_intent']),
    id: z.string().min(1),
    eventId: z.string().min(1),
    eventType: z.string().min(1),
  }),
  /** Cancel a Stripe subscription now (account deletion), retried with the same idempotency key. */
  'billing.stripe.cancel': z.object({ subscriptionId: z.string().min(1), opId: z.string().min(1) }),
  /** Detach every card of a Stripe customer (account deletion). */
  'billing.stripe.detach-cards': z.object({ customerId: z.string().min(1), opId: z.string().min(1) }),
} satisfies Record<string, z.ZodType<Record<string, unknown>>>;

export type JobMap = Record<string, z.ZodType<Record<string, unknown>>>;
export type Jobs = typeof JOBS;
export type JobKind = keyof Jobs;
/** What `enqueue` accepts for a kind (the schema's input). */
export type JobPayload<K extends JobKind, M extends JobMap = Jobs> = z.input<M[K]>;
/** What a handler receives for a kind (the schema's output, after parsing). */
export type JobData<K extends JobKind, M extends JobMap = Jobs> = z.output<M[K]>;
