import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { sqlLiteral } from '../../db/literals';
import type { Receipt, StatePatch } from '../../providers/billing/gateway';
import type { AuditEvent } from '../audit/audit-events';
import type { SubscriptionRow } from './billing.repository';
import { hasAccess } from './lifecycle';

/**
 * Why a subscription changed: what the activity entries need beyond the record before and after
 * (the invoice a charge produced, who cancelled, why it ended). The state itself says what changed.
 */
export type Cause =
  /** A new subscription (our checkout, or the provider's first report of it). */
  | { kind: 'created'; invoice?: Receipt | undefined }
  /** The owner (or the vendor's staff for them) changed quantity, interval, cancelled or re-activated. */
  | { kind: 'owner'; invoice?: Receipt | undefined }
  /** A renewal we ran (the local engine): paid, failed, retried, or the end of the subscription. */
  | {
      kind: 'renewal';
      invoice?: Receipt | undefined;
      /** Set when the renewal ends it: cancelled at the period's end, unpaid, or its owner is gone. */
      endedBecause?: 'cancelled' | 'unpaid' | 'account_deleted' | undefined;
    }
  /** The open invoice of a failed renewal was paid (a retry, a new card, staff "retry now"). */
  | { kind: 'paid'; invoice?: Receipt | undefined }
  /** The payment provider reported the change (Stripe's webhooks). */
  | { kind: 'provider' }
  /** Ended now: by the vendor's staff, or with the account's deletion. */
  | { kind: 'ended_now'; reason?: 'account_deleted' | undefined };

/**
 * The customer's activity entries for a subscription going from `before` to `after`, derived from
 * the difference between the two records (what the cause adds: the invoice, who, why).
 */
export function activityOf(
  before: SubscriptionRow | undefined,
  after: SubscriptionRow,
  actor: string,
  cause: Cause,
): AuditEvent[] {
  if (!after.userId) return [];
  const invoice = 'invoice' in cause ? cause.invoice : undefined;
  // Owner's changes name the subscription as it was; reports of the provider as it is now.
  const subscription = before && cause.kind !== 'provider' ? before : after;
  const base = { userId: after.userId, actor, subscription };
  if (!before) return [{ ...base, type: 'subscription_created', invoice, status: after.status }];
  const events: AuditEvent[] = [];
  if (before.quantity !== after.quantity) {
    events.push({ ...base, type: 'subscription_quantity_changed', from: before.quantity, to: after.quantity, invoice });
  }
  if (before.interval !== after.interval) {
    events.push({ ...base, type: 'subscription_interval_changed', from: before.interval, to: after.interval, invoice });
  } else if (before.status === 'past_due' && after.status === 'active') {
    events.push({ ...base, type: 'subscription_renewed', until: after.currentPeriodEnd, invoice, paidOpenInvoice: true });
  } else if (after.status === 'active' && after.currentPeriodEnd > before.currentPeriodEnd) {
    events.push({ ...base, type: 'subscription_renewed', until: after.currentPeriodEnd, invoice });
  }
  if (before.status !== 'past_due' && after.status === 'past_due') {
    events.push({ ...base, type: 'subscription_payment_failed', invoice });
  }
  if (!before.cancelAtPeriodEnd && after.cancelAtPeriodEnd && after.status !== 'canceled') {
    events.push({
      ...base,
      type: 'subscription_cancelled',
      endsOn: after.currentPeriodEnd,
      by: cause.kind === 'provider' ? 'provider' : 'customer',
    });
  }
  if (before.cancelAtPeriodEnd && !after.cancelAtPeriodEnd && after.status !== 'canceled') {
    events.push({
      ...base,
      type: 'subscription_reactivated',
      renewsOn: cause.kind === 'provider' ? undefined : after.currentPeriodEnd,
    });
  }
  if (before.status !== 'canceled' && after.status === 'canceled') {
    // What the entry says of the end: the provider's reports name only an unpaid end (a cancellation
    // at Stripe may have been immediate), and an end by the vendor names none, as before.
    const reported = cause.kind === 'provider' && after.endedReason !== 'unpaid';
    const reason = after.endedReason === 'ended_now' || reported ? undefined : (after.endedReason ?? undefined);
    events.push({ ...base, type: 'subscription_ended', ...(reason ? { reason } : {}) });
  }
  return events;
}

/** What the license does when the subscription goes from `before` to `after`. */
export type LicenseEffect =
  | { kind: 'issue'; maxNodes: number; expiresAt: Date }
  | { kind: 'resize'; maxNodes: number; /** a provider resized below the nodes in use: keep the size */ lenient: boolean }
  /** The license ends with the paid period, or with the grace of a failed payment (`grace`). */
  | { kind: 'align'; expiresAt: Date; grace: boolean }
  | { kind: 'expire'; at: Date };

/**
 * The end of the grace of a failed payment: `graceDays` after the unpaid period began. Until then
 * the license stays valid and the product on the node keeps working (past_due has access).
 */
export function graceEnd(sub: Pick<SubscriptionRow, 'currentPeriodStart'>, graceDays: number): Date {
  return new Date(sub.currentPeriodStart.getTime() + graceDays * 86_400_000);
}

/** Until when a subscription with access keeps its license valid: its paid period, or its grace. */
export function accessUntil(sub: SubscriptionRow, graceDays: number): Date {
  return sub.status === 'past_due' ? graceEnd(sub, graceDays) : sub.currentPeriodEnd;
}

