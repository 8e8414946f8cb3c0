import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { hasAccess, intervalLabel, SUBSCRIPTION_STATUSES, TEXT, type Interval } from '@portal/contract';
import { sqlLiteralList } from '../../db/literals';
import { AppError } from '../../lib/errors';
import type { StatePatch } from '../../providers/billing/gateway';
import type { SubscriptionRow } from './billing.repository';

/**
 * The subscription's life, in one place: who has access, what may change when, and what a change
 * of state means for the license. Pure functions of the record and the time; every use case
 * (checkout, changes, cancel and re-activate, renewals, provider sync, account deletion) asks here.
 */

/** Access to the products (paid up, or in the grace of a failed renewal): the contract's one rule. */
export { hasAccess };

/** The statuses that give access, taken from `hasAccess` itself: the SQL below cannot drift from it. */
export const SUBSCRIPTION_ACCESS_STATUSES: readonly SubscriptionRow['status'][] = SUBSCRIPTION_STATUSES.filter((status) =>
  hasAccess({ status }),
);

/**
 * `hasAccess` as an SQL condition on a subscription's status column (or expression): the console's
 * counts of subscriptions that give access, MRR's "alive" ones. The statuses are written as
 * literals, not parameters, so that a partial index on them can serve the condition.
 */
export function subscriptionGivesAccessSql(status: AnyColumn | SQL): SQL {
  return sql`${status} in (${sqlLiteralList(SUBSCRIPTION_ACCESS_STATUSES)})`;
}
/** '3 × Standard (monthly)': how activity entries and e-mails name a subscription. */
export { describeSubscription as describe } from '../audit/audit-events';

export type Change =
  { kind: 'quantity'; quantity: number } | { kind: 'interval'; interval: Interval } | { kind: 'cancel' } | { kind: 'reactivate' };

const ENDED = 'This subscription has ended. Start a new subscription to continue.';
const AWAITING_PAYMENT = 'This subscription is waiting for its first payment. Complete the payment first.';

/** Over for good: cancelled now, or cancelled at a period end that has passed. */
export const hasEnded = (sub: SubscriptionRow, now: Date) =>
  sub.status === 'canceled' || (sub.cancelAtPeriodEnd && sub.currentPeriodEnd <= now);

/**
 * Whether `change` may be made to `sub` at `now`: throws the message the customer sees when not,
 * and answers false when it would change nothing (cancelling twice, re-activating an active one).
 */
export function mayChange(sub: SubscriptionRow, change: Change, now: Date): boolean {
  if (change.kind === 'reactivate') {
    if (hasEnded(sub, now)) {
      throw new AppError(
        'CONFLICT',
        'This subscription has already ended and can no longer be re-activated. Start a new subscription instead.',
      );
    }
    return sub.cancelAtPeriodEnd;
  }
  if (change.kind === 'cancel') {
    if (hasEnded(sub, now)) throw new AppError('CONFLICT', ENDED);
    if (sub.cancelAtPeriodEnd) return false;
    if (sub.status === 'incomplete') throw new AppError('CONFLICT', AWAITING_PAYMENT);
    return true;
  }
  assertChangeable(sub, now);
  if (change.kind === 'quantity' && change.quantity === sub.quantity) {
    throw new AppError('BAD_REQUEST', TEXT.quantityMustDiffer);
  }
  if (change.kind === 'interval' && change.interval === sub.interval) {
    throw new AppError('BAD_REQUEST', `This subscription is already billed ${intervalLabel(change.interval)}.`);
  }
  return true;
}

/** Quantity and interval changes need a paid, running subscription (one that has not ended). */
export function assertChangeable(sub: SubscriptionRow, now: Date) {
  if (hasEnded(sub, now)) throw new AppError('CONFLICT', ENDED);
  if (sub.cancelAtPeriodEnd) {
    throw new AppError('CONFLICT', 'This subscription is cancelled. Re-activate it before changing it.');
  }
  if (sub.status === 'incomplete') throw new AppError('CONFLICT', AWAITING_PAYMENT);
  if (sub.status === 'past_due') {
    throw new AppError(
      'CONFLICT',
      'The last payment for this subscription failed. Add a working card to pay the open invoice first.',
    );
  }
}

/** The record of a subscription ended now with no further charge (account deletion). */
export function endedNow(sub: SubscriptionRow, now: Date): StatePatch {
  return {
    status: 'canceled',
    cancelAtPeriodEnd: false,
    canceledAt: now,
    currentPeriodEnd: sub.currentPeriodEnd < now ? sub.currentPeriodEnd : now,
  };
}
