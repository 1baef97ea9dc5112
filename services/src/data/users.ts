import type { ProfilePictureKind } from '@marketplace/events/profile';
import type { Role, UserStatus } from '@marketplace/events/roles';
import { isActiveAdmin } from '../domain/permissions';
import { pictureAttributes } from '../domain/profile-pictures';
import { Conflict, HttpError, NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models, query, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { commitAll, type counterAdd, TransactionCancelled, type UserEventInput, userOutboxWrite } from './transactions';
import { userTotalMoves } from './user-totals';

/**
 * An invited editor's user record before they sign up is keyed `invited-<ulid>`; it stands in
 * for the account in the admin's lists and holds the offered rates (see invitations.ts).
 */
export const PLACEHOLDER_PREFIX = 'invited-';

export const isPlaceholderUserId = (userId: string) => userId.startsWith(PLACEHOLDER_PREFIX);

export interface UserRecord {
  userId: string;
  email: string;
  displayName?: string;
  profileImageUrl?: string;
  roles: Role[];
  status: UserStatus;
  isActive: boolean;
  deletedAt?: string;
  invitedAt?: string;
  isEditor?: string;
  isAdmin?: string;
  /** Set by a standing change the identity provider must follow, until the identity worker has applied it. */
  signInRequestedAt?: string;
  /** The photographer's Stripe Customer, once a payment saved a card; never taken from a request. */
  stripeCustomerId?: string;
  // Profile: see the User entity's profile block (entities.ts).
  phone?: string;
  businessName?: string;
  profileImageKey?: string;
  profileImageState?: ProfilePictureState;
  logoKey?: string;
  logoState?: ProfilePictureState;
  createdAt: string;
  updatedAt: string;
}

type Entities = Parameters<typeof counterAdd>[0];

/** One user's record: read as the User entity's `get` reads it, without building the entity (direct-reads.ts). */
export const getUser = async (userId: string, { consistent = false } = {}) =>
  getRecord<UserRecord>(models.user, { userId }, { consistent });

export const findUserByEmail = async (email: string) => {
  const { data } = await query<UserRecord>(models.user, 'byEmail', { email: email.trim().toLowerCase() }).go({
    limit: 1,
  });
  return data[0] ?? null;
};

/** Every record with this email (an account, and an invited editor's placeholder until they sign up). */
export const usersWithEmail = async (email: string) => {
  return queryAll<UserRecord>(models.user, 'byEmail', { email: email.trim().toLowerCase() });
};

/** Every user record, newest first: the one partition of the `all` index (gsi2). */
export const listAllUsers = async () => {
  return queryAll<UserRecord>(models.user, 'all', {}, { order: 'desc' });
};

/**
 * How many admins can still act, as a counter (scope 'users', name 'activeAdmins') moved in the
 * same transaction as every write that makes or unmakes an active admin. Its decrement holds only
 * while the value is above one, so no pair of concurrent writes can leave the marketplace without
 * an admin.
 */
const ACTIVE_ADMINS = { scope: 'users', name: 'activeAdmins' } as const;
export const LAST_ADMIN_MESSAGE = 'The last active admin cannot be removed';

const readActiveAdmins = async () => {
  const counter = await getRecord<{ value: number }>(models.counter, ACTIVE_ADMINS, { consistent: true });
  return counter?.value ?? null;
};

/** The counter's value; a table from before the counter gets it once, counted from the users partition. */
export const activeAdminCount = async () => {
  const value = await readActiveAdmins();
  if (value !== null) return value;
  const counted = (await listAllUsers()).filter(isActiveAdmin).length;
  try {
    await writers()
      .counter.create({ ...ACTIVE_ADMINS, value: counted })
      .go();
    return counted;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await readActiveAdmins()) ?? counted;
  }
};

/** The counter's move; both require it to exist, so a write can never start it from zero. */
const activeAdminsMove = (e: Entities, delta: 1 | -1) =>
  delta > 0
    ? e.counter
        .update(ACTIVE_ADMINS)
        .add({ value: 1 })
        .where(({ value }, { exists }) => exists(value))
        .commit()
    : e.counter
        .update(ACTIVE_ADMINS)
        .add({ value: -1 })
        .where(({ value }, { gt }) => gt(value, 1))
        .commit();

const adminDelta = (before: UserRecord | null, after: Parameters<typeof isActiveAdmin>[0]) =>
  Number(isActiveAdmin(after)) - Number(before ? isActiveAdmin(before) : false);

/** A transaction cancelled by a condition or by a concurrent transaction on the same items. */
const lostRace = (error: unknown) =>
  error instanceof TransactionCancelled &&
  error.reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict');

export const EMAIL_TAKEN_MESSAGE =
  'An account with this email address already exists. Sign in with that account instead.';

export const emailTaken = () => new HttpError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE);

const normalizedEmail = (email: string) => email.trim().toLowerCase();

/** The id of the live account `email` belongs to, or null when it is free. */
export const emailOwner = async (email: string) => {
  const owner = await getRecord<{ userId: string }>(
    models.userEmail,
    { email: normalizedEmail(email) },
    { consistent: true },
  );
  return owner?.userId ?? null;
};

