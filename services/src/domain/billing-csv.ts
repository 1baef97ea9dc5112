import { type CsvValue, csvLines } from '@marketplace/events/csv';

/**
 * A month of a photographer's billing history as CSV (RFC 4180): a header row, then a row per
 * payment or refund, oldest first. Text a spreadsheet would run as a formula is neutralised (a leading
 * quote, events/csv.ts), so an order named '=HYPERLINK(…)' stays text.
 */

/** The statement's rows, each line ended with CRLF as a download of its own. */
const statementLines = (rows: readonly (readonly CsvValue[])[]) => `${csvLines(rows)}\r\n`;

export interface StatementRow {
  entryId: string;
  kind: 'payment' | 'refund';
  occurredAt: string;
  orderNumber: number;
  orderName?: string | null;
  jobTypeName: string;
  photoCount: number;
  amountCents: number;
  cardBrand?: string | null;
  cardLast4?: string | null;
}

/** 'YYYY-MM-DD HH:mm' in the time zone. */
const localTime = (iso: string, timeZone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
};

/** Refunds as negative amounts, so the column adds up to what the month cost. */
export const billingCsv = (rows: readonly StatementRow[], timeZone: string) =>
  statementLines([
    [
      'Date',
      'Time zone',
      'Type',
      'Order number',
      'Order name',
      'Service',
      'Photos',
      'Amount (USD)',
      'Card',
      'Receipt number',
    ],
    ...rows.map((row) => [
      localTime(row.occurredAt, timeZone),
      timeZone,
      row.kind === 'refund' ? 'Refund' : 'Payment',
      row.orderNumber,
      row.orderName ?? null,
      row.jobTypeName,
      row.photoCount,
      ((row.kind === 'refund' ? -row.amountCents : row.amountCents) / 100).toFixed(2),
      row.cardLast4 ? `${row.cardBrand ?? 'card'} ${row.cardLast4}` : null,
      row.entryId,
    ]),
  ]);

/** The instant a month starts in a time zone (its local midnight on the 1st), as a Date. */
export const monthStart = (year: number, month: number, timeZone: string) => {
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(instant))
        .map((part) => [part.type, Number(part.value)]),
    );
    const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    return asUtc - instant;
  };
  const wall = Date.UTC(year, month - 1, 1);
  // Twice: the offset at the guess may differ from the offset at midnight across a DST change.
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
};
