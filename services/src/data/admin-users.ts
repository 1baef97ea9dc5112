import type {
  AdminUserListResponse,
  AdminUsersQuery,
  AdminUserView,
  CheckEmailResponse,
  InvitedUsersQuery,
  InvitedUsersResponse,
} from '@marketplace/events/admin';
import type { Role } from '@marketplace/events/roles';
import { BadRequest, Conflict, NotFound } from '../http/errors';
import {
  decodeUserCursor,
  encodeUserCursor,
  pageFields,
  type UserSortKey,
  userIndexStop,
  userKeyOf,
  userPosition,
} from './admin-pages';
import { query as directQuery, models } from './direct-reads';
import {
  descending,
  FILTERED_READ_BUDGET,
  mergePartitions,
  type Position,
  pageByNumber,
  readPartition,
} from './list-pages';
import { signInPendingOf } from './sign-in-state';
import { commitAll, TransactionCancelled } from './transactions';
import { invitedEditorsTotal, usersTotal, userTotalMoves } from './user-totals';
import {
  changeUser,
  emailOwner,
  getUser,
  isPlaceholderUserId,
  PLACEHOLDER_PREFIX,
  type UserRecord,
  usersWithEmail,
} from './users';

/**
 * The admin's side of users: the list, roles one at a time, and an account's standing (suspended,
 * deleted, reactivated). Invited editors have a placeholder record (`invited-<ulid>`) until they
 * sign up; they are listed only when asked for, and have no account to change.
 */
export const toAdminUserView = (u: UserRecord): AdminUserView => ({
  id: u.userId,
  email: u.email,
  displayName: u.displayName ?? null,
  status: u.status,
  roles: u.roles ?? [],
  isActive: u.isActive,
  createdAt: u.createdAt,
  deletedAt: u.deletedAt ?? null,
  invitedAt: u.invitedAt ?? null,
  signInPending: signInPendingOf(u),
});

type UserFilters = Pick<AdminUsersQuery, 'includeInactive' | 'includeInvited' | 'status' | 'role'>;

/** The index a filtered user list reads: the one whose partition is the rarest filter's value. */
type UserListIndex = 'all' | 'editors' | 'admins' | 'byStatus';

/**
 * Where a page of the admin's user list comes from. A filter that few users match is a partition
 * of its own (the invited and suspended in the status index, the admins and the editors in their
 * sparse indexes), so its page reads about a page of rows however many users there are; what is
 * left (the photographer role, the verified status, hiding deleted accounts and invited editors)
 * drops few rows and stays a filter.
 */
const userListSource = (filters: UserFilters, after?: UserSortKey) => {
  const user = {
    query: {
      byStatus: (values: { status: string }) => directQuery<UserRecord>(models.user, 'byStatus', values),
      admins: (values: { isAdmin: string }) => directQuery<UserRecord>(models.user, 'admins', values),
      editors: (values: { isEditor: string }) => directQuery<UserRecord>(models.user, 'editors', values),
      all: (values: object) => directQuery<UserRecord>(models.user, 'all', values),
    },
  };
  const rareStatus = filters.status === 'invited' || filters.status === 'suspended' ? filters.status : undefined;
  const { index, query, keyed } = rareStatus
    ? { index: 'byStatus' as const, query: user.query.byStatus({ status: rareStatus }), keyed: 'status' as const }
    : filters.role === 'admin'
      ? { index: 'admins' as const, query: user.query.admins({ isAdmin: 'admin' }), keyed: 'role' as const }
      : filters.role === 'editor'
        ? { index: 'editors' as const, query: user.query.editors({ isEditor: 'editor' }), keyed: 'role' as const }
        : { index: 'all' as const, query: user.query.all({}), keyed: undefined };
  const byStatus = Boolean(filters.status) && keyed !== 'status';
  const byRole = Boolean(filters.role) && keyed !== 'role';
  const filtered = !filters.includeInactive || !filters.includeInvited || byStatus || byRole;
  return {
    index: index satisfies UserListIndex,
    filtered,
    query: (after ? query.lt(after) : query).where([
      ...(filters.includeInactive ? [] : [{ attribute: 'isActive', op: 'eq', value: true } as const]),
      ...(filters.includeInvited
        ? []
        : [{ attribute: 'userId', op: 'begins', value: PLACEHOLDER_PREFIX, not: true } as const]),
      ...(byStatus && filters.status ? [{ attribute: 'status', op: 'eq', value: filters.status } as const] : []),
      ...(byRole && filters.role ? [{ attribute: 'roles', op: 'contains', value: filters.role } as const] : []),
    ]),
  };
};