/**
 * The write that gives `email` to account `userId`, for the transaction that creates the account
 * or moves the email. It holds when the email is free, already this account's, held by an invited
 * editor's placeholder (whose sign-up is this write), or held by `from` (the record it moves from).
 */
export const claimEmail = (e: Entities, email: string, userId: string, { from }: { from?: string } = {}) =>
  e.userEmail
    .put({ email: normalizedEmail(email), userId })
    .where(({ userId: owner }, { notExists, eq, begins }) =>
      [notExists(owner), eq(owner, userId), begins(owner, PLACEHOLDER_PREFIX), ...(from ? [eq(owner, from)] : [])].join(
        ' OR ',
      ),
    )
    .commit();

/** Another live account with this email, found through the email index (tables from before the guard). */
const otherAccountWithEmail = async (email: string, userId: string) =>
  (await usersWithEmail(email)).find((u) => u.userId !== userId && !isPlaceholderUserId(u.userId) && !u.deletedAt);

/**
 * Creates the record the first time an identity signs in, with the claim on its email and the
 * admin list's totals in the same transaction: a second account with an email that already has one is refused (409), however the
 * second identity came about (an identity provider that lost its accounts, a second sign-up).
 * Two first requests of one identity can race; the loser's conditional create fails and it reads
 * the winner's record instead.
 */
export const createUserOnce = async (
  user: Pick<UserRecord, 'userId' | 'email' | 'displayName' | 'profileImageUrl' | 'roles' | 'status'>,
) => {
  const record = {
    ...user,
    email: normalizedEmail(user.email),
    ...roleIndexAttributes(user.roles),
  };
  if (await otherAccountWithEmail(record.email, user.userId)) {
    const existing = await getUser(user.userId, { consistent: true });
    if (existing) return existing;
    throw emailTaken();
  }
  const makesAdmin = adminDelta(null, { ...user, isActive: true }) > 0;
  if (makesAdmin) await activeAdminCount();
  try {
    await commitAll((e) => [
      e.user.create(record).commit(),
      claimEmail(e, record.email, user.userId),
      ...(makesAdmin ? [activeAdminsMove(e, 1)] : []),
      ...userTotalMoves(e, null, { ...record, isActive: true }),
    ]);
    return (await getUser(user.userId, { consistent: true }))!;
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    const existing = await getUser(user.userId, { consistent: true });
    if (existing) return existing;
    if (error.codes[1] === 'ConditionalCheckFailed') throw emailTaken();
    throw error;
  }
};

export interface ProfileChanges {
  displayName?: string;
  phone?: string | null;
  businessName?: string | null;
  profileImageUrl?: string | null;
}

/** Sets the fields given; null removes one. One write, whatever it changes. */
export const updateProfile = async (userId: string, changes: ProfileChanges) => {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const field of ['displayName', 'phone', 'businessName', 'profileImageUrl'] as const) {
    const value = changes[field];
    if (value === null) remove.push(field);
    else if (value !== undefined) set[field] = value;
  }
  const patch = writers().user.patch({ userId }).set(set);
  const op = remove.length ? patch.remove(remove as never) : patch;
  const { data } = await op.go({ response: 'all_new' });
  return data as UserRecord;
};

export type ProfilePictureState = 'processing' | 'ready' | 'failed';

/**
 * Gives the user a newly uploaded picture, 'processing', with its outbox event (the thumbnail
 * worker makes the sizes) in the same transaction, on the condition that the picture it replaces
 * is still the one read. Answers the key it replaced (whose objects the caller deletes), or null.
 * The same key saved again changes nothing.
 */
