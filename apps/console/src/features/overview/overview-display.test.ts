import { describe, expect, it } from 'vitest';
import { chartRows, dayLabel, tickInterval, validationRows } from './overview-display';

describe('validationRows', () => {
  it('stacks valid and refused answers per UTC day', () => {
    expect(validationRows([{ day: '2026-11-03', validations: 120, valid: 100 }], 'en-US')).toEqual([
      { day: '2026-11-03', label: 'Nov 3', valid: 100, refused: 20 },
    ]);
  });

  it('labels a day without moving it into the reader’s time zone', () => {
    expect(dayLabel('2026-01-01', 'en-US')).toBe('Jan 1');
    expect(dayLabel('not-a-day')).toBe('not-a-day');
  });
});

describe('chartRows', () => {
  it('plots new and churned subscriptions as two bars side by side, both counted up', () => {
    const [row] = chartRows(
      [{ month: '2026-03', mrr: 35000, revenue: 0, newSubscriptions: 4, churnedSubscriptions: 1 }],
      'en-US',
    );
    expect(row).toMatchObject({ label: 'Mar 2026', tick: 'Mar', mrr: 350, new: 4, churned: 1 });
  });
});

describe('tickInterval', () => {
  it('shows every label when they fit, else every second or third, evenly', () => {
    // 12 months of 48 px labels: all on a laptop's wide chart, every third on a phone's.
    expect(tickInterval(12, 860, 48)).toBe(0);
    expect(tickInterval(12, 400, 48)).toBe(1);
    expect(tickInterval(12, 260, 48)).toBe(2);
    // 30 days on a phone: every eighth.
    expect(tickInterval(30, 260, 56)).toBe(7);
  });

  it('has nothing to skip for one point or before the chart is measured', () => {
    expect(tickInterval(1, 100, 48)).toBe(0);
    expect(tickInterval(12, 0, 48)).toBe(0);
  });
});
