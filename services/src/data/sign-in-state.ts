import { isConditionFailure } from './conditional-write';
import { writers } from './direct-writes';
import type { UserRecord } from './users';

/**
 * Whether the identity provider should let this user sign in follows from the user's standing in
 * the table: a suspended or deleted account may not. The table is the truth; the provider follows
 * it through the identity worker (workers/sync-sign-in.ts), and the API refuses such a user on
 * every request meanwhile.
 */
export const signInDisabledFor = (user: Pick<UserRecord, 'status' | 'isActive'>) =>
  !user.isActive || user.status === 'suspended';

/** What the admin's user view says while the provider has not followed a standing change yet. */
export const signInPendingOf = (user: UserRecord) =>
  user.signInRequestedAt ? (signInDisabledFor(user) ? ('disabling' as const) : ('enabling' as const)) : null;

/**
 * Records that the provider now holds the standing of `user` as it was read: the waiting mark is
 * removed on the condition that nothing changed the record since. False when something did (a
 * newer standing, which its own event will apply, or any other write): the caller reads again.
 */
export const markSignInApplied = async (user: UserRecord) => {
  try {
    await writers()
      .user.patch({ userId: user.userId })
      .remove(['signInRequestedAt'])
      .where(({ updatedAt }, { eq }) => eq(updatedAt, user.updatedAt))
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
