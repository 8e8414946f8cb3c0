/**
 * Rows as CSV (RFC 4180, CRLF, a header line). A cell a spreadsheet would run as a formula (=, +,
 * -, @, tab, CR at its start) is prefixed with an apostrophe, so exported customer data cannot
 * execute anything when opened.
 */
export function toCsv<T extends Record<string, unknown>>(rows: T[], columns: ReadonlyArray<keyof T & string>): string {
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number);
    if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}
