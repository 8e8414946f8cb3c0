import type { Interval } from '@portal/contract';
import type { InvoiceLine } from '../../../db/schema/index';

/*
 * Billing periods and prorations of the local billing engine, in integer minor units (cents).
 *
 * Periods: calendar arithmetic in UTC from a fixed anchor (the instant the subscription started or
 * last switched interval). The n-th period ends at anchor + n months (or years) with the day clamped
 * to the last day of a shorter month, so an anchor of Jan 31 gives Feb 28 (Feb 29 in a leap year),
 * then Mar 31, Apr 30, ... - the anchor's day comes back instead of drifting to the 28th, as Stripe
 * does with its billing cycle anchor. A yearly anchor of Feb 29 ends on Feb 28 in common years.
 *
 * Prorations follow Stripe's model: a change credits the unused time of what was paid and charges
 * the remaining time of what replaces it, each amount = price x remaining / period length, measured
 * in whole seconds, rounded half up to a whole minor unit, each line rounded on its own. Products of
 * a price and a duration exceed 2^53, so the division runs on BigInt.
 */

const pad = (n: number) => String(n).padStart(2, '0');

export function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** anchor + n intervals, day clamped to the end of a shorter month; the time of day is kept. */
export function addIntervals(anchor: Date, interval: Interval, n: number): Date {
  const months = anchor.getUTCMonth() + (interval === 'month' ? n : 12 * n);
  const year = anchor.getUTCFullYear() + Math.floor(months / 12);
  const month0 = ((months % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month0));
  return new Date(
    Date.UTC(
      year,
      month0,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The first period boundary of `anchor`'s schedule strictly after `after`. */
export function nextPeriodEnd(anchor: Date, interval: Interval, after: Date): Date {
  if (after < anchor) return addIntervals(anchor, interval, 1);
  // Jump close to the answer, then step: a loop from 1 would walk centuries for an old anchor.
  const monthsApart = (after.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (after.getUTCMonth() - anchor.getUTCMonth());
  let n = Math.max(1, interval === 'month' ? monthsApart - 1 : Math.floor(monthsApart / 12) - 1);
  for (let guard = 0; guard < 5; guard++, n++) {
    const end = addIntervals(anchor, interval, n);
    if (end > after) return end;
  }
  throw new Error('nextPeriodEnd did not converge');
}

/** round_half_up(amount x part / whole) with part and whole in whole seconds. */
export function prorate(amount: number, partMs: number, wholeMs: number): number {
  const whole = BigInt(Math.floor(wholeMs / 1000));
  const part = BigInt(Math.max(0, Math.min(Math.floor(partMs / 1000), Number(whole))));
  if (whole <= 0n) return 0;
  const a = BigInt(amount);
  const sign = a < 0n ? -1n : 1n;
  const abs = a * sign;
  return Number(sign * ((2n * abs * part + whole) / (2n * whole)));
}

export type ProrationResult = {
  lines: InvoiceLine[];
  /** Sum of the lines; negative when the change is worth less than the unused time. */
  subtotal: number;
  /** The period the invoice covers (for an interval switch, also the new billing period). */
  periodStart: Date;
  periodEnd: Date;
};

const iso = (d: Date) => d.toISOString();
const ly = (interval: Interval) => `${interval}ly`;
const line = (description: string, quantity: number, unitAmount: number, amount: number, from: Date, to: Date): InvoiceLine => ({
  description,
  quantity,
  unitAmount,
  amount,
  periodStart: iso(from),
  periodEnd: iso(to),
});

/** The current period and the moment of a change. */
type PeriodAt = { periodStart: Date; periodEnd: Date; now: Date };

/** What is left of the period from `now` (from its start, if it has not begun), in ms of its whole length. */
function periodLeft(p: PeriodAt) {
  const from = p.now < p.periodStart ? p.periodStart : p.now;
  return { from, remaining: p.periodEnd.getTime() - from.getTime(), total: p.periodEnd.getTime() - p.periodStart.getTime() };
}

/** Quantity change in the middle of a period: the period stays, the price per node stays. */
export function quantityChange(
  p: PeriodAt & { plan: string; interval: Interval; unitAmount: number; oldQuantity: number; newQuantity: number },
): ProrationResult {
  const { from, remaining, total } = periodLeft(p);
  const credit = -prorate(p.unitAmount * p.oldQuantity, remaining, total);
  const charge = prorate(p.unitAmount * p.newQuantity, remaining, total);
  const lines: InvoiceLine[] = [
    line(
      `Unused time on ${p.oldQuantity} × ${p.plan} (${ly(p.interval)})`,
      p.oldQuantity,
      p.unitAmount,
      credit,
      from,
      p.periodEnd,
    ),
    line(
      `Remaining time on ${p.newQuantity} × ${p.plan} (${ly(p.interval)})`,
      p.newQuantity,
      p.unitAmount,
      charge,
      from,
      p.periodEnd,
    ),
  ];
  return { lines, subtotal: credit + charge, periodStart: from, periodEnd: p.periodEnd };
}

/**
 * Interval switch: as on Stripe, the billing period restarts now. The unused time of the old
 * period is credited and a full new period is charged at the new interval's price.
 */
export function intervalChange(
  p: PeriodAt & {
    plan: string;
    quantity: number;
    oldInterval: Interval;
    oldUnitAmount: number;
    newInterval: Interval;
    newUnitAmount: number;
  },
): ProrationResult {
  const { from, remaining, total } = periodLeft(p);
  const credit = -prorate(p.oldUnitAmount * p.quantity, remaining, total);
  const newEnd = addIntervals(from, p.newInterval, 1);
  const charge = p.newUnitAmount * p.quantity;
  const lines: InvoiceLine[] = [
    line(
      `Unused time on ${p.quantity} × ${p.plan} (${ly(p.oldInterval)})`,
      p.quantity,
      p.oldUnitAmount,
      credit,
      from,
      p.periodEnd,
    ),
    line(`${p.quantity} × ${p.plan} (${ly(p.newInterval)})`, p.quantity, p.newUnitAmount, charge, from, newEnd),
  ];
  return { lines, subtotal: credit + charge, periodStart: from, periodEnd: newEnd };
}

/** A whole period at the regular price (checkout, renewal). */
export function fullPeriod(p: {
  plan: string;
  interval: Interval;
  unitAmount: number;
  quantity: number;
  periodStart: Date;
  periodEnd: Date;
}): ProrationResult {
  const amount = p.unitAmount * p.quantity;
  return {
    lines: [line(`${p.quantity} × ${p.plan} (${ly(p.interval)})`, p.quantity, p.unitAmount, amount, p.periodStart, p.periodEnd)],
    subtotal: amount,
    periodStart: p.periodStart,
    periodEnd: p.periodEnd,
  };
}

/**
 * Account credit, as on Stripe: a negative subtotal is not refunded but kept as credit that later
 * invoices use first. `balance` is the credit available (>= 0).
 */
export function applyBalance(
  subtotal: number,
  balance: number,
): { amountDue: number; creditApplied: number; creditAdded: number } {
  if (subtotal < 0) return { amountDue: 0, creditApplied: 0, creditAdded: -subtotal };
  const creditApplied = Math.min(Math.max(0, balance), subtotal);
  return { amountDue: subtotal - creditApplied, creditApplied, creditAdded: 0 };
}

/** A UTC calendar date for descriptions and e-mails (2025-03-31). */
export const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
