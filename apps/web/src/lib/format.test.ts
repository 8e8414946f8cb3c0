import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatMoney, formatRelative } from './format';

describe('format', () => {
  it('formats dates in the given locale', () => expect(formatDate('2025-03-04T10:00:00Z', 'en-US')).toBe('Mar 4, 2025'));
  it('formats money from minor units', () => {
    expect(formatMoney(123456, 'usd', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(500, 'JPY', 'en-US')).toBe('¥500');
  });
  it('formats sizes in human units', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 B');
    expect(formatBytes(1_500_000_000, 'en-US')).toBe('1.5 GB');
  });
  it('formats relative times', () => {
    const now = new Date('2025-03-04T10:00:00Z');
    expect(formatRelative('2025-03-04T09:57:00Z', now, 'en-US')).toBe('3 minutes ago');
    expect(formatRelative('2025-03-06T10:00:00Z', now, 'en-US')).toBe('in 2 days');
  });
});
