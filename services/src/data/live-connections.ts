import { LIVE_CONNECTION_TTL_SECONDS } from '@marketplace/events/live-updates';
import type { Role } from '@marketplace/events/roles';
import { isConditionFailure } from './conditional-write';
import { writers } from './direct-writes';
import { marketplace } from './entities';

/**
 * The browsers' live-update sockets. One item a connection, written at $connect with its user
 * and roles and deleted at $disconnect; the push worker reads the listeners of a change a page at
 * a time, so a fan-out to thousands of tabs never holds them all at once.
 */
export interface LiveConnection {
  connectionId: string;
  userId: string;
  roles: string[];
}

/** Who a change goes to: one user's tabs, or every tab of a role's holders. */
export type LiveAudience = { userId: string } | { role: Extract<Role, 'editor' | 'admin'> };

const LISTENERS_PAGE = 500;

const connections = () => writers().liveConnection;

export const saveConnection = async (connection: LiveConnection, connectedAt = new Date()): Promise<void> => {
  await connections()
    .put({
      connectionId: connection.connectionId,
      userId: connection.userId,
      roles: connection.roles,
      ...(connection.roles.includes('editor') ? { isEditor: 'editor' } : {}),
      ...(connection.roles.includes('admin') ? { isAdmin: 'admin' } : {}),
      connectedAt: connectedAt.toISOString(),
      expiresAt: Math.floor(connectedAt.getTime() / 1000) + LIVE_CONNECTION_TTL_SECONDS,
    })
    .go({ response: 'none' });
};

/** Deleting a connection that is already gone is no error (a 410 and the $disconnect may both come). */
export const deleteConnection = async (connectionId: string): Promise<void> => {
  await connections().delete({ connectionId }).go({ response: 'none' });
};

const queryOf = (audience: LiveAudience) => {
  const query = marketplace().entities.liveConnection.query;
  if ('userId' in audience) return query.byUser({ userId: audience.userId });
  return audience.role === 'editor' ? query.editors({ isEditor: 'editor' }) : query.admins({ isAdmin: 'admin' });
};

/**
 * Each page of an audience's connections, expired ones left out (TTL removes items within a day
 * or two, not at once). The caller handles a page before the next is read.
 */
export async function* connectionPages(audience: LiveAudience, now = new Date()): AsyncGenerator<LiveConnection[]> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let cursor: string | null = null;
  do {
    const page: { data: { connectionId: string; userId: string; roles: string[] }[]; cursor: string | null } =
      await queryOf(audience)
        .where(({ expiresAt }, { gt }) => gt(expiresAt, nowSeconds))
        .go({ cursor, limit: LISTENERS_PAGE });
    if (page.data.length) {
      yield page.data.map(({ connectionId, userId, roles }) => ({ connectionId, userId, roles }));
    }
    cursor = page.cursor;
  } while (cursor);
}

/**
 * The open pool's pushes are spaced: one mark a lane ('leading' for the push of a change as it
 * happens, 'trailing' for the one that follows a burst), each taken by one conditional write when
 * its last push is at least `windowMs` old. True when this caller took it.
 */
export const takePoolPushTurn = async (lane: 'leading' | 'trailing', nowMs: number, windowMs: number) => {
  try {
    await writers()
      .counter.update({ scope: 'live#pool', name: lane })
      .set({ value: nowMs })
      .where(({ value }, { notExists, lte }) => `${notExists(value)} OR ${lte(value, nowMs - windowMs)}`)
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
