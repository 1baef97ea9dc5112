import { createHash, randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { Conflict, HttpError, NotFound } from '../http/errors';
import { getRecord, models } from './direct-reads';
import { type RequestOrigin, securityActivityWrite } from './security-activity';
import { commitAll, TransactionCancelled, userOutboxWrite } from './transactions';
import { emailOwner, getUser, type UserRecord } from './users';

/**
 * The account's security changes that live in the table: 'Sign out of all other devices' (a cutoff
 * on the user record), and an email change (pending until the new address's link is opened, then
 * the one-account-per-email guard moves with the record's email in one transaction). Each writes
 * its activity row, and the outbox event the identity worker follows, in the same transaction.
 */

/** How long an email-change link works. */
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 60 * 60;

export const EMAIL_IN_USE_MESSAGE = 'That email address is already used by another account.';
export const SAME_EMAIL_MESSAGE = 'That is already your email address.';
export const LINK_NOT_VALID_MESSAGE =
  'This link is not valid any more. Links work once, for 24 hours, and only the newest one you asked for works.';

const emailInUse = () => new Conflict(EMAIL_IN_USE_MESSAGE, undefined, 'EMAIL_TAKEN');
const linkNotValid = () => new HttpError(410, 'LINK_NOT_VALID', LINK_NOT_VALID_MESSAGE);

/**
 * Sets the cutoff (epoch seconds, now): every ID token from a sign-in before it is refused from now
 * on, with the activity row and the outbox event (Firebase revokes the refresh tokens, sockets
 * close) in the same write. A later cutoff never moves back.
 */
export const signOutEverywhere = async (user: UserRecord, origin: RequestOrigin, now = new Date()) => {
  const cutoff = Math.floor(now.getTime() / 1000);
  await commitAll((e) => [
    e.user
      .patch({ userId: user.userId })
      .set({ signedOutBefore: cutoff })
      .where(
        ({ signedOutBefore }, { notExists, lt }) => `${notExists(signedOutBefore)} OR ${lt(signedOutBefore, cutoff)}`,
      )
      .commit(),
    securityActivityWrite(e, { userId: user.userId, kind: 'signed_out_everywhere', ...origin }, now),
    userOutboxWrite(
      e,
      {
        userId: user.userId,
        eventType: 'signed_out_everywhere',
        description: 'Signed out of all devices',
        actorId: user.userId,
      },
      now,
    ),
  ]).catch((error: unknown) => {
    // A cutoff at this very second already set (a double click): the same outcome.
    if (error instanceof TransactionCancelled && error.codes[0] === 'ConditionalCheckFailed') return;
    throw error;
  });
  return cutoff;
};

export interface EmailChangeRecord {
  tokenHash: string;
  changeId: string;
  userId: string;
  oldEmail: string;
  newEmail: string;
  expiresAt: number;
  usedAt?: string;
  createdAt: string;
}

export const hashEmailChangeToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Stores a pending change to `newEmail` and returns the link's token (only its hash is kept). The
 * address must be free now; it is checked again, in the transaction, when the link is opened. A
 * newer request replaces the pending one (its link stops working). Nothing else changes yet.
 */
export const requestEmailChange = async (
  user: UserRecord,
  newEmail: string,
  origin: RequestOrigin,
  now = new Date(),
) => {
  const email = newEmail.trim().toLowerCase();
  if (email === user.email) throw new HttpError(400, 'SAME_EMAIL', SAME_EMAIL_MESSAGE);
  const owner = await emailOwner(email);
  if (owner && owner !== user.userId) throw emailInUse();
  const token = randomBytes(32).toString('base64url');
  const record: EmailChangeRecord = {
    tokenHash: hashEmailChangeToken(token),
    changeId: ulid(now.getTime()),
    userId: user.userId,
    oldEmail: user.email,
    newEmail: email,
    expiresAt: Math.floor(now.getTime() / 1000) + EMAIL_CHANGE_TTL_SECONDS,
    createdAt: now.toISOString(),
  };
  await commitAll((e) => [
    e.emailChange.create(record).commit(),
    e.user.patch({ userId: user.userId }).set({ pendingEmailChangeId: record.changeId }).commit(),
    securityActivityWrite(e, { userId: user.userId, kind: 'email_change_requested', ...origin }, now),
  ]);
  return { token, record };
};

const findChange = async (token: string) => {
  return getRecord<EmailChangeRecord>(
    models.emailChange,
    { tokenHash: hashEmailChangeToken(token) },
    { consistent: true },
  );
};

/** The pending change a link names, when the link still works (unused, unexpired, the newest asked for). */
export const readEmailChange = async (token: string, now = new Date()) => {
  const change = await findChange(token);
  if (!change) throw new NotFound('This link is not valid. Check that you opened the whole link from the email.');
  if (change.usedAt || change.expiresAt <= Math.floor(now.getTime() / 1000)) throw linkNotValid();
  const user = await getUser(change.userId, { consistent: true });
  const pendingId = (user as { pendingEmailChangeId?: string } | null)?.pendingEmailChangeId;
  if (!user || user.deletedAt || pendingId !== change.changeId || user.email !== change.oldEmail) throw linkNotValid();
  return { change, user };
};

/**
 * Moves the account to the new address in ONE transaction: the link marked used, the old
 * address's guard deleted, the new one put on the condition that the address is free (so of two
 * accounts racing for one address exactly one wins), the record's email changed on the condition
 * that this change is still the pending one, the activity row, and the outbox event that makes
 * Firebase follow. The loser of a race is told the address is taken; nothing of theirs changes.
 */
export const confirmEmailChange = async (token: string, origin: RequestOrigin, now = new Date()) => {
  const { change, user } = await readEmailChange(token, now);
  try {
    await commitAll((e) => [
      e.emailChange
        .patch({ tokenHash: change.tokenHash })
        .set({ usedAt: now.toISOString() })
        .where(({ usedAt }, { notExists }) => notExists(usedAt))
        .commit(),
      // The guard is free, or this account's already: never an invited editor's placeholder's.
      e.userEmail
        .put({ email: change.newEmail, userId: change.userId })
        .where(({ userId }, { notExists, eq }) => `${notExists(userId)} OR ${eq(userId, change.userId)}`)
        .commit(),
      e.userEmail
        .delete({ email: change.oldEmail })
        .where(({ userId }, { notExists, eq }) => `${notExists(userId)} OR ${eq(userId, change.userId)}`)
        .commit(),
      e.user
        .patch({ userId: change.userId })
        .set({ email: change.newEmail })
        .remove(['pendingEmailChangeId'])
        .where(
          ({ pendingEmailChangeId, email }, { eq }) =>
            `${eq(pendingEmailChangeId, change.changeId)} AND ${eq(email, change.oldEmail)}`,
        )
        .commit(),
      securityActivityWrite(e, { userId: change.userId, kind: 'email_changed', ...origin }, now),
      userOutboxWrite(
        e,
        {
          userId: change.userId,
          eventType: 'email_changed',
          description: 'Email address changed',
          actorId: change.userId,
        },
        now,
      ),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.codes[1] === 'ConditionalCheckFailed') throw emailInUse();
    if (error.conditionFailed) throw linkNotValid();
    throw error;
  }
  return { userId: change.userId, oldEmail: change.oldEmail, newEmail: change.newEmail, user };
};
