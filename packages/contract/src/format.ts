/** Formatting in the reader's locale. Pass `locale` only in tests. */

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.DisplayNames;

const formatters = new Map<string, Formatter>();

/**
 * One Intl formatter per kind, locale and options, made on first use: making one costs far more
 * than formatting with it (a table of prices or dates would otherwise build one per cell, on
 * every render).
 */
function formatter<T extends Formatter, O>(
  make: new (locale: string | undefined, options: O) => T,
  locale: string | undefined,
  options: NoInfer<O>,
): T {
  const key = `${make.name}|${locale ?? ''}|${JSON.stringify(options)}`;
  let made = formatters.get(key) as T | undefined;
  if (!made) {
    made = new make(locale, options);
    formatters.set(key, made);
  }
  return made;
}

/**
 * Makes the reader's date and number formatters ahead of their first use. The first Intl object a
 * page makes loads the locale's data (20-30 ms on a desktop, four times that on a phone), and
 * otherwise lands in the render that first shows a date, a price or a size; a page calls this while
 * it waits for its first answers, when the main thread has nothing else to do.
 */
export function warmUpFormatters(locale?: string): void {
  formatter(Intl.DateTimeFormat, locale, { dateStyle: 'medium' });
  formatter(Intl.NumberFormat, locale, {});
}

/**
 * The one date format of the app ('Dec 24, 2026' in en-US, '24 Dec 2026' in en-GB): every date a
 * reader sees goes through here (or formatDateTime), so no page mixes styles.
 */
export function formatDate(iso: string | Date, locale?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return formatter(Intl.DateTimeFormat, locale, { dateStyle: 'medium' }).format(d);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_NAMES = MONTHS.map((m) => `${m}|${m.slice(0, 3)}`).join('|');
// '2026-12-24' (not followed by a time), or 'December 24, 2026' / 'Dec 24, 2026'.
const DATE_IN_TEXT = new RegExp(`\\b(\\d{4})-(\\d{2})-(\\d{2})\\b(?!T)|\\b(${MONTH_NAMES})\\.? (\\d{1,2}), (\\d{4})\\b`, 'g');

/**
 * Rewrites the calendar dates inside a server-written sentence (the activity log's summaries carry
 * them as '2026-12-24' or 'December 24, 2026', written at the time of the event and kept as they
 * were) in formatDate's style and the reader's locale. These dates are UTC days, so they are
 * formatted in UTC and never shift by the reader's time zone.
 */
export function localizeDates(text: string, locale?: string): string {
  const fmt = formatter(Intl.DateTimeFormat, locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return text.replace(DATE_IN_TEXT, (match, y, m, d, monthName, day, year) => {
    const month = monthName ? MONTHS.findIndex((name) => name.startsWith(monthName as string)) : Number(m) - 1;
    const date = new Date(Date.UTC(Number(monthName ? year : y), month, Number(monthName ? day : d)));
    return Number.isNaN(date.getTime()) || date.getUTCMonth() !== month ? match : fmt.format(date);
  });
}

/** The locale of documents and e-mails (invoices, credit notes, receipts, the activity log's summaries). */
export const DOCUMENT_LOCALE = 'en-US';

/**
 * A calendar day in UTC with the month spelled out ('December 24, 2026'): the date of documents and
 * e-mails, read away from any page and its reader's time zone, and kept as written. `localizeDates`
 * turns it into formatDate's style when a page shows such a text.
 */
export function formatDocumentDate(iso: string | Date, locale: string = DOCUMENT_LOCALE): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return formatter(Intl.DateTimeFormat, locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(d);
}

export function formatDateTime(iso: string | Date, locale?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return formatter(Intl.DateTimeFormat, locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** Money from the smallest currency unit (cents), as the API sends it. */
export function formatMoney(minorUnits: number, currency: string, locale?: string): string {
  const fmt = formatter(Intl.NumberFormat, locale, { style: 'currency', currency: currency.toUpperCase() });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(minorUnits / 10 ** digits);
}

/** A country's name in the reader's language ('Germany' for DE), or its code when there is none. */
export function countryName(code: string, locale?: string): string {
  return formatter(Intl.DisplayNames, locale, { type: 'region' }).of(code) ?? code;
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1536 -> '1.5 kB' (decimal units, as download sizes are usually given). */
export function formatBytes(bytes: number, locale?: string): string {
  // Intl's short form of 'byte' is the word itself; 'B' reads better beside kB, MB and GB.
  if (bytes < 1000) return `${formatter(Intl.NumberFormat, locale, {}).format(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return formatter(Intl.NumberFormat, locale, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** '3 minutes ago', 'in 2 days'. */
export function formatRelative(iso: string | Date, now: Date = new Date(), locale?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  let value = (d.getTime() - now.getTime()) / 1000;
  const rtf = formatter(Intl.RelativeTimeFormat, locale, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}
