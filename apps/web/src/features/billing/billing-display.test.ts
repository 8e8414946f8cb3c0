import { describe, expect, it } from 'vitest';
import {
  cardBrandLabel as brandLabel,
  intervalLabel,
  type Subscription,
  customerSubscriptionBadge,
  cardExpired,
  invoiceBadge,
  subscriptionState,
} from '@portal/contract';
import { addInterval, fromModalProps, periodTotal, toModalProps, yearlySaving } from './billing-display';

const price = { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 };
const now = new Date('2026-06-15T12:00:00Z');
const sub: Subscription = {
  stripeId: 'sub_1',
  status: 'active',
  quantity: 3,
  interval: 'month',
  currentPeriodStart: '2026-06-01T00:00:00Z',
  currentPeriodEnd: '2026-07-01T00:00:00Z',
  cancelAtPeriodEnd: false,
  endedReason: null,
  plan: 'Node license',
  unitAmount: 2500,
  currency: 'usd',
  licenseKey: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
  paymentFailing: null,
};

describe('billing display', () => {
  it("shows the interval by appending 'ly'", () => {
    expect(intervalLabel('month')).toBe('monthly');
    expect(intervalLabel('year')).toBe('yearly');
  });

  it('tells where a subscription stands', () => {
    expect(subscriptionState(sub, now)).toBe('active');
    expect(subscriptionState({ ...sub, cancelAtPeriodEnd: true }, now)).toBe('cancelling');
    expect(subscriptionState({ ...sub, cancelAtPeriodEnd: true }, new Date('2026-07-02T00:00:00Z'))).toBe('ended');
    expect(subscriptionState({ ...sub, status: 'canceled' }, now)).toBe('ended');
    expect(subscriptionState({ ...sub, status: 'past_due' }, now)).toBe('past_due');
    expect(subscriptionState({ ...sub, status: 'incomplete' }, now)).toBe('incomplete');
  });

  it('colours invoice statuses by meaning', () => {
    expect(invoiceBadge('paid')).toEqual({ label: 'Paid', color: 'green', tone: 'positive' });
    expect(invoiceBadge('open')).toEqual({ label: 'Unpaid', color: 'yellow', tone: 'warning' });
    expect(invoiceBadge('uncollectible').color).toBe('red');
    expect(invoiceBadge('void').color).toBe('gray');
    expect(invoiceBadge('weird')).toEqual({ label: 'Weird', color: 'gray', tone: 'neutral' });
  });

  it('prices a period and the yearly saving', () => {
    expect(periodTotal(price, 'month', 3)).toBe(7500);
    expect(periodTotal(price, 'year', 3)).toBe(75000);
    expect(yearlySaving(price, 3)).toEqual({ amount: 15000, percent: 17 });
    expect(yearlySaving({ ...price, yearUnitAmount: 40000 }, 1)).toEqual({ amount: 0, percent: 0 });
  });

  it('names card brands and knows when a card has expired', () => {
    expect(brandLabel('visa')).toBe('Visa');
    expect(brandLabel('amex')).toBe('American Express');
    expect(brandLabel('unknown')).toBe('Card');
    expect(cardExpired(6, 2026, now)).toBe(false);
    expect(cardExpired(5, 2026, now)).toBe(true);
  });

  it('adds one period', () => {
    expect(addInterval(new Date(2026, 0, 15), 'month')).toEqual(new Date(2026, 1, 15));
    expect(addInterval(new Date(2026, 0, 15), 'year')).toEqual(new Date(2027, 0, 15));
  });

  it('passes a subscription to the modals as plain props and reads it back', () => {
    const props = toModalProps(sub);
    expect(Object.values(props).every((v) => ['string', 'number'].includes(typeof v))).toBe(true);
    expect(fromModalProps(props)).toEqual({
      stripeId: 'sub_1',
      plan: 'Node license',
      quantity: 3,
      interval: 'month',
      currentPeriodEnd: '2026-07-01T00:00:00Z',
      unitAmount: 2500,
      currency: 'usd',
    });
    expect(fromModalProps({}).interval).toBe('month');
  });

  it('says that a subscription ended for non-payment, and only then', () => {
    expect(customerSubscriptionBadge({ endedReason: 'unpaid' }, 'ended')).toMatchObject({
      label: 'Ended: not paid',
      tone: 'neutral',
    });
    expect(customerSubscriptionBadge({ endedReason: 'cancelled' }, 'ended').label).toBe('Ended');
    expect(customerSubscriptionBadge({ endedReason: null }, 'past_due').label).toBe('Payment failed, retrying');
  });
});
