/**
 * CSV as RFC 4180 writes it, for the files people open in a spreadsheet (the photographer's
 * billing statement, the admin's Insights): one way of quoting for both.
 */
export type CsvValue = string | number | null;

/** Text a spreadsheet would run as a formula if it came first in a cell (a name such as '=HYPERLINK(…)'). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One field, quoted when it holds a comma, a quote or a line break; empty for null. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  // A leading quote makes it text again; a negative amount such as -5.00 stays a number.
  const text = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows joined with CRLF, as RFC 4180 and spreadsheets expect (no line break after the last). */
export const csvLines = (rows: readonly (readonly CsvValue[])[]) =>
  rows.map((row) => row.map(csvField).join(',')).join('\r\n');
