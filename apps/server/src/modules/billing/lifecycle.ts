import { hasAccess, intervalLabel, TEXT, type Interval } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { StatePatch } from '../../providers/billing/gateway';
import type { AuditEvent } from '../audit/audit-events';
import type { SubscriptionRow } from './billing.repository';

/**
 * The subscription's life, in one place: who has access, what may change when, and what a change
 * of state means for the license. Pure functions of the record and the time; every use case
 * (checkout, changes, cancel and re-activate, renewals, provider sync, account deletion) asks here.
 */

/** Access to the products (paid up, or in the grace of a failed renewal): the contract's one rule. */
export { hasAccess };
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

/** What the license does when the subscription goes from `before` to `after`. */
export type LicenseEffect =
  | { kind: 'issue'; maxNodes: number; expiresAt: Date }
  | { kind: 'resize'; maxNodes: number; /** a provider resized below the nodes in use: keep the size */ lenient: boolean }
  | { kind: 'align'; expiresAt: Date }
  | { kind: 'expire'; at: Date };

/**
 * The license follows the subscription: issued when it first gains access (checkout, or Stripe's
 * first payment), resized and moved with the paid period while it has access, expired when it
 * ends. Deciding on the transition (seen under the row lock) issues exactly one license even when
 * our checkout and Stripe's webhook race.
 */
export function licenseEffects(before: SubscriptionRow | undefined, after: SubscriptionRow, now: Date): LicenseEffect[] {
  if (hasAccess(after) && (!before || !hasAccess(before))) {
    return [{ kind: 'issue', maxNodes: after.quantity, expiresAt: after.currentPeriodEnd }];
  }
  const effects: LicenseEffect[] = [];
  if (before && hasAccess(before) && hasAccess(after)) {
    if (after.quantity !== before.quantity) effects.push({ kind: 'resize', maxNodes: after.quantity, lenient: true });
    if (after.status === 'active' && after.currentPeriodEnd.getTime() !== before.currentPeriodEnd.getTime()) {
      effects.push({ kind: 'align', expiresAt: after.currentPeriodEnd });
    }
  }
  if (after.status === 'canceled' && before && before.status !== 'canceled' && hasAccess(before)) {
    effects.push({ kind: 'expire', at: after.currentPeriodEnd < now ? after.currentPeriodEnd : now });
  }
  return effects;
}

/**
 * What a provider changed on its own (Stripe's dashboard, its renewals, a customer's bank), as
 * entries of the customer's activity log: the difference between our record and the provider's.
 */
export function providerActivity(before: SubscriptionRow | undefined, row: SubscriptionRow, actor: string): AuditEvent[] {
  if (!row.userId) return [];
  const base = { userId: row.userId, actor, subscription: row };
  if (!before) return [{ ...base, type: 'subscription_created' }];
  const events: AuditEvent[] = [];
  if (before.quantity !== row.quantity) {
    events.push({ ...base, type: 'subscription_quantity_changed', from: before.quantity, to: row.quantity });
  }
  if (before.interval !== row.interval) {
    events.push({ ...base, type: 'subscription_interval_changed', from: before.interval, to: row.interval });
  } else if (row.currentPeriodEnd > before.currentPeriodEnd && row.status === 'active') {
    events.push({ ...base, type: 'subscription_renewed', until: row.currentPeriodEnd });
  }
  if (!before.cancelAtPeriodEnd && row.cancelAtPeriodEnd) {
    events.push({ ...base, type: 'subscription_cancelled', endsOn: row.currentPeriodEnd, by: 'provider' });
  }
  if (before.cancelAtPeriodEnd && !row.cancelAtPeriodEnd && row.status !== 'canceled') {
    events.push({ ...base, type: 'subscription_reactivated' });
  }
  if (before.status !== 'canceled' && row.status === 'canceled') events.push({ ...base, type: 'subscription_ended' });
  return events;
}
