import { DAY_MS, HOUR_MS, PAYMENT_FAILING_LABEL } from './display';
import { LICENSE_EXPIRING_SOON_DAYS, NODE_STALE_AFTER_HOURS } from './constants';
import type { Subscription } from './billing';
import type { License, LicenseNode } from './licenses';

// The display rules of statuses: the wording and the colour of every status badge, for the portal,
// the console and the server's documents alike. Plain functions and constants only, no zod.

/**
 * What a status means, and so its colour: positive (active, valid, paid) green; warning (cancelling,
 * stale, expiring soon, near a limit) yellow; critical (expired, declined, failed, at a limit) red;
 * neutral (inactive, none) grey; info (a plan, the default card: facts, not states) the accent.
 */
export type StatusTone = 'positive' | 'warning' | 'critical' | 'neutral' | 'info';

/** The kit's colour of each tone (undefined: the accent). */
export const TONE_COLOR: Record<StatusTone, string | undefined> = {
  positive: 'green',
  warning: 'yellow',
  critical: 'red',
  neutral: 'gray',
  info: undefined,
};

/** 'PAST DUE' or 'past_due' -> 'Past due'; text already in mixed case ('Standard', 'ISO ready') is kept. */
export function sentenceCase(label: string): string {
  const words = label.replace(/_/g, ' ').trim();
  if (words === '') return words;
  const shouty = words === words.toUpperCase() || words === words.toLowerCase();
  const rest = shouty ? words.slice(1).toLowerCase() : words.slice(1);
  return words.charAt(0).toUpperCase() + rest;
}

/** Badge colours by meaning only (a state, never decoration), so one colour means one thing everywhere. */
export type StatusColor = 'green' | 'yellow' | 'red' | 'gray';

/** The tone of each colour (the apps' one badge, sentence case). */
const TONE: Record<StatusColor, StatusTone> = { green: 'positive', yellow: 'warning', red: 'critical', gray: 'neutral' };

export type SubscriptionState = 'active' | 'cancelling' | 'past_due' | 'incomplete' | 'ended';

/** Where a subscription stands for the customer, from its provider status and cancellation flag. */
export function subscriptionState(
  s: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>,
  now: Date = new Date(),
): SubscriptionState {
  if (s.status === 'canceled') return 'ended';
  if (s.cancelAtPeriodEnd) return new Date(s.currentPeriodEnd) <= now ? 'ended' : 'cancelling';
  if (s.status === 'past_due') return 'past_due';
  if (s.status === 'incomplete') return 'incomplete';
  return 'active';
}

export const SUBSCRIPTION_BADGE: Record<SubscriptionState, { label: string; color: StatusColor; tone: StatusTone }> = {
  active: { label: 'Active', color: 'green', tone: TONE.green },
  cancelling: { label: 'Cancelled', color: 'yellow', tone: TONE.yellow },
  past_due: { label: 'Payment failed', color: 'red', tone: TONE.red },
  incomplete: { label: 'Awaiting payment', color: 'yellow', tone: TONE.yellow },
  ended: { label: 'Ended', color: 'gray', tone: TONE.gray },
};

/**
 * The badges as the customer sees them: a failing payment says that it is retried (the vendor's
 * console keeps its own wording of the same state).
 */
export const CUSTOMER_SUBSCRIPTION_BADGE: typeof SUBSCRIPTION_BADGE = {
  ...SUBSCRIPTION_BADGE,
  past_due: { ...SUBSCRIPTION_BADGE.past_due, label: PAYMENT_FAILING_LABEL },
};

/** The badge the customer sees for a subscription: an end for non-payment says so. */
export function customerSubscriptionBadge(s: Pick<Subscription, 'endedReason'>, state: SubscriptionState) {
  if (state === 'ended' && s.endedReason === 'unpaid') return { ...SUBSCRIPTION_BADGE.ended, label: 'Ended: not paid' };
  return CUSTOMER_SUBSCRIPTION_BADGE[state];
}

function invoiceColor(status: string): { label: string; color: StatusColor } {
  switch (status) {
    case 'paid':
      return { label: 'Paid', color: 'green' };
    case 'open':
      return { label: 'Unpaid', color: 'yellow' };
    case 'uncollectible':
      return { label: 'Uncollectible', color: 'red' };
    case 'void':
      return { label: 'Void', color: 'gray' };
    case 'draft':
      return { label: 'Draft', color: 'gray' };
    default:
      return { label: status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' '), color: 'gray' };
  }
}

export function invoiceBadge(status: string): { label: string; color: StatusColor; tone: StatusTone } {
  const b = invoiceColor(status);
  return { ...b, tone: TONE[b.color] };
}

/** '04/2031' */
export function expiryLabel(expMonth: number, expYear: number): string {
  return `${String(expMonth).padStart(2, '0')}/${expYear}`;
}

/** A card expires at the end of its expiry month. */
export function cardExpired(expMonth: number, expYear: number, now: Date = new Date()): boolean {
  return expYear * 12 + expMonth - 1 < now.getFullYear() * 12 + now.getMonth();
}

/**
 * License status badges by meaning: green active, red expired, and red suspended too: a suspended
 * license validates no machine, an alarm for its owner, not the grey of what simply ended.
 */
export const LICENSE_STATUS_BADGE: Record<License['status'], { label: string; color: string }> = {
  active: { label: 'Active', color: 'green' },
  expired: { label: 'Expired', color: 'red' },
  suspended: { label: 'Suspended', color: 'red' },
};

export type ExpiryLevel = 'expired' | 'soon' | 'later';

/** 'expired' once the end has passed (or the server says so), 'soon' within LICENSE_EXPIRING_SOON_DAYS. */
export function expiryLevel(license: Pick<License, 'expiresAt' | 'status'>, now: Date = new Date()): ExpiryLevel {
  const left = new Date(license.expiresAt).getTime() - now.getTime();
  if (license.status === 'expired' || left <= 0) return 'expired';
  if (left <= LICENSE_EXPIRING_SOON_DAYS * DAY_MS) return 'soon';
  return 'later';
}

/** A node not seen for more than NODE_STALE_AFTER_HOURS hours. */
export function isStale(node: Pick<LicenseNode, 'lastSeenAt'>, now: Date = new Date()): boolean {
  return now.getTime() - new Date(node.lastSeenAt).getTime() > NODE_STALE_AFTER_HOURS * HOUR_MS;
}

/**
 * A node's health badge: its license decides first (a node of a suspended or expired license fails
 * every validation, however recently it asked), then its last validation (stale or healthy).
 */
export function nodeHealth(
  node: Pick<LicenseNode, 'lastSeenAt'>,
  licenseStatus: License['status'] | undefined,
  now: Date = new Date(),
): { label: string; tone: StatusTone } {
  if (licenseStatus === 'suspended') return { label: 'License suspended', tone: 'critical' };
  if (licenseStatus === 'expired') return { label: 'License expired', tone: 'critical' };
  return isStale(node, now) ? { label: 'Stale', tone: 'warning' } : { label: 'Healthy', tone: 'positive' };
}
