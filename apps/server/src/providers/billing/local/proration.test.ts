import { describe, expect, it } from 'vitest';
import {
  addIntervals,
  applyBalance,
  daysInMonth,
  fullPeriod,
  intervalChange,
  nextPeriodEnd,
  prorate,
  quantityChange,
} from './proration';

const d = (s: string) => new Date(s);
const DAY = 86_400_000;

/** A seeded generator (mulberry32): many cases, the same ones on every run. */
function random(seed: number) {
  let a = seed;
  return (max: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

describe('calendar arithmetic', () => {
  it.each([
    ['2025-01-31T10:00:00.000Z', 'month', 1, '2025-02-28T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', 'month', 1, '2024-02-29T10:00:00.000Z'],
    ['2025-01-30T00:00:00.000Z', 'month', 1, '2025-02-28T00:00:00.000Z'],
    ['2025-03-31T23:59:59.000Z', 'month', 1, '2025-04-30T23:59:59.000Z'],
    ['2025-12-31T12:00:00.000Z', 'month', 1, '2026-01-31T12:00:00.000Z'],
    ['2025-01-31T00:00:00.000Z', 'month', 2, '2025-03-31T00:00:00.000Z'],
    ['2025-01-31T00:00:00.000Z', 'month', 13, '2026-02-28T00:00:00.000Z'],
    ['2024-02-29T08:30:00.000Z', 'year', 1, '2025-02-28T08:30:00.000Z'],
    ['2024-02-29T08:30:00.000Z', 'year', 4, '2028-02-29T08:30:00.000Z'],
    ['2023-03-15T00:00:00.000Z', 'year', 1, '2024-03-15T00:00:00.000Z'],
  ] as const)('%s + %s x%i = %s', (start, interval, n, expected) => {
    expect(addIntervals(d(start), interval, n).toISOString()).toBe(expected);
  });

  it('knows leap years', () => {
    expect(daysInMonth(2024, 1)).toBe(29);
    expect(daysInMonth(2025, 1)).toBe(28);
    expect(daysInMonth(2000, 1)).toBe(29);
    expect(daysInMonth(1900, 1)).toBe(28);
  });

  it('keeps a month-end anchor instead of drifting to the 28th', () => {
    const anchor = d('2025-01-31T09:00:00.000Z');
    const ends: string[] = [];
    let end = anchor;
    for (let i = 0; i < 5; i++) {
      end = nextPeriodEnd(anchor, 'month', end);
      ends.push(end.toISOString().slice(0, 10));
    }
    expect(ends).toEqual(['2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31', '2025-06-30']);
  });

  it('returns to Feb 29 in the next leap year for a yearly anchor on Feb 29', () => {
    const anchor = d('2024-02-29T00:00:00.000Z');
    expect(nextPeriodEnd(anchor, 'year', d('2027-02-28T00:00:00.000Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(nextPeriodEnd(anchor, 'year', d('2024-02-29T00:00:00.000Z')).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  it('finds the next boundary after any instant, for any anchor', () => {
    const rnd = random(7);
    const from = d('2000-01-01').getTime();
    for (let i = 0; i < 2000; i++) {
      const anchor = new Date(from + rnd(90 * 365) * DAY + rnd(DAY));
      const after = new Date(anchor.getTime() + rnd(400 * DAY));
      const interval = rnd(2) === 0 ? 'month' : 'year';
      const end = nextPeriodEnd(anchor, interval, after);
      expect(end.getTime()).toBeGreaterThan(after.getTime());
      // No boundary is skipped: the one before is not after `after`.
      let n = 1;
      while (addIntervals(anchor, interval, n).getTime() !== end.getTime()) n++;
      if (n > 1) expect(addIntervals(anchor, interval, n - 1).getTime()).toBeLessThanOrEqual(after.getTime());
    }
  });
});

describe('prorate (integer minor units)', () => {
  it('rounds half up on whole seconds', () => {
    expect(prorate(2500, 15 * DAY, 30 * DAY)).toBe(1250);
    expect(prorate(1, 1000, 2000)).toBe(1);
    expect(prorate(1, 1000, 3000)).toBe(0);
    expect(prorate(2, 1000, 3000)).toBe(1);
    // Milliseconds below a whole second do not count.
    expect(prorate(1000, 1999, 4000)).toBe(250);
  });

  it('clamps to the whole amount and to zero', () => {
    expect(prorate(2500, 40 * DAY, 30 * DAY)).toBe(2500);
    expect(prorate(2500, -5, 30 * DAY)).toBe(0);
    expect(prorate(2500, 10, 0)).toBe(0);
  });

  it('stays exact where floating point would not (products beyond 2^53)', () => {
    const amount = 99 * 2_500_000;
    const whole = 366 * DAY;
    const part = whole - 1000;
    const exact = (2n * BigInt(amount) * BigInt(part / 1000) + BigInt(whole / 1000)) / (2n * BigInt(whole / 1000));
    expect(prorate(amount, part, whole)).toBe(Number(exact));
  });

  it('is between 0 and the amount, within half a unit of the exact value, and grows with the time left', () => {
    const rnd = random(11);
    for (let i = 0; i < 5000; i++) {
      const amount = rnd(10_000_001);
      const wholeS = 1 + rnd(400 * 86_400);
      const partS = rnd(wholeS + 1);
      const v = prorate(amount, partS * 1000, wholeS * 1000);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(amount);
      expect(Math.abs(v - (amount * partS) / wholeS)).toBeLessThanOrEqual(0.5);
      expect(prorate(amount, Math.min(wholeS, partS + 1) * 1000, wholeS * 1000)).toBeGreaterThanOrEqual(v);
    }
  });
});

describe('quantity change', () => {
  const base = { plan: 'Node license', interval: 'month' as const, unitAmount: 2500 };

  it('charges exactly the difference at the start of the period', () => {
    const r = quantityChange({
      ...base,
      oldQuantity: 1,
      newQuantity: 2,
      periodStart: d('2025-03-01T00:00:00Z'),
      periodEnd: d('2025-04-01T00:00:00Z'),
      now: d('2025-03-01T00:00:00Z'),
    });
    expect(r.lines.map((l) => l.amount)).toEqual([-2500, 5000]);
    expect(r.subtotal).toBe(2500);
  });

  it('prorates half of a 28-day February (common year)', () => {
    const r = quantityChange({
      ...base,
      oldQuantity: 1,
      newQuantity: 3,
      periodStart: d('2025-02-01T00:00:00Z'),
      periodEnd: d('2025-03-01T00:00:00Z'),
      now: d('2025-02-15T00:00:00Z'),
    });
    // 14 of 28 days left: credit 2500 x 1/2, charge 7500 x 1/2.
    expect(r.lines.map((l) => l.amount)).toEqual([-1250, 3750]);
    expect(r.subtotal).toBe(2500);
    expect(r.periodStart.toISOString()).toBe('2025-02-15T00:00:00.000Z');
  });

  it('prorates a 29-day February (leap year)', () => {
    const r = quantityChange({
      ...base,
      oldQuantity: 1,
      newQuantity: 3,
      periodStart: d('2024-02-01T00:00:00Z'),
      periodEnd: d('2024-03-01T00:00:00Z'),
      now: d('2024-02-15T00:00:00Z'),
    });
    // 15 of 29 days left: 2500 x 15/29 = 1293.10 -> 1293; 7500 x 15/29 = 3879.31 -> 3879.
    expect(r.lines.map((l) => l.amount)).toEqual([-1293, 3879]);
    expect(r.subtotal).toBe(2586);
  });

  it('prorates a month-end period (Jan 31 -> Feb 28)', () => {
    const r = quantityChange({
      ...base,
      oldQuantity: 2,
      newQuantity: 1,
      periodStart: d('2025-01-31T00:00:00Z'),
      periodEnd: d('2025-02-28T00:00:00Z'),
      now: d('2025-02-21T00:00:00Z'),
    });
    // 7 of 28 days left: credit 5000/4 = 1250, charge 2500/4 = 625: a credit of 625.
    expect(r.lines.map((l) => l.amount)).toEqual([-1250, 625]);
    expect(r.subtotal).toBe(-625);
  });

  it('prorates a leap-year yearly period by its 366 days', () => {
    const r = quantityChange({
      plan: 'P',
      interval: 'year',
      unitAmount: 25000,
      oldQuantity: 1,
      newQuantity: 2,
      periodStart: d('2024-01-01T00:00:00Z'),
      periodEnd: d('2025-01-01T00:00:00Z'),
      now: d('2024-07-01T00:00:00Z'),
    });
    // 184 of 366 days left: 25000 x 184/366 = 12568.31 -> 12568; 50000 x 184/366 = 25136.61 -> 25137.
    expect(r.lines.map((l) => l.amount)).toEqual([-12568, 25137]);
    expect(r.subtotal).toBe(12569);
  });
});

describe('interval switch', () => {
  it('credits the unused month and charges a full year from now', () => {
    const r = intervalChange({
      plan: 'Node license',
      quantity: 2,
      oldInterval: 'month',
      oldUnitAmount: 2500,
      newInterval: 'year',
      newUnitAmount: 25000,
      periodStart: d('2025-01-31T00:00:00Z'),
      periodEnd: d('2025-02-28T00:00:00Z'),
      now: d('2025-02-14T00:00:00Z'),
    });
    expect(r.lines.map((l) => l.amount)).toEqual([-2500, 50000]);
    expect(r.subtotal).toBe(47500);
    expect(r.periodStart.toISOString()).toBe('2025-02-14T00:00:00.000Z');
    expect(r.periodEnd.toISOString()).toBe('2026-02-14T00:00:00.000Z');
  });

  it('turns a yearly-to-monthly switch into account credit, not a charge', () => {
    const r = intervalChange({
      plan: 'Node license',
      quantity: 1,
      oldInterval: 'year',
      oldUnitAmount: 25000,
      newInterval: 'month',
      newUnitAmount: 2500,
      periodStart: d('2024-02-29T00:00:00Z'),
      periodEnd: d('2025-02-28T00:00:00Z'),
      now: d('2024-08-29T00:00:00Z'),
    });
    // 183 of 365 days left: 25000 x 183/365 = 12534.25 -> 12534.
    expect(r.lines.map((l) => l.amount)).toEqual([-12534, 2500]);
    expect(r.periodEnd.toISOString()).toBe('2024-09-29T00:00:00.000Z');
    expect(applyBalance(r.subtotal, 0)).toEqual({ amountDue: 0, creditApplied: 0, creditAdded: 10034 });
  });
});

describe('account credit', () => {
  it('uses credit before the card, and keeps the rest', () => {
    expect(applyBalance(5000, 1200)).toEqual({ amountDue: 3800, creditApplied: 1200, creditAdded: 0 });
    expect(applyBalance(5000, 9000)).toEqual({ amountDue: 0, creditApplied: 5000, creditAdded: 0 });
    expect(applyBalance(5000, 0)).toEqual({ amountDue: 5000, creditApplied: 0, creditAdded: 0 });
    expect(applyBalance(-300, 50)).toEqual({ amountDue: 0, creditApplied: 0, creditAdded: 300 });
  });

  it('bills a whole period at quantity x price', () => {
    const r = fullPeriod({
      plan: 'P',
      interval: 'year',
      unitAmount: 25000,
      quantity: 3,
      periodStart: d('2025-01-01'),
      periodEnd: d('2026-01-01'),
    });
    expect(r.subtotal).toBe(75000);
    expect(r.lines).toHaveLength(1);
  });
});
