/** Formatting in the reader's locale. Pass `locale` only in tests. */

export function formatDate(iso: string | Date, locale?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);
}

export function formatDateTime(iso: string | Date, locale?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** Money from the smallest currency unit (cents), as the API sends it. */
export function formatMoney(minorUnits: number, currency: string, locale?: string): string {
  const fmt = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(minorUnits / 10 ** digits);
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1536 -> '1.5 kB' (decimal units, as download sizes are usually given). */
export function formatBytes(bytes: number, locale?: string): string {
  // Intl's short form of 'byte' is the word itself; 'B' reads better beside kB, MB and GB.
  if (bytes < 1000) return `${new Intl.NumberFormat(locale).format(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
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
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}
