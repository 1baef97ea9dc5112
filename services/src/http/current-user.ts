import type { Role } from '@marketplace/events/roles';
import type { MeView } from '@marketplace/events/users';
import { createUserOnce, getUser, type UserRecord } from '../data/users';
import { pictureWithoutUrls } from '../domain/profile-pictures';

export type CurrentUser = UserRecord;

type Claims = Record<string, string | number | boolean | string[]>;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The user record behind a verified token. The first request of a new identity creates it as a
 * verified photographer named from the token (invited editors already have a record).
 */
export const userFromClaims = async (claims: Claims): Promise<CurrentUser> => {
  const userId = String(claims.sub);
  const existing = await getUser(userId);
  if (existing) return existing;
  const email = text(claims.email) ?? `${userId}@users.invalid`;
  return createUserOnce({
    userId,
    email,
    displayName: text(claims.name),
    profileImageUrl: text(claims.picture),
    roles: ['photographer'] satisfies Role[],
    status: 'verified',
  });
};

export const toMeView = (user: UserRecord): MeView => ({
  id: user.userId,
  email: user.email,
  displayName: user.displayName ?? null,
  profileImageUrl: user.profileImageUrl ?? null,
  roles: user.roles ?? [],
  status: user.status,
  createdAt: user.createdAt,
  // Profile: the pictures' URLs are signed by handlers/auth/me-view.ts (meView) for the routes that show them.
  phone: user.phone ?? null,
  profileImage: pictureWithoutUrls(user, 'image'),
  businessName: user.businessName ?? null,
  businessLogo: pictureWithoutUrls(user, 'logo'),
});
