import type { AdminPage } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { cursorComposites, models } from './direct-reads';
import type { Position } from './list-pages';
import { decodePageCursor, encodePageCursor } from './page-cursors';

/**
 * Paging of the admin's user lists (all users, editors, invited editors): their indexes sort by
 * createdAt then userId, newest first, so a page is a Query of the keys below the last row of the
 * page before (list-pages.ts), and the total is a sum of counters (user-totals.ts).
 */
export interface UserSortKey {
  createdAt: string;
  userId: string;
}

const userCursor = z.object({
  createdAt: z.string().check(z.minLength(1)),
  userId: z.string().check(z.minLength(1)),
});

export const encodeUserCursor = ([createdAt, userId]: Position) => encodePageCursor({ createdAt, userId });

export const decodeUserCursor = (cursor: string): UserSortKey => decodePageCursor(cursor, userCursor);

/** A user row's place in the users and editors indexes (their keys are lower-cased). */
export const userPosition = (user: UserSortKey): Position => [user.createdAt.toLowerCase(), user.userId.toLowerCase()];

export const userKeyOf = ([createdAt = '', userId = '']: Position): UserSortKey => ({ createdAt, userId });

/** Where a read of one of the user indexes stopped, from DynamoDB's last evaluated key. */
export const userIndexStop = (index: 'all' | 'editors' | 'admins' | 'byStatus') => (cursor: string) =>
  userPosition(cursorComposites(models.user, index, cursor) as unknown as UserSortKey);

export const pageFields = (total: number, page: number, limit: number, nextCursor: string | null): AdminPage => ({
  total,
  totalPages: Math.ceil(total / limit),
  page,
  nextCursor,
});
