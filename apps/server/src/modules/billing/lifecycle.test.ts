import { describe as group, expect, it } from 'vitest';
import { toAuditEntry } from '../audit/audit-events';
import type { SubscriptionRow } from './billing.repository';
import { endedNow, mayChange } from './lifecycle';
import { activityOf, licenseEffects as effectsWithGrace } from './transition';

const GRACE_DAYS = 14;
const licenseEffects = (before: SubscriptionRow | undefined, after: SubscriptionRow, now: Date) =>
  effectsWithGrace(before, after, now, GRACE_DAYS);
const providerActivity = (before: SubscriptionRow | undefined, after: SubscriptionRow, actor: string) =>
  activityOf(before, after, actor, { kind: 'provider' });

const NOW = new Date('2026-11-24T12:00:00Z');
const LATER = new Date('2026-12-24T12:00:00Z');
const EARLIER = new Date('2026-10-24T12:00:00Z');

function sub(over: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    providerId: 'sub_1',
    userId: '00000000-0000-4000-8000-000000000002',
    provider: 'local',
    status: 'active',
    plan: 'Standard',
    quantity: 3,
    interval: 'month',
    unitAmount: 2500,
    currency: 'usd',
    paymentMethodId: 'pm_1',
    currentPeriodStart: EARLIER,
    currentPeriodEnd: LATER,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedReason: null,
    nextPaymentAttemptAt: null,
    checkoutKey: null,
    createdAt: EARLIER,
    updatedAt: EARLIER,
    ...over,
  };
}

group('mayChange', () => {
  it('lets a running subscription change its quantity and interval', () => {
    expect(mayChange(sub(), { kind: 'quantity', quantity: 4 }, NOW)).toBe(true);
    expect(mayChange(sub(), { kind: 'interval', interval: 'year' }, NOW)).toBe(true);
  });

  it('refuses a change that changes nothing, with the message the customer sees', () => {
    expect(() => mayChange(sub(), { kind: 'quantity', quantity: 3 }, NOW)).toThrow(
      'Quantity must be different from the current one',
    );
    expect(() => mayChange(sub(), { kind: 'interval', interval: 'month' }, NOW)).toThrow('already billed monthly');
  });

  it('asks for the open invoice first while past_due, and for the first payment while incomplete', () => {
    expect(() => mayChange(sub({ status: 'past_due' }), { kind: 'quantity', quantity: 4 }, NOW)).toThrow(/open invoice/);
    expect(() => mayChange(sub({ status: 'incomplete' }), { kind: 'interval', interval: 'year' }, NOW)).toThrow(/first payment/);
    expect(() => mayChange(sub({ status: 'incomplete' }), { kind: 'cancel' }, NOW)).toThrow(/first payment/);
  });

  it('needs a cancelled subscription re-activated before it is changed', () => {
    const cancelling = sub({ cancelAtPeriodEnd: true });
    expect(() => mayChange(cancelling, { kind: 'quantity', quantity: 4 }, NOW)).toThrow(/Re-activate it/);
    expect(mayChange(cancelling, { kind: 'cancel' }, NOW)).toBe(false);
    expect(mayChange(cancelling, { kind: 'reactivate' }, NOW)).toBe(true);
    expect(mayChange(sub(), { kind: 'reactivate' }, NOW)).toBe(false);
  });

  it('changes nothing once the subscription has ended, including a cancellation whose period is over', () => {
    for (const ended of [sub({ status: 'canceled' }), sub({ cancelAtPeriodEnd: true, currentPeriodEnd: EARLIER })]) {
      expect(() => mayChange(ended, { kind: 'quantity', quantity: 4 }, NOW)).toThrow(/has ended/);
      expect(() => mayChange(ended, { kind: 'cancel' }, NOW)).toThrow(/has ended/);
      expect(() => mayChange(ended, { kind: 'reactivate' }, NOW)).toThrow(/can no longer be re-activated/);
    }
  });
});

