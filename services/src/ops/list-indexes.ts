import { feedbackStatuses } from '@marketplace/events/feedback';
import { isConditionFailure } from '../data/conditional-write';
import { marketplace } from '../data/entities';
import type { FeedbackRecord } from '../data/feedback';
import { roleIndexAttributes, type UserRecord } from '../data/users';

/**
 * The list indexes added after records existed (users: admins and byStatus; feedback:
 * byTypeAndStatus) hold a record only once a write has given it their keys. Every write made since
 * does; this gives the older records theirs, reading the users and the reports a DynamoDB page at a
 * time (an offline ops job: `npm run ops -- backfill-list-indexes`, and once per table at a local
 * start). Each record is written again with its own values on the condition that it did not
 * change meanwhile; one that did is read again.
 */
const entities = () => marketplace().entities;

const BACKFILL_MARK = { source: 'backfill', messageId: 'list-indexes-v1' } as const;
// The mark must never expire: the table's TTL would delete it (year 9999, in epoch seconds).
const NEVER = 253_402_300_799;
const ATTEMPTS = 3;

/** Pages of a query, one DynamoDB page at a time, handed to `each`. */
const forEachPage = async <Row>(
  read: (cursor: string | null) => Promise<{ data: unknown[]; cursor: string | null }>,
  each: (rows: Row[]) => Promise<void>,
) => {
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    await each(page.data as Row[]);
    cursor = page.cursor;
  } while (cursor);
};

// A patch writes an index's partition key but never its sort key, so each record is put again
// whole, which writes every key; the condition keeps a change made meanwhile from being undone.
const rewriteUser = async (userId: string) => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { data } = await entities().user.get({ userId }).go({ consistent: true });
    const user = data as UserRecord | null;
    if (!user) return;
    try {
      await entities()
        .user.put({ ...user, ...roleIndexAttributes(user.roles) })
        .where(({ updatedAt }, { eq }) => eq(updatedAt, user.updatedAt))
        .go();
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
};

const rewriteFeedback = async (feedbackId: string) => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { data } = await entities().feedback.get({ feedbackId }).go({ consistent: true });
    const report = data as (FeedbackRecord & { updatedAt: string }) | null;
    if (!report) return;
    try {
      await entities()
        .feedback.put(report)
        .where(({ updatedAt }, { eq }) => eq(updatedAt, report.updatedAt))
        .go();
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
};

export interface BackfillReport {
  users: number;
  feedback: number;
}

/** Gives every user and report the list indexes' keys; once per table unless forced. */
export const backfillListIndexes = async ({ force = false } = {}): Promise<BackfillReport | null> => {
  if (!force) {
    const { data } = await entities().processedMessage.get(BACKFILL_MARK).go({ consistent: true });
    if (data) return null;
  }
  const report: BackfillReport = { users: 0, feedback: 0 };
  await forEachPage<UserRecord>(
    (cursor) => entities().user.query.all({}).go({ cursor, limit: 100 }),
    async (users) => {
      for (const user of users) await rewriteUser(user.userId);
      report.users += users.length;
    },
  );
  for (const status of feedbackStatuses) {
    await forEachPage<FeedbackRecord>(
      (cursor) => entities().feedback.query.byStatus({ status }).go({ cursor, limit: 100 }),
      async (reports) => {
        for (const r of reports) await rewriteFeedback(r.feedbackId);
        report.feedback += reports.length;
      },
    );
  }
  await entities()
    .processedMessage.put({ ...BACKFILL_MARK, expiresAt: NEVER, state: 'done' })
    .go();
  return report;
};
