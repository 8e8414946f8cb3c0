import { describe, expect, it } from 'vitest';
import { dayLabel, validationRows } from './overview-display';

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