/** A failing payment as the customer and the staff see it: since when, until when access lasts, the next try. */
export type PaymentTrouble = { failingSince: Date; accessUntil: Date; nextAttemptAt: Date | null };

/** The status of a subscription whose renewal failed and whose grace runs: its payment is failing. */
export const PAYMENT_TROUBLE_STATUS = 'past_due' satisfies SubscriptionRow['status'];

/** The dunning state of a subscription whose renewal failed (past_due, in grace); null when none. */
export function paymentTrouble(sub: SubscriptionRow, graceDays: number): PaymentTrouble | null {
  if (sub.status !== PAYMENT_TROUBLE_STATUS) return null;
  return { failingSince: sub.currentPeriodStart, accessUntil: graceEnd(sub, graceDays), nextAttemptAt: sub.nextPaymentAttemptAt };
}

/**
 * `paymentTrouble(sub) !== null` as an SQL condition on a subscription's status column (or the
 * rollup's copy of it): the console's "payment failing" counts and MRR at risk. A literal, so the
 * partial indexes on failing subscriptions (migration 0018) serve it.
 */
export function paymentTroubleSql(status: AnyColumn | SQL): SQL {
  return sql`${status} = ${sqlLiteral(PAYMENT_TROUBLE_STATUS)}`;
}

/**
 * The license follows the subscription: issued when it first gains access (checkout, or the
 * provider's first payment), resized and moved with the paid period (or the grace of a failed
 * payment) while it has access, expired when it ends. Deciding on the transition (seen under the
 * row lock) issues exactly one license even when our checkout and the provider's webhook race.
 */
export function licenseEffects(
  before: SubscriptionRow | undefined,
  after: SubscriptionRow,
  now: Date,
  graceDays: number,
): LicenseEffect[] {
  if (hasAccess(after) && (!before || !hasAccess(before))) {
    const issued: LicenseEffect[] = [{ kind: 'issue', maxNodes: after.quantity, expiresAt: accessUntil(after, graceDays) }];
    // First reported while its payment is failing (a provider's late report): issued in grace.
    if (after.status === 'past_due') issued.push({ kind: 'align', expiresAt: graceEnd(after, graceDays), grace: true });
    return issued;
  }
  const effects: LicenseEffect[] = [];
  if (before && hasAccess(before) && hasAccess(after)) {
    if (after.quantity !== before.quantity) effects.push({ kind: 'resize', maxNodes: after.quantity, lenient: true });
    const until = accessUntil(after, graceDays);
    const inGrace = after.status === 'past_due';
    if (until.getTime() !== accessUntil(before, graceDays).getTime() || inGrace !== (before.status === 'past_due')) {
      effects.push({ kind: 'align', expiresAt: until, grace: inGrace });
    }
  }
  if (after.status === 'canceled' && before && before.status !== 'canceled' && hasAccess(before)) {
    effects.push({ kind: 'expire', at: after.currentPeriodEnd < now ? after.currentPeriodEnd : now });
  }
  return effects;
}

export type TransitionDeps = {
  /** Writes a gateway's answer onto the record (an empty answer writes nothing). */
  applyState(tx: Tx, sub: SubscriptionRow, state: StatePatch): Promise<SubscriptionRow>;
  /** Applies one license effect to the subscription's licenses. */
  applyLicense(tx: Tx, after: SubscriptionRow, effect: LicenseEffect, actor: string): Promise<void>;
  record(tx: Tx, event: AuditEvent): Promise<void>;
  now(): Date;
  graceDays: number;
};

export type TransitionInput = {
  /** Who the activity names: the customer's address, the staff, the provider, the system. */
  actor: string;
  cause: Cause;
};

/**
 * The one way a subscription changes state, whatever asked for it: the new state (a gateway's
 * answer, or a record the provider's report already wrote) → the license's effects and the
 * activity entries, both derived from the record before and after. No use case changes a
 * subscription's license or writes its activity by hand.
 */
export function createTransition(deps: TransitionDeps) {
  return async function transition(
    tx: Tx,
    before: SubscriptionRow | undefined,
    to: StatePatch | SubscriptionRow,
    how: TransitionInput,
  ): Promise<SubscriptionRow> {
    const after = isRow(to) ? to : await deps.applyState(tx, before!, withEndReason(before!, to, how.cause));
    if (after.userId) {
      for (const effect of licenseEffects(before, after, deps.now(), deps.graceDays)) {
        await deps.applyLicense(tx, after, effect, how.actor);
      }
    }
    for (const event of activityOf(before, after, how.actor, how.cause)) await deps.record(tx, event);
    return after;
  };
}
export type Transition = ReturnType<typeof createTransition>;

const isRow = (to: StatePatch | SubscriptionRow): to is SubscriptionRow => 'id' in to && 'providerId' in to;

/** Why a subscription ends, from what ended it (the provider's reports carry their own reason). */
export function endReasonOf(cause: Cause): NonNullable<SubscriptionRow['endedReason']> {
  switch (cause.kind) {
    case 'renewal':
      return cause.endedBecause ?? 'cancelled';
    case 'ended_now':
      return cause.reason ?? 'ended_now';
    default:
      return 'cancelled';
  }
}

/** A patch that ends the subscription records why, once: the reason its source gave, else the cause's. */
function withEndReason(before: SubscriptionRow, patch: StatePatch, cause: Cause): StatePatch {
  if (patch.status !== 'canceled' || before.status === 'canceled') return patch;
  return { ...patch, endedReason: patch.endedReason ?? endReasonOf(cause) };
}
