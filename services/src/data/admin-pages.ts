import type { AdminPage } from '@marketplace/events/admin';
import { createConversions } from 'electrodb';
import { BadRequest } from '../http/errors';
import { marketplace } from './entities';
import type { Position } from './list-pages';

/**
 * Paging of the admin's user lists (all users, editors, invited editors): their indexes sort by
 * createdAt then userId, newest first, so a page is a Query of the keys below the last row of the
 * page before (list-pages.ts), and the total is a sum of counters (user-totals.ts).
 */
export interface UserSortKey {
  createdAt: string;
  userId: string;
}

export const encodeUserCursor = (position: Position) => {
  const [createdAt, userId] = position;
  return Buffer.from(JSON.stringify({ createdAt, userId })).toString('base64url');
};

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

/** A user row's place in the users and editors indexes (their keys are lower-cased). */
export const userPosition = (user: UserSortKey): Position => [user.createdAt.toLowerCase(), user.userId.toLowerCase()];

export const userKeyOf = ([createdAt = '', userId = '']: Position): UserSortKey => ({ createdAt, userId });

let conversions: ReturnType<typeof createConversions> | undefined;

/** Where a read of the users ('all') or editors index stopped, from DynamoDB's last evaluated key. */
export const userIndexStop = (index: 'all' | 'editors') => (cursor: string) => {
  conversions ??= createConversions(marketplace().entities.user as never);
  const keys = (conversions.byAccessPattern as Record<string, { fromCursor: { toComposite: (c: string) => unknown } }>)[
    index
  ]!.fromCursor.toComposite(cursor) as UserSortKey;
  return userPosition(keys);
};

export const pageFields = (total: number, page: number, limit: number, nextCursor: string | null): AdminPage => ({
  total,
  totalPages: Math.ceil(total / limit),
  page,
  nextCursor,
});
