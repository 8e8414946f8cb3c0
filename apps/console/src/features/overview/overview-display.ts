import type { OverviewDay, OverviewMonth } from '@portal/contract';

/** '2026-03' -> 'Mar 2026' in the reader's locale (a UTC month, never shifted by the time zone). */
export function monthLabel(month: string, locale?: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
}

/** Compact money for chart axes: '$12K', '$1.2M' (cents in, the currency's major unit out). */
export function compactMoney(cents: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(cents / 100);
}

/** '2026-03' -> 'Mar': a month's axis label (the tooltip names the year). */
export function monthTick(month: string, locale?: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/**
 * Every how many labels the axis skips, so the labels shown are evenly spaced and never touch:
 * left to the chart library, it drops the ones that collide and keeps an uneven rest.
 * `points` labels of about `labelPx` each across `widthPx`.
 */
export function tickInterval(points: number, widthPx: number, labelPx: number): number {
  if (points <= 1 || widthPx <= 0) return 0;
  const fit = Math.max(1, Math.floor(widthPx / labelPx));
  return Math.max(0, Math.ceil(points / fit) - 1);
}

export interface ChartRow {
  month: string;
  label: string;
  /** The axis's label: the month alone. */
  tick: string;
  mrr: number;
  revenue: number;
  new: number;
  churned: number;
}

/** The months as the charts plot them: money in the currency's major unit, new and churned side by side. */
export function chartRows(months: readonly OverviewMonth[], locale?: string): ChartRow[] {
  return months.map((m) => ({
    month: m.month,
    label: monthLabel(m.month, locale),
    tick: monthTick(m.month, locale),
    mrr: m.mrr / 100,
    revenue: m.revenue / 100,
    new: m.newSubscriptions,
    churned: m.churnedSubscriptions,
  }));
}

/** Change between the last two months of a series, as a signed percentage (null when there is no base). */
export function monthOverMonth(months: readonly OverviewMonth[], key: 'mrr' | 'revenue'): number | null {
  const last = months.at(-1);
  const before = months.at(-2);
  if (!last || !before || before[key] === 0) return null;
  return ((last[key] - before[key]) / before[key]) * 100;
}

/** '2026-11-03' -> 'Nov 3' in the reader's locale (a UTC day, never shifted by the time zone). */
export function dayLabel(day: string, locale?: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

export interface ValidationRow {
  day: string;
  label: string;
  valid: number;
  refused: number;
}

/** The days as the validations chart stacks them: answered valid, and refused (every other answer). */
export function validationRows(days: readonly OverviewDay[], locale?: string): ValidationRow[] {
  return days.map((d) => ({ day: d.day, label: dayLabel(d.day, locale), valid: d.valid, refused: d.validations - d.valid }));
}
