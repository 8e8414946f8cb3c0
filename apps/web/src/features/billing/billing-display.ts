import { PAYMENT_FAILING_LABEL, type Interval, type Price, type Subscription } from '@portal/contract';
import type { StatusTone } from '../../components/status-badge';
import { PAGES } from '../../lib/pages';
import type { SubscriptionModalProps } from '../../lib/state/menu-slice';

/** Badge colours by meaning only (a state, never decoration), so one colour means one thing everywhere. */
export type StatusColor = 'green' | 'yellow' | 'red' | 'gray';

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

/** The shared badge's tone of each colour (the app's one badge, sentence case). */
const TONE: Record<StatusColor, StatusTone> = { green: 'positive', yellow: 'warning', red: 'critical', gray: 'neutral' };

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

/** The search parameter of /app/billing that opens the dialog paying a subscription's open invoice. */
export const PAY_PARAM = 'pay';

/** Where a failing payment is paid: the billing page with its pay dialog open. */
export const payPath = (stripeId: string) => `${PAGES.billing.path}?${PAY_PARAM}=${encodeURIComponent(stripeId)}`;

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

/** The price of `quantity` nodes for one period, in minor units. */
export function periodTotal(price: Price, interval: Interval, quantity: number): number {
  return (interval === 'month' ? price.monthUnitAmount : price.yearUnitAmount) * quantity;
}

/** What paying yearly saves over twelve monthly payments, in minor units and percent (0 when nothing). */
export function yearlySaving(price: Price, quantity: number): { amount: number; percent: number } {
  const twelveMonths = price.monthUnitAmount * 12 * quantity;
  const amount = Math.max(0, twelveMonths - price.yearUnitAmount * quantity);
  return { amount, percent: twelveMonths > 0 ? Math.round((amount / twelveMonths) * 100) : 0 };
}

/** The date one period after `from` (the first renewal of a subscription bought now). */
export function addInterval(from: Date, interval: Interval): Date {
  const d = new Date(from);
  if (interval === 'month') d.setMonth(d.getMonth() + 1);
  else d.setFullYear(d.getFullYear() + 1);
  return d;
}

/** The props the four subscription modals are shown with. */
export function toModalProps(s: Subscription): SubscriptionModalProps {
  return {
    stripeId: s.stripeId,
    plan: s.plan,
    quantity: s.quantity,
    interval: s.interval,
    currentPeriodEnd: s.currentPeriodEnd,
    unitAmount: s.unitAmount,
    currency: s.currency,
  };
}

/** Reads props of unknown origin (hand-made, or from an older page) back, with safe fallbacks. */
export function fromModalProps(p: Partial<Record<keyof SubscriptionModalProps, unknown>>): SubscriptionModalProps {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    stripeId: text(p.stripeId),
    plan: text(p.plan),
    quantity: num(p.quantity),
    interval: p.interval === 'year' ? 'year' : 'month',
    currentPeriodEnd: text(p.currentPeriodEnd),
    unitAmount: num(p.unitAmount),
    currency: text(p.currency) || 'usd',
  };
}
