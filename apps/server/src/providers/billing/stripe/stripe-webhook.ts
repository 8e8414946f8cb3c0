import type Stripe from 'stripe';
import { z } from 'zod';
import { AppError } from '../../../lib/errors';

/** Webhooks older than this are refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Verifies a webhook against the raw body and our clock; throws 400 with the reason. */
export function verifyStripeEvent(
  stripe: Stripe,
  webhookSecret: string,
  now: Date,
  raw: Buffer,
  signature: string | undefined,
): Stripe.Event {
  if (!signature) throw new AppError('BAD_REQUEST', 'The Stripe-Signature header is missing.');
  // Stripe's library verifies against the last `t=` of the header; our future check below reads
  // one too. With two, a current `t=` put in front of an event signed far ahead would pass both.
  if (timestampsOf(signature).length !== 1) {
    throw new AppError('BAD_REQUEST', 'The Stripe-Signature header must carry exactly one timestamp (t=).');
  }
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, now.getTime());
  } catch (err) {
    const stale = /tolerance/i.test((err as Error).message ?? '');
    throw new AppError(
      'BAD_REQUEST',
      stale
        ? 'The webhook is too old: its signed timestamp is outside the five-minute tolerance.'
        : 'The webhook signature does not match its body.',
    );
  }
  // Stripe's library checks only the past side of the tolerance: a correctly signed event
  // dated ahead of our clock would stay replayable until long after it was sent.
  if (Number.parseInt(timestampsOf(signature)[0]!, 10) * 1000 - now.getTime() > WEBHOOK_TOLERANCE_SECONDS * 1000) {
    throw new AppError(
      'BAD_REQUEST',
      'The webhook is from the future: its signed timestamp is more than five minutes ahead of our clock.',
    );
  }
  // Signed is not the same as well-formed: refuse (400, which Stripe does not retry) rather than fail on it.
  if (!StripeEventShapeSchema.safeParse(event).success) {
    throw new AppError('BAD_REQUEST', 'The webhook body is not a Stripe event.');
  }
  return event;
}

/** The values of every `t=` item of a Stripe-Signature header (seconds), split as Stripe's library splits it. */
function timestampsOf(header: string): string[] {
  return header
    .split(',')
    .filter((part) => part.split('=')[0] === 't')
    .map((part) => part.slice(2));
}

const StripeEventShapeSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.looseObject({}) }),
});

/** Which object an event names, for the events billing acts on. */
export function jobFor(event: Stripe.Event): { object: 'subscription' | 'invoice' | 'setup_intent'; id: string } | null {
  const obj = event.data.object as { id?: string };
  if (!obj.id) return null;
  if (event.type.startsWith('customer.subscription.')) return { object: 'subscription', id: obj.id };
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed' || event.type === 'invoice.finalized') {
    return { object: 'invoice', id: obj.id };
  }
  if (event.type === 'setup_intent.succeeded') return { object: 'setup_intent', id: obj.id };
  return null;
}