export const setProfilePicture = async (userId: string, kind: ProfilePictureKind, key: string) => {
  const attributes = pictureAttributes[kind];
  for (let attempt = 1; ; attempt++) {
    const user = await getUser(userId, { consistent: true });
    if (!user) throw new NotFound('User not found');
    const previous = user[attributes.key];
    if (previous === key) return { user, replaced: null };
    try {
      await commitAll((e) => [
        e.user
          .patch({ userId })
          .set({ [attributes.key]: key, [attributes.state]: 'processing' } as never)
          .where((attr, { eq, notExists }) => {
            const current = (attr as Record<string, never>)[attributes.key] as never;
            return previous ? eq(current, previous as never) : notExists(current);
          })
          .commit(),
        userOutboxWrite(e, {
          userId,
          eventType: attributes.event,
          description: kind === 'image' ? 'Profile image uploaded' : 'Business logo uploaded',
          actorId: userId,
        }),
      ]);
    } catch (error) {
      if (!lostRace(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('Your profile was changed at the same time. Please try again.');
      continue;
    }
    return { user: (await getUser(userId, { consistent: true }))!, replaced: previous ?? null };
  }
};

/** Removes the user's picture of this kind; answers the key it held (whose objects the caller deletes), or null. */
export const removeProfilePicture = async (userId: string, kind: ProfilePictureKind) => {
  const attributes = pictureAttributes[kind];
  for (let attempt = 1; ; attempt++) {
    const user = await getUser(userId, { consistent: true });
    if (!user) throw new NotFound('User not found');
    const previous = user[attributes.key];
    if (!previous) return { user, removed: null };
    try {
      await writers()
        .user.patch({ userId })
        .remove([attributes.key, attributes.state] as never)
        .where((attr, { eq }) => eq((attr as Record<string, never>)[attributes.key] as never, previous as never))
        .go();
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('Your profile was changed at the same time. Please try again.');
      continue;
    }
    return { user: (await getUser(userId, { consistent: true }))!, removed: previous };
  }
};

/**
 * The worker's result for a picture, recorded only while the user still has that picture: false
 * when it was replaced or removed meanwhile (the sizes just made belong to nothing).
 */
export const recordProfilePictureState = async (
  userId: string,
  kind: ProfilePictureKind,
  key: string,
  state: Exclude<ProfilePictureState, 'processing'>,
) => {
  const attributes = pictureAttributes[kind];
  try {
    await writers()
      .user.patch({ userId })
      .set({ [attributes.state]: state } as never)
      .where((attr, { eq }) => eq((attr as Record<string, never>)[attributes.key] as never, key as never))
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * The marks that place a user in the sparse role indexes (editors, admins), written with the
 * roles they follow.
 */
export const roleIndexAttributes = (roles: readonly Role[]) => ({
  isEditor: roles.includes('editor') ? ('editor' as const) : undefined,
  isAdmin: roles.includes('admin') ? ('admin' as const) : undefined,
});

/** What a roles or standing write changes; `deletedAt: null` removes the mark. */
export interface UserChange {
  roles?: Role[];
  status?: UserStatus;
  isActive?: boolean;
  deletedAt?: string | null;
  signInRequestedAt?: string;
}

const userPatch = (e: Entities, user: UserRecord, change: UserChange) => {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  if (change.roles) {
    set.roles = change.roles;
    // The sparse role indexes follow the roles in the same write.
    const marks = roleIndexAttributes(change.roles);
    for (const mark of ['isEditor', 'isAdmin'] as const) {
      if (marks[mark]) set[mark] = marks[mark];
      else remove.push(mark);
    }
  }
  if (change.status) set.status = change.status;
  if (change.isActive !== undefined) set.isActive = change.isActive;
  if (change.deletedAt) set.deletedAt = change.deletedAt;
  if (change.deletedAt === null) remove.push('deletedAt');
  if (change.signInRequestedAt) set.signInRequestedAt = change.signInRequestedAt;
  const patch = e.user.patch({ userId: user.userId }).set(set as never);
  return (remove.length ? patch.remove(remove as never) : patch)
    .where(({ updatedAt }, { eq }) => eq(updatedAt, user.updatedAt))
    .commit();
};

const MAX_ATTEMPTS = 5;

/**
 * Changes a user's roles or standing as one write conditioned on the record as it was read (a
 * concurrent change makes it read again and decide again), moving in the same transaction the
 * active-admin counter when the change makes or unmakes an active admin, and the admin list's
 * totals (user-totals.ts). `decide` may refuse by throwing. A change of standing the identity
 * provider must follow passes its `standingEvent`: the record is marked as waiting for it and the
 * event goes to the outbox in the same transaction (the identity worker applies it).
 */
export const changeUser = async (
  userId: string,
  decide: (user: UserRecord) => UserChange,
  standingEvent?: Omit<UserEventInput, 'userId'>,
  /** More writes of the same transaction (an owner's deletion: its activity row and its purge; data/account-deletion.ts). */
  alsoWrite?: (e: Entities, user: UserRecord) => ReturnType<Parameters<typeof commitAll>[0]>,
): Promise<UserRecord> => {
  for (let attempt = 1; ; attempt++) {
    const user = await getUser(userId, { consistent: true });
    if (!user) throw new NotFound('User not found');
    const change = decide(user);
    if (change.roles) change.roles = [...new Set(change.roles)];
    const after = {
      userId,
      roles: change.roles ?? user.roles,
      isActive: change.isActive ?? user.isActive,
      status: change.status ?? user.status,
    };
    const delta = adminDelta(user, after);
    if (delta !== 0) {
      const admins = await activeAdminCount();
      if (delta < 0 && admins <= 1) throw new Conflict(LAST_ADMIN_MESSAGE);
    }
    try {
      await commitAll((e) => [
        userPatch(e, user, standingEvent ? { ...change, signInRequestedAt: new Date().toISOString() } : change),
        ...(delta ? [activeAdminsMove(e, delta as 1 | -1)] : []),
        ...userTotalMoves(e, user, after),
        ...(standingEvent ? [userOutboxWrite(e, { userId, ...standingEvent })] : []),
        ...(alsoWrite ? alsoWrite(e, user) : []),
      ]);
    } catch (error) {
      if (!lostRace(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('This user was changed at the same time. Please try again.');
      continue;
    }
    return (await getUser(userId, { consistent: true }))!;
  }
};

/** Replaces a user's roles; keeps the sparse editor index and the active-admin count in step. */
export const setRoles = (userId: string, roles: Role[]) => changeUser(userId, () => ({ roles }));