const usersPage = (filters: UserFilters) => async (after: Position | undefined, limit: number) => {
  const source = userListSource(filters, after && userKeyOf(after));
  return mergePartitions(
    [
      await readPartition<UserRecord>({
        query: source.query,
        order: 'desc',
        want: limit + 1,
        budget: FILTERED_READ_BUDGET,
        filtered: source.filtered,
        positionOfCursor: userIndexStop(source.index),
      }),
    ],
    { limit, positionOf: userPosition, compare: descending },
  );
};

/**
 * One page of accounts, newest first: deleted ones only when asked for, invited editors (who have
 * no account yet) only when asked for, by status and role. The total is a sum of the counters
 * every user write keeps (user-totals.ts); the page reads at most a bounded number of rows, so a
 * filter that few users match may answer a short page with a cursor to go on from.
 */
export const listUsers = async (query: AdminUsersQuery): Promise<AdminUserListResponse> => {
  const after = query.cursor ? decodeUserCursor(query.cursor) : undefined;
  const readPage = usersPage(query);
  const [{ rows, next }, total] = await Promise.all([
    after ? readPage(userPosition(after), query.limit) : pageByNumber(query.page, query.limit, readPage),
    usersTotal(query),
  ]);
  return {
    users: rows.map(toAdminUserView),
    ...pageFields(total, query.page, query.limit, next && encodeUserCursor(next)),
  };
};

/**
 * Editors invited and not signed up yet, newest first, a page at a time: their placeholders are
 * the invited partition of the status index (an account whose email was invited again keeps its
 * own status and is not listed).
 */
export const listInvitedUsers = async ({ limit, cursor }: InvitedUsersQuery): Promise<InvitedUsersResponse> => {
  const after = cursor ? decodeUserCursor(cursor) : undefined;
  const index = directQuery<UserRecord>(models.user, 'byStatus', { status: 'invited' });
  const [read, total] = await Promise.all([
    readPartition<UserRecord>({
      query: (after ? index.lt(after) : index).where([
        { attribute: 'userId', op: 'begins', value: PLACEHOLDER_PREFIX },
        { attribute: 'isActive', op: 'eq', value: true },
      ]),
      order: 'desc',
      want: limit + 1,
      budget: FILTERED_READ_BUDGET,
      // Every invited record is a live placeholder: the condition guards, it does not thin the page.
      filtered: false,
      positionOfCursor: userIndexStop('byStatus'),
    }),
    invitedEditorsTotal(),
  ]);
  const { rows, next } = mergePartitions([read], { limit, positionOf: userPosition, compare: descending });
  return { users: rows.map(toAdminUserView), total, nextCursor: next && encodeUserCursor(next) };
};

const accountOnly = (userId: string) => {
  if (isPlaceholderUserId(userId)) throw new Conflict('This editor has not accepted their invitation yet');
};

const roleChange = (userId: string, decide: Parameters<typeof changeUser>[1]) => {
  accountOnly(userId);
  return changeUser(userId, decide);
};

/** The user's only role from now on. */
export const setOnlyRole = (userId: string, role: Role) => roleChange(userId, () => ({ roles: [role] }));

export const addRole = (userId: string, role: Role) =>
  roleChange(userId, (user) => {
    if (user.roles.includes(role)) throw new Conflict(`User already has the ${role} role`);
    return { roles: [...user.roles, role] };
  });

export const removeRole = (userId: string, role: Role) =>
  roleChange(userId, (user) => {
    if (!user.roles.includes(role)) throw new Conflict(`User does not have the ${role} role`);
    return { roles: user.roles.filter((r) => r !== role) };
  });

/*
 * The identity provider follows the table: each standing change writes the record and its user
 * event to the outbox in one transaction (the API refuses a suspended or deleted user from that
 * moment), and the identity worker (workers/sync-sign-in.ts) disables or enables sign-in at
 * Firebase, retried until it has; the admin's view shows it pending until then.
 */

const notYourself = (actorId: string, userId: string, message: string) => {
  if (actorId === userId) throw new BadRequest(message, undefined, 'SELF_ACTION');
};

