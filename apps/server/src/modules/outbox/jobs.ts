import { z } from 'zod';
import { STRIPE_JOBS } from '../../providers/billing/stripe/stripe-jobs';
import { ViesCheckJobSchema } from '../billing/billing-details-jobs';
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
  /** One attempt of an outbound webhook's delivery (modules/webhooks). */
  webhook: z.object({ deliveryId: z.number().int().positive() }),
  // Stripe calls after a commit and webhook processing; the Stripe gateway owns their payloads.
  ...STRIPE_JOBS,
  /** A pending EU VAT number checked with VIES again (retried with the outbox's backoff while VIES is down). */
  vies_check: ViesCheckJobSchema,
} satisfies Record<string, z.ZodType<Record<string, unknown>>>;

export type JobMap = Record<string, z.ZodType<Record<string, unknown>>>;
export type Jobs = typeof JOBS;
export type JobKind = keyof Jobs;
/** What `enqueue` accepts for a kind (the schema's input). */
export type JobPayload<K extends JobKind, M extends JobMap = Jobs> = z.input<M[K]>;
/** What a handler receives for a kind (the schema's output, after parsing). */
export type JobData<K extends JobKind, M extends JobMap = Jobs> = z.output<M[K]>;
