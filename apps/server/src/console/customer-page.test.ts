import { describe, expect, it } from 'vitest';
import type { SubscriptionRow } from '../modules/billing/billing.repository';
import { dunningOf } from './customer-page';

const sub = (patch: Partial<SubscriptionRow>) =>
  ({
    status: 'past_due',
    currency: 'eur',
    currentPeriodStart: new Date('2025-02-28T10:00:00.000Z'),
    currentPeriodEnd: new Date('2025-03-31T10:00:00.000Z'),
    nextPaymentAttemptAt: new Date('2025-03-03T10:00:00.000Z'),
    ...patch,
  }) as SubscriptionRow;
const invoice = (status: string, amountDue: number, amountPaid = 0) => ({ status, amountDue, amountPaid, currency: 'eur' });

describe('dunningOf (the customer page)', () => {
  it('is null unless the payment is failing', () => {
    expect(dunningOf(sub({ status: 'active' }), [invoice('open', 100)], 14)).toBeNull();
    expect(dunningOf(sub({ status: 'canceled' }), [], 14)).toBeNull();
  });

  it('takes the dates from paymentTrouble and sums what the open invoices still ask for', () => {
    expect(dunningOf(sub({}), [invoice('paid', 5000, 5000), invoice('open', 5000), invoice('open', 1200, 200)], 14)).toEqual({
      failingSince: '2025-02-28T10:00:00.000Z',
      accessUntil: '2025-03-14T10:00:00.000Z',
      nextAttemptAt: '2025-03-03T10:00:00.000Z',
      amountDue: 6000,
      currency: 'eur',
    });
  });

  it('has no next retry when none is left (or Stripe retries), and nothing due without an open invoice', () => {
    expect(dunningOf(sub({ nextPaymentAttemptAt: null }), [], 7)).toMatchObject({
      accessUntil: '2025-03-07T10:00:00.000Z',
      nextAttemptAt: null,
      amountDue: 0,
      currency: 'eur',
    });
  });
});
