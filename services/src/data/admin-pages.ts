import type { AdminPage } from '@marketplace/events/admin';
import { BadRequest } from '../http/errors';

/**
 * Paging of the admin's user lists (all users, editors): both indexes sort by createdAt then
 * userId, newest first, so a page is one bounded Query after the last row of the page before,
 * and the total is a COUNT Query of the same partition and filter.
 */
export interface UserSortKey {
  createdAt: string;
  userId: string;
}

export const encodeUserCursor = ({ createdAt, userId }: UserSortKey) =>
  Buffer.from(JSON.stringify({ createdAt, userId })).toString('base64url');

export const decodeUserCursor = (cursor: string): UserSortKey => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const { createdAt, userId } = (parsed ?? {}) as Partial<Record<keyof UserSortKey, unknown>>;
  if (typeof createdAt !== 'string' || typeof userId !== 'string' || !createdAt || !userId) {
    throw new BadRequest('This page link is no longer valid. Please start again from the first page.');
  }
  return { createdAt, userId };
};

/** Rows read per DynamoDB request: a filter may drop some, so a little more than a page. */
export const READ_BATCH = 100;

/**
 * Page `page` of rows, from the rows the query gave after the cursor (or from the first when
 * there is none, page N skipping the N - 1 pages before). `rows` holds one row more than the page
 * when another page follows.
 */
export const pageOf = <Row extends UserSortKey>(
  rows: Row[],
  { page, limit, fromCursor }: { page: number; limit: number; fromCursor: boolean },
) => {
  const start = fromCursor ? 0 : (page - 1) * limit;
  const shown = rows.slice(start, start + limit);
  const last = shown.at(-1);
  return { rows: shown, nextCursor: rows.length > start + limit && last ? encodeUserCursor(last) : null };
};

export const pageFields = (total: number, page: number, limit: number, nextCursor: string | null): AdminPage => ({
  total,
  totalPages: Math.ceil(total / limit),
  page,
  nextCursor,
});
