import type { Subscription } from '@portal/contract';
import type { SubscriptionModalProps } from '../lib/state/menu-slice';

/** A subscription modal's props for tests that care about one or two of them. */
export function subscriptionModalProps(overrides: Partial<SubscriptionModalProps> = {}): SubscriptionModalProps {
  return {
    stripeId: 'sub_1',
    plan: 'Node license',
    quantity: 1,
    interval: 'month',
    currentPeriodEnd: '2026-07-01T00:00:00Z',
    unitAmount: 2500,
    currency: 'usd',
    ...overrides,
  };
}

/** A running monthly subscription of three nodes; tests name what they rely on. */
export function aSubscription(
  fields: Pick<Subscription, 'stripeId' | 'currentPeriodStart' | 'currentPeriodEnd' | 'plan' | 'unitAmount' | 'licenseKey'> &
    Partial<Subscription>,
): Subscription {
  return {
    status: 'active',
    quantity: 3,
    interval: 'month',
    cancelAtPeriodEnd: false,
    endedReason: null,
    currency: 'usd',
    paymentFailing: null,
    ...fields,
  };
}
