import { feedbackStatuses, feedbackTypes } from '@marketplace/events/feedback';
import { marketplace } from '../../data/entities';
import type { CounterFamily, ExpectedCounter } from '../counter-checks';

/**
 * The feedback counts the admin's Feedback tab shows (every report, by status, by type, by both),
 * counted again from the reports: each status partition of the byStatus index, a page at a time.
 */
const FEEDBACK_SCOPE = 'feedback';

const nameOf = (status: string, type: string) => {
  if (status === 'all') return type === 'all' ? 'total' : `type#${type}`;
  return type === 'all' ? `status#${status}` : `status#${status}#type#${type}`;
};

const recount = async () => {
  const counts = new Map<string, number>();
  for (const status of ['all', ...feedbackStatuses]) {
    for (const type of ['all', ...feedbackTypes]) counts.set(nameOf(status, type), 0);
  }
  for (const status of feedbackStatuses) {
    let cursor: string | null = null;
    do {
      const page: { data: unknown[]; cursor: string | null } = await marketplace()
        .entities.feedback.query.byStatus({ status })
        .go({ cursor, limit: 500 });
      for (const { type } of page.data as { type: string }[]) {
        for (const name of [nameOf('all', 'all'), nameOf('all', type), nameOf(status, 'all'), nameOf(status, type)]) {
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
      cursor = page.cursor;
    } while (cursor);
  }
  return [...counts].map(([name, value]): ExpectedCounter => ({ scope: FEEDBACK_SCOPE, name, value }));
};

export const feedbackCounters: CounterFamily = {
  what: 'feedback: the counts by status and type',
  recount,
  scopes: async () => [FEEDBACK_SCOPE],
  keeps: (scope) => scope === FEEDBACK_SCOPE,
};
