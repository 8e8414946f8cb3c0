import { describe, expect, it } from 'vitest';
import { staffSubscriptionBadge } from './subscription-label';

const sub = (status: 'active' | 'past_due' | 'canceled' | 'incomplete', cancelAtPeriodEnd = false) => ({
  status,
  cancelAtPeriodEnd,
  currentPeriodEnd: '2999-01-01T00:00:00Z',
});

describe('staffSubscriptionBadge', () => {
  it('reads a past due subscription as a failing payment, in red, even when it is set to cancel', () => {
    expect(staffSubscriptionBadge(sub('past_due'))).toEqual({ label: 'Payment failing', tone: 'critical' });
    expect(staffSubscriptionBadge(sub('past_due', true))).toEqual({ label: 'Payment failing', tone: 'critical' });
  });

  it('reads a cancelling one by what will happen, and the others as the portal does', () => {
    expect(staffSubscriptionBadge(sub('active', true))).toEqual({ label: 'Cancels at period end', tone: 'warning' });
    expect(staffSubscriptionBadge(sub('active'))).toEqual({ label: 'Active', tone: 'positive' });
    expect(staffSubscriptionBadge(sub('canceled'))).toEqual({ label: 'Ended', tone: 'neutral' });
    expect(staffSubscriptionBadge(sub('incomplete'))).toEqual({ label: 'Awaiting payment', tone: 'warning' });
  });

  it('says that a subscription ended for non-payment', () => {
    expect(staffSubscriptionBadge({ ...sub('canceled'), endedReason: 'unpaid' })).toEqual({
      label: 'Ended: not paid',
      tone: 'neutral',
    });
    expect(staffSubscriptionBadge({ ...sub('canceled'), endedReason: 'ended_now' })).toEqual({ label: 'Ended', tone: 'neutral' });
  });
});
