import { type Interval, type Price, type Subscription } from '@portal/contract';
import { PAGES } from '../../lib/pages';
import type { SubscriptionModalProps } from '../../lib/state/menu-slice';

/** The search parameter of /app/billing that opens the dialog paying a subscription's open invoice. */
export const PAY_PARAM = 'pay';

/** Where a failing payment is paid: the billing page with its pay dialog open. */
export const payPath = (stripeId: string) => `${PAGES.billing.path}?${PAY_PARAM}=${encodeURIComponent(stripeId)}`;

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