/** Suspends an account: still listed (a red badge), refused by the API and at sign-in. */
export const deactivateUser = async ({ userId, actorId }: { userId: string; actorId: string }) => {
  notYourself(actorId, userId, 'You cannot deactivate your own account');
  if (isPlaceholderUserId(userId)) {
    throw new Conflict('An invited editor has no account to deactivate: delete the invitation instead');
  }
  return changeUser(userId, () => ({ status: 'suspended' }), {
    eventType: 'user_suspended',
    description: 'Account suspended',
    actorId,
  });
};

/**
 * Deletes an account softly (isActive false, deletedAt): orders and history stay, the user is
 * hidden unless deleted users are asked for, and can no longer call the API or sign in.
 */
export const deleteUser = async ({ userId, actorId }: { userId: string; actorId: string }) => {
  notYourself(actorId, userId, 'You cannot delete your own account');
  if (isPlaceholderUserId(userId)) return cancelInvitedEditor(userId);
  return softDeleteAccount({ userId, actorId });
};

/**
 * The soft delete itself, the admin's and the owner's alike (data/account-deletion.ts passes its
 * own writes for the same transaction): isActive false and deletedAt, with the user_deleted event
 * that has the identity worker turn sign-in off. Deleting again keeps the first deletion's date.
 */
export const softDeleteAccount = ({
  userId,
  actorId,
  alsoWrite,
}: {
  userId: string;
  actorId: string;
  alsoWrite?: Parameters<typeof changeUser>[3];
}) =>
  changeUser(
    userId,
    (current) => ({ isActive: false, deletedAt: current.deletedAt ?? new Date().toISOString() }),
    { eventType: 'user_deleted', description: 'Account deleted', actorId },
    alsoWrite,
  );

/** A deleted or suspended account active again: verified, listed, able to sign in. */
export const reactivateUser = async (userId: string, actorId?: string) => {
  if (isPlaceholderUserId(userId)) throw new NotFound('User not found');
  return changeUser(userId, () => ({ isActive: true, status: 'verified', deletedAt: null }), {
    eventType: 'user_reactivated',
    description: 'Account reactivated',
    ...(actorId ? { actorId } : {}),
  });
};

/**
 * Deleting an editor who never signed up cancels the invitation: there is no history to keep, so
 * the placeholder and its rates go and every pending invitation to the email is revoked, in one
 * transaction that loses to an acceptance happening at the same moment.
 */
const cancelInvitedEditor = async (userId: string) => {
  const placeholder = await getUser(userId, { consistent: true });
  if (!placeholder) throw new NotFound('User not found');
  const [holdsEmail, { data: rates }, { data: invitations }] = await Promise.all([
    emailOwner(placeholder.email).then((owner) => owner === userId),
    directQuery<{ jobTypeId: string }>(models.editorRate, 'byEditor', { editorId: userId }).go({ pages: 'all' }),
    directQuery<{ tokenHash: string }>(models.invitation, 'byEmail', { email: placeholder.email })
      .where([{ attribute: 'status', op: 'eq', value: 'pending' }])
      .go({ pages: 'all' }),
  ]);
  try {
    await commitAll((e) => [
      e.user
        .delete({ userId })
        // As read: the totals move by what was read.
        .where(
          ({ status, updatedAt }, { eq }) => `${eq(status, 'invited')} AND ${eq(updatedAt, placeholder.updatedAt)}`,
        )
        .commit(),
      ...(holdsEmail
        ? [
            e.userEmail
              .delete({ email: placeholder.email })
              .where(({ userId: owner }, { eq }) => eq(owner, userId))
              .commit(),
          ]
        : []),
      ...userTotalMoves(e, placeholder, null),
      ...rates.map((r) => e.editorRate.delete({ editorId: userId, jobTypeId: r.jobTypeId }).commit()),
      ...invitations.map((i) =>
        e.invitation
          .patch({ tokenHash: i.tokenHash })
          .set({ status: 'revoked' })
          .where(({ status }, { eq }) => eq(status, 'pending'))
          .commit(),
      ),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled) {
      throw new Conflict('This invitation was accepted or changed meanwhile. Please refresh and try again.');
    }
    throw error;
  }
  return { ...placeholder, isActive: false, deletedAt: new Date().toISOString() };
};

/** Whether an email can be invited: an account has it, an invitation is pending, or it is free. */
export const checkEmail = async (email: string): Promise<CheckEmailResponse> => {
  const normalized = email.trim().toLowerCase();
  const users = await usersWithEmail(normalized);
  const reason = users.some((u) => !isPlaceholderUserId(u.userId))
    ? 'registered'
    : users.some((u) => u.isActive)
      ? 'invited'
      : null;
  return { email: normalized, available: reason === null, reason };
};