group('licenseEffects', () => {
  it('issues the license when the subscription first gains access, once', () => {
    expect(licenseEffects(undefined, sub(), NOW)).toEqual([{ kind: 'issue', maxNodes: 3, expiresAt: LATER }]);
    expect(licenseEffects(sub({ status: 'incomplete' }), sub(), NOW)).toEqual([{ kind: 'issue', maxNodes: 3, expiresAt: LATER }]);
    expect(licenseEffects(undefined, sub({ status: 'incomplete' }), NOW)).toEqual([]);
  });

  it('resizes and moves the end with the paid period while access lasts', () => {
    const next = new Date('2027-01-24T12:00:00Z');
    expect(licenseEffects(sub(), sub({ quantity: 5, currentPeriodEnd: next }), NOW)).toEqual([
      { kind: 'resize', maxNodes: 5, lenient: true },
      { kind: 'align', expiresAt: next, grace: false },
    ]);
  });

  it('keeps the license valid through the grace of a failed renewal, and back to the paid period once paid', () => {
    const next = new Date('2027-01-24T12:00:00Z');
    const graceEnd = new Date(LATER.getTime() + GRACE_DAYS * 86_400_000);
    const failed = sub({ status: 'past_due', currentPeriodStart: LATER, currentPeriodEnd: next });
    expect(licenseEffects(sub(), failed, NOW)).toEqual([{ kind: 'align', expiresAt: graceEnd, grace: true }]);
    // Retries that fail again change nothing; the payment of the open invoice restores the paid period.
    expect(licenseEffects(failed, failed, NOW)).toEqual([]);
    expect(licenseEffects(failed, { ...failed, status: 'active' }, NOW)).toEqual([
      { kind: 'align', expiresAt: next, grace: false },
    ]);
    // The grace ran out unpaid: the subscription ends and the license with it, now.
    const afterGrace = new Date(graceEnd.getTime() + 1000);
    expect(licenseEffects(failed, { ...failed, status: 'canceled' }, afterGrace)).toEqual([{ kind: 'expire', at: afterGrace }]);
  });

  it('expires the license when the subscription ends: now, or at a period end already past', () => {
    expect(licenseEffects(sub(), sub({ status: 'canceled' }), NOW)).toEqual([{ kind: 'expire', at: NOW }]);
    expect(licenseEffects(sub(), sub({ status: 'canceled', currentPeriodEnd: EARLIER }), NOW)).toEqual([
      { kind: 'expire', at: EARLIER },
    ]);
    expect(licenseEffects(sub({ status: 'canceled' }), sub({ status: 'canceled' }), NOW)).toEqual([]);
  });
});

it('ends a subscription now without moving a period end that has already passed', () => {
  expect(endedNow(sub(), NOW)).toEqual({ status: 'canceled', cancelAtPeriodEnd: false, canceledAt: NOW, currentPeriodEnd: NOW });
  expect(endedNow(sub({ currentPeriodEnd: EARLIER }), NOW).currentPeriodEnd).toEqual(EARLIER);
});

it('words what a provider changed on its own as the activity log shows it', () => {
  const next = new Date('2027-01-24T12:00:00Z');
  const summaries = (before: SubscriptionRow | undefined, after: SubscriptionRow) =>
    providerActivity(before, after, 'stripe').map((e) => toAuditEntry(e).summary);
  expect(summaries(undefined, sub())).toEqual(['Subscribed to 3 × Standard (monthly)']);
  expect(summaries(sub(), sub({ quantity: 4, currentPeriodEnd: next }))).toEqual([
    'Changed the quantity from 3 to 4',
    'Renewed 4 × Standard (monthly) until January 24, 2027',
  ]);
  expect(summaries(sub(), sub({ interval: 'year', cancelAtPeriodEnd: true }))).toEqual([
    'Changed billing from monthly to yearly',
    'Cancelled 3 × Standard (yearly); it ends on December 24, 2026',
  ]);
  expect(summaries(sub({ cancelAtPeriodEnd: true }), sub())).toEqual(['Re-activated 3 × Standard (monthly)']);
  expect(summaries(sub(), sub({ status: 'canceled' }))).toEqual(['Ended 3 × Standard (monthly)']);
  expect(providerActivity(sub(), sub({ userId: null }), 'stripe')).toEqual([]);
});
