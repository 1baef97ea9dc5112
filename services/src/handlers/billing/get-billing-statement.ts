import { type BillingStatementView, billingStatementQuery } from '@marketplace/events/billing';
import { billingEntriesBetween } from '../../data/billing';
import { billingCsv, monthStart } from '../../domain/billing-csv';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** A month of the photographer's payments and refunds as CSV, the month as their own time zone draws it. */
export const handler = http({ query: billingStatementQuery }, async ({ query, user }) => {
  const [year, month] = query.month.split('-').map(Number) as [number, number];
  const from = monthStart(year, month, query.tz);
  const to = month === 12 ? monthStart(year + 1, 1, query.tz) : monthStart(year, month + 1, query.tz);
  const entries = await billingEntriesBetween(user.userId, from, to);
  const view: BillingStatementView = { filename: `billing-${query.month}.csv`, csv: billingCsv(entries, query.tz) };
  return ok(view);
});
