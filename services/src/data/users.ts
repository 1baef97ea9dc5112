import type { Role, UserStatus } from '@marketplace/events/roles';
import { isConditionFailure } from './conditional-write';
import { marketplace } from './entities';

export interface UserRecord {
  userId: string;
  email: string;
  displayName?: string;
  profileImageUrl?: string;
  roles: Role[];
  status: UserStatus;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export const getUser = async (userId: string) => {
  const { data } = await marketplace().entities.user.get({ userId }).go();
  return (data as UserRecord | null) ?? null;
};

export const findUserByEmail = async (email: string) => {
  const { data } = await marketplace()
    .entities.user.query.byEmail({ email: email.trim().toLowerCase() })
    .go({ limit: 1 });
  return (data[0] as UserRecord | undefined) ?? null;
};

/**
 * Creates the record the first time an identity signs in. Two first requests can race; the loser's
 * conditional create fails and it reads the winner's record instead.
 */
export const createUserOnce = async (
  user: Pick<UserRecord, 'userId' | 'email' | 'displayName' | 'profileImageUrl' | 'roles' | 'status'>,
) => {
  try {
    const { data } = await marketplace()
      .entities.user.create({ ...user, isEditor: user.roles.includes('editor') ? 'editor' : undefined })
      .go();
    return data as UserRecord;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const existing = await getUser(user.userId);
    if (!existing) throw error;
    return existing;
  }
};

export const updateProfile = async (
  userId: string,
  changes: { displayName?: string; profileImageUrl?: string | null },
) => {
  const patch = marketplace().entities.user.patch({ userId });
  const set: Record<string, string> = {};
  if (changes.displayName !== undefined) set.displayName = changes.displayName;
  if (changes.profileImageUrl) set.profileImageUrl = changes.profileImageUrl;
  let op = patch.set(set);
  if (changes.profileImageUrl === null) op = op.remove(['profileImageUrl']);
  const { data } = await op.go({ response: 'all_new' });
  return data as UserRecord;
};

/** Replaces a user's roles; keeps the sparse editor index in step in the same write. */
export const setRoles = async (userId: string, roles: Role[]) => {
  const unique = [...new Set(roles)];
  const op = marketplace().entities.user.patch({ userId }).set({ roles: unique });
  const { data } = await (unique.includes('editor') ? op.set({ isEditor: 'editor' }) : op.remove(['isEditor'])).go({
    response: 'all_new',
  });
  return data as UserRecord;
};
