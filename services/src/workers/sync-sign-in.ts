import type { UserEventMessage } from '@marketplace/events/user-events';
import { identityAdmin, setSignInDisabled } from '../adapters/firebase-admin';
import { revokeTokensBefore } from '../adapters/identity-toolkit';
import { logger } from '../adapters/logger';
import { config } from '../config';
import { markSignInApplied, signInDisabledFor } from '../data/sign-in-state';
import { getUser, isPlaceholderUserId } from '../data/users';
import { signedOutBeforeOf } from '../http/recent-sign-in';
import { outboxConsumer } from './outbox-message';

/** Reads and applies again while the user's standing keeps changing under it; then SQS retries. */
const MAX_PASSES = 5;

/**
 * Makes Firebase follow a user's standing after a suspension, deletion or reactivation (the
 * outbox's user events, forwarded by the event-log worker). The event only says that the
 * standing changed: what is applied is the standing the table holds when the worker runs, so a
 * delivery repeated, or late behind a newer change, applies the newest standing and undoes
 * nothing. After applying, the record's waiting mark is removed on the condition that the record
 * is still as read; if it changed meanwhile (a newer standing, perhaps applied by another
 * delivery before this one's call reached Firebase), the worker reads and applies again, so the
 * last call to reach Firebase is always of the latest standing. A Firebase failure is thrown:
 * SQS delivers the message again after the queue's visibility timeout.
 */
export const applySignInState = async (event: Pick<UserEventMessage, 'userId'>) => {
  let user = await getUser(event.userId, { consistent: true });
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    // No record, or an invited editor's placeholder: there is no account to follow anything.
    if (!user || isPlaceholderUserId(user.userId)) return 'no-user' as const;
    const disabled = signInDisabledFor(user);
    await setSignInDisabled(user.userId, disabled);
    const outcome = disabled ? ('disabled' as const) : ('enabled' as const);
    if (user.signInRequestedAt && (await markSignInApplied(user))) return outcome;
    const now = await getUser(event.userId, { consistent: true });
    if (!user.signInRequestedAt && now?.updatedAt === user.updatedAt) return outcome;
    user = now;
  }
  throw new Error(`the standing of user ${event.userId} kept changing while it was applied`);
};

/** Firebase Admin's OAuth access token for Identity Toolkit calls as the project ('owner' at the emulator). */
const adminAccessToken = async () => {
  if (config().FIREBASE_AUTH_EMULATOR_HOST) return 'owner';
  const auth = await identityAdmin();
  const credential = auth.app.options.credential;
  if (!credential) throw new Error('Firebase Admin has no credential to revoke refresh tokens with');
  return (await credential.getAccessToken()).access_token;
};

const codeOf = (error: unknown) => (error as { code?: string })?.code;

/**
 * Makes Firebase follow the account's security as the table holds it (an email change, a
 * sign-out-everywhere cutoff): the account's email becomes the record's, and refresh tokens from
 * before the cutoff stop working (validSince = the cutoff the user asked at, not the moment this
 * runs: the browser that asked has signed in again since, and stays signed in). Both are read from
 * the record, so a repeated or late delivery applies the newest state and undoes nothing.
 */
export const applyAccountSecurity = async (event: Pick<UserEventMessage, 'userId'>) => {
  const user = await getUser(event.userId, { consistent: true });
  if (!user || isPlaceholderUserId(user.userId)) return 'no-user' as const;
  const auth = await identityAdmin();
  let account: Awaited<ReturnType<typeof auth.getUser>>;
  try {
    account = await auth.getUser(user.userId);
  } catch (error) {
    if (codeOf(error) === 'auth/user-not-found') return 'no-account' as const;
    throw error;
  }
  const done: string[] = [];
  if (account.email?.toLowerCase() !== user.email) {
    try {
      await auth.updateUser(user.userId, { email: user.email, emailVerified: true });
      done.push('email');
    } catch (error) {
      // Another Firebase account holds the address (one that never used the marketplace): retrying
      // cannot help; the record keeps the address, and support resolves it.
      if (codeOf(error) !== 'auth/email-already-exists') throw error;
      logger.error('the email change cannot be applied at Firebase: the address has another account there', {
        userId: user.userId,
      });
    }
  }
  const cutoff = signedOutBeforeOf(user);
  const validAfter = account.tokensValidAfterTime ? Math.floor(Date.parse(account.tokensValidAfterTime) / 1000) : 0;
  if (cutoff !== undefined && !(validAfter >= cutoff)) {
    await revokeTokensBefore(user.userId, cutoff, await adminAccessToken());
    done.push('refresh tokens');
  }
  return done.length ? (`applied ${done.join(' and ')}` as const) : ('already applied' as const);
};

const securityEvents = new Set<UserEventMessage['eventType']>(['email_changed', 'signed_out_everywhere']);

export const handler = outboxConsumer('applying a sign-in state', {
  user: async (event) => {
    const outcome = securityEvents.has(event.eventType)
      ? await applyAccountSecurity(event)
      : await applySignInState(event);
    logger.info('sign-in state applied', { userId: event.userId, eventType: event.eventType, outcome });
  },
});
