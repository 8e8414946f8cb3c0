import { SUBSCRIPTION_BADGE, subscriptionState, type StatusTone } from '@portal/contract';

/**
 * A subscription's badge as staff read it, the same on the customer page and in the list: by what
 * will happen (a cancelling one "Cancels at period end"), and a past due one by what is going on,
 * "Payment failing" (the customer's portal says "Payment failed"), and one ended for non-payment says so.
 */
export function staffSubscriptionBadge(s: {
  status: Parameters<typeof subscriptionState>[0]['status'];
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string;
  endedReason?: string | null;
}): { label: string; tone: StatusTone } {
  const state = subscriptionState(s);
  const badge = SUBSCRIPTION_BADGE[state];
  // A failing payment outweighs a cancellation: it may end the subscription before its period does.
  if (s.status === 'past_due' && state !== 'ended') return { label: PAYMENT_FAILING, tone: SUBSCRIPTION_BADGE.past_due.tone };
  if (state === 'cancelling') return { label: 'Cancels at period end', tone: badge.tone };
  if (state === 'ended' && s.endedReason === 'unpaid') return { label: 'Ended: not paid', tone: badge.tone };
  return { label: badge.label, tone: badge.tone };
}

export const PAYMENT_FAILING = 'Payment failing';
