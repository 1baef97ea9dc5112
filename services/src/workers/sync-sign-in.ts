import type { UserEventMessage } from '@marketplace/events/user-events';
import { setSignInDisabled } from '../adapters/firebase-admin';
import { logger } from '../adapters/logger';
import { markSignInApplied, signInDisabledFor } from '../data/sign-in-state';
import { getUser, isPlaceholderUserId } from '../data/users';
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

export const handler = outboxConsumer('applying a sign-in state', {
  user: async (event) => {
    const outcome = await applySignInState(event);
    logger.info('sign-in state applied', { userId: event.userId, eventType: event.eventType, outcome });
  },
});
