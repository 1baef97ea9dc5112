import type { SwitchableEmailKind } from '@marketplace/events/notifications';
import { NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { writers } from './direct-writes';
import { getUser } from './users';

/**
 * The switches of the emails a user may turn off, kept on the user record as the set of kinds
 * turned off (`mutedEmails`). Each switch is one UpdateItem (ADD or DELETE on the set), so two
 * switches at once never undo each other and switching off twice is the same as once.
 */

/** The kinds this user switched off, read strongly: a switch just turned must hold for the next send. */
export const mutedEmailKinds = async (userId: string) => {
  const user = await getUser(userId, { consistent: true });
  return user ? mutedOf(user) : null;
};

/**
 * The kinds off on a user record. ElectroDB answers a string set as an array, and so do the reads
 * beside it (data/direct-reads.ts); a Set from any other read of the document client is read too.
 */
export const mutedOf = (user: object) => {
  const muted = (user as { mutedEmails?: unknown }).mutedEmails;
  if (muted instanceof Set) return new Set([...muted].filter((kind): kind is string => typeof kind === 'string'));
  return new Set(Array.isArray(muted) ? (muted as string[]) : []);
};

/**
 * Turns kinds on and off for an existing user; answers the kinds now off. A user that does not
 * exist is NotFound, and nothing is written.
 */
export const setEmailSwitches = async (userId: string, changes: Partial<Record<SwitchableEmailKind, boolean>>) => {
  const off = Object.entries(changes)
    .filter(([, on]) => on === false)
    .map(([kind]) => kind);
  const on = Object.entries(changes)
    .filter(([, on]) => on === true)
    .map(([kind]) => kind);
  let update = writers().user.patch({ userId });
  // One UpdateItem may not ADD and DELETE the same attribute: the 'on' kinds go in a second one.
  try {
    if (off.length) await update.add({ mutedEmails: off }).go();
    if (on.length) {
      update = writers().user.patch({ userId });
      await update.delete({ mutedEmails: on }).go();
    }
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFound('No such account');
    throw error;
  }
  return (await mutedEmailKinds(userId)) ?? new Set<string>();
};
