import { afterEach, describe, expect, it, vi } from 'vitest';
import { intervalLabel as formatInterval } from './display';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatDocumentDate,
  formatMoney,
  formatRelative,
  localizeDates,
  warmUpFormatters,
} from './format';

describe('format', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes the date formatter ahead of time, and formatting a date later makes none', () => {
    const Real = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function make(...args) {
      return new Real(...args);
    });
    warmUpFormatters('en-CA');
    expect(made).toHaveBeenCalledTimes(1);
    expect(formatDate('2026-12-24T12:00:00Z', 'en-CA')).toBe('Dec 24, 2026');
    expect(made).toHaveBeenCalledTimes(1);
  });
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

  it('formats every date in one style, in the locale given', () => {
    expect(formatDate('2026-12-24T12:00:00Z', 'en-US')).toBe('Dec 24, 2026');
    expect(formatDate(new Date('2026-12-24T12:00:00Z'), 'en-GB')).toBe('24 Dec 2026');
    expect(formatDate('2026-12-24T12:00:00Z', 'de-DE')).toBe('24.12.2026');
    expect(formatDateTime('2026-12-24T12:00:00Z', 'en-US')).toMatch(/^Dec 24, 2026/);
  });
  it("writes a document's date as the UTC day with the month spelled out, which the pages read back", () => {
    // Late on the 24th in New York is already the 25th in UTC: a document says the UTC day.
    expect(formatDocumentDate('2026-12-25T03:00:00Z')).toBe('December 25, 2026');
    expect(formatDocumentDate(new Date('2026-12-24T23:59:59Z'))).toBe('December 24, 2026');
    expect(localizeDates(`ends on ${formatDocumentDate('2026-12-24T12:00:00Z')}`, 'en-GB')).toBe('ends on 24 Dec 2026');
  });
  it('rewrites the dates inside a server-written sentence in that same style', () => {
    expect(localizeDates('Issued license ABCD for 3 nodes, valid until 2026-12-24', 'en-US')).toBe(
      'Issued license ABCD for 3 nodes, valid until Dec 24, 2026',
    );
    expect(localizeDates('Cancelled 3 nodes, monthly; it ends on December 24, 2026', 'en-US')).toBe(
      'Cancelled 3 nodes, monthly; it ends on Dec 24, 2026',
    );
    expect(localizeDates('Renewed until May 1, 2027 and Dec 24, 2026', 'en-GB')).toBe('Renewed until 1 May 2027 and 24 Dec 2026');
  });
  it('leaves what is not a calendar day alone', () => {
    expect(localizeDates('Signed in with an e-mailed link', 'en-US')).toBe('Signed in with an e-mailed link');
    expect(localizeDates('Node 2026-13-45 activated', 'en-US')).toBe('Node 2026-13-45 activated');
    expect(localizeDates('at 2026-12-24T10:00:00Z', 'en-US')).toBe('at 2026-12-24T10:00:00Z');
  });
  it("shows the interval as 'monthly' or 'yearly'", () => {
    expect(formatInterval('month')).toBe('monthly');
    expect(formatInterval('year')).toBe('yearly');
  });
});
