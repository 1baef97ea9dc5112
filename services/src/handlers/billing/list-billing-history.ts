import { type BillingHistoryView, billingHistoryQuery } from '@marketplace/events/billing';
import { billingHistoryPage, toBillingEntryView } from '../../data/billing';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The photographer's payments and refunds, newest first, a page at a time: a Query of their own partition. */
export const handler = http({ query: billingHistoryQuery }, async ({ query, user }) => {
  const page = await billingHistoryPage(user.userId, query);
  const view: BillingHistoryView = { entries: page.entries.map(toBillingEntryView), nextCursor: page.nextCursor };
  return ok(view);
});
