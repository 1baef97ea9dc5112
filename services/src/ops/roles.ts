import { type Role, role as roleSchema } from '@marketplace/events/roles';
import { firebaseAuth } from '../adapters/firebase-admin';
import { createUserOnce, findUserByEmail, setRoles } from '../data/users';
import { HttpError } from '../http/errors';

export class OpsError extends Error {}

const parseRole = (value: string): Role => {
  const parsed = roleSchema.safeParse(value);
  if (!parsed.success) throw new OpsError(`Unknown role "${value}": use one of admin, editor, photographer`);
  return parsed.data;
};

/**
 * The user record for an email. Someone who has an account at the identity provider but has not
 * used the marketplace yet gets their record now, so an admin can be made before first sign-in.
 */
const userForEmail = async (email: string) => {
  const existing = await findUserByEmail(email);
  if (existing) return existing;
  let identity: Awaited<ReturnType<Awaited<ReturnType<typeof firebaseAuth>>['getUserByEmail']>>;
  try {
    identity = await (await firebaseAuth()).getUserByEmail(email);
  } catch {
    throw new OpsError(`No user with email ${email}: they must sign up first`);
  }
  return createUserOnce({
    userId: identity.uid,
    email,
    displayName: identity.displayName,
    roles: ['photographer'],
    status: 'verified',
  });
};

/** A refusal of the data layer (the last active admin, a concurrent change) read as an ops message. */
const asOpsError = async <T>(write: Promise<T>) => {
  try {
    return await write;
  } catch (error) {
    throw error instanceof HttpError ? new OpsError(error.message) : error;
  }
};

export const grantRole = async (email: string, roleName: string) => {
  const role = parseRole(roleName);
  const user = await userForEmail(email);
  if (user.roles.includes(role)) return { user, changed: false };
  return { user: await asOpsError(setRoles(user.userId, [...user.roles, role])), changed: true };
};

export const revokeRole = async (email: string, roleName: string) => {
  const role = parseRole(roleName);
  const user = await findUserByEmail(email);
  if (!user) throw new OpsError(`No user with email ${email}`);
  if (!user.roles.includes(role)) return { user, changed: false };
  return {
    user: await asOpsError(
      setRoles(
        user.userId,
        user.roles.filter((r) => r !== role),
      ),
    ),
    changed: true,
  };
};
