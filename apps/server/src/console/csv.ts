/**
 * Rows as CSV (RFC 4180, CRLF, a header line). A cell a spreadsheet would run as a formula (=, +,
 * -, @, tab, CR at its start) is prefixed with an apostrophe, so exported customer data cannot
 * execute anything when opened.
 */
export function toCsv<T extends Record<string, unknown>>(rows: T[], columns: ReadonlyArray<keyof T & string>): string {
  return csvLine(columns) + csvLines(rows, columns);
}

const cell = (v: unknown) => {
  let s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The header line. */
export const csvLine = (columns: readonly string[]) => `${columns.join(',')}\r\n`;

/** Rows as CSV lines, each ended by CRLF (no header). */
export function csvLines<T extends Record<string, unknown>>(rows: T[], columns: ReadonlyArray<keyof T & string>): string {
  let out = '';
  for (const r of rows) out += `${columns.map((c) => cell(r[c])).join(',')}\r\n`;
  return out;
}
