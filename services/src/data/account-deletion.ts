import {
  ACCOUNT_PURGE_AFTER_DAYS,
  type AccountDeletedView,
  CLAIMED_ORDERS,
  ORDERS_IN_PROGRESS,
} from '@marketplace/events/account-data';
import { logger } from '../adapters/logger';
import { profilePictureObjects } from '../domain/profile-pictures';
import { Conflict } from '../http/errors';
import { softDeleteAccount } from './admin-users';
import { EXPORT_KEY_PREFIX } from './data-exports';
import { getRecord, models, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { marketplace } from './entities';
import { definitions } from './entity-definitions';
import { type RequestOrigin, securityActivityWrite } from './security-activity';
import { commitAll, TransactionCancelled } from './transactions';
import { getUser, type UserRecord } from './users';

/**
 * 'Delete my account' (docs/decisions/0106). The owner's delete is the admin's soft delete
 * (admin-users.ts softDeleteAccount: isActive false, deletedAt, the identity worker turns sign-in
 * off), with three more writes in the same transaction: the account's security activity row, the
 * purge it schedules (accountDeletion, due after the retention), and a check that no order is
 * still in the account's hands. Orders, payments and billing entries stay: the other party's
 * orders need them, and tax law keeps invoices. The purge (purgeDueAccounts, the scheduled
 * purge-deleted-accounts worker) later removes the personal fields.
 */
export const PURGE_AFTER_MS = ACCOUNT_PURGE_AFTER_DAYS * 24 * 60 * 60 * 1000;

export const PURGE_QUEUE = 'due';

/** The tombstone address a purged account keeps (its email is required): no mail can go to it. */
export const purgedEmail = (userId: string) => `deleted-${userId.toLowerCase()}@deleted.invalid`;

const activeOrdersOf = async (scope: string) => {
  const counter = await getRecord<{ value?: number }>(
    models.counter,
    { scope, name: 'activeOrders' },
    { consistent: true },
  );
  return Math.max(0, counter?.value ?? 0);
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What must be finished before the account can go: a photographer's paid orders not delivered yet
 * (an editor may be working on them), an editor's claimed orders (in progress or sent back for a
 * revision). Read from the counters the order writes keep; checked again inside the transaction.
 */
const refuseWhileOrdersOpen = async (userId: string) => {
  const [asPhotographer, asEditor] = await Promise.all([
    activeOrdersOf(`photographer#${userId}`),
    activeOrdersOf(`editor#${userId}`),
  ]);
  if (asPhotographer > 0) {
    throw new Conflict(
      `You have ${plural(asPhotographer, 'order', 'orders')} in progress. Wait until ${asPhotographer === 1 ? 'it is' : 'they are'} delivered and accepted, or cancel ${asPhotographer === 1 ? 'it' : 'them'}, before deleting your account.`,
      { activeOrders: asPhotographer },
      ORDERS_IN_PROGRESS,
    );
  }
  if (asEditor > 0) {
    throw new Conflict(
      `You are holding ${plural(asEditor, 'claimed order', 'claimed orders')}. Deliver ${asEditor === 1 ? 'it' : 'them'} (or ask an admin to reassign ${asEditor === 1 ? 'it' : 'them'}) before deleting your account.`,
      { claimedOrders: asEditor },
      CLAIMED_ORDERS,
    );
  }
};

export const deleteOwnAccount = async ({
  userId,
  origin,
  now = new Date(),
}: {
  userId: string;
  origin: RequestOrigin;
  now?: Date;
}): Promise<AccountDeletedView> => {
  await refuseWhileOrdersOpen(userId);
  const purgeAfter = new Date(now.getTime() + PURGE_AFTER_MS).toISOString();
  const noneActive =
    (_scope: string) =>
    (
      { value }: { value: unknown },
      { notExists, lte }: { notExists: (a: unknown) => string; lte: (a: unknown, v: number) => string },
    ) =>
      `${notExists(value)} OR ${lte(value, 0)}`;
  let deleted: UserRecord;
  try {
    deleted = await softDeleteAccount({
      userId,
      actorId: userId,
      alsoWrite: (e, user) => [
        securityActivityWrite(e, { userId, kind: 'account_deleted', ...origin }, now),
        e.accountDeletion
          .put({ userId, deletedAt: user.deletedAt ?? now.toISOString(), purgeAfter, purgeQueue: PURGE_QUEUE })
          .commit(),
        e.counter
          .check({ scope: `photographer#${userId}`, name: 'activeOrders' })
          .where(noneActive('photographer') as never)
          .commit(),
        e.counter
          .check({ scope: `editor#${userId}`, name: 'activeOrders' })
          .where(noneActive('editor') as never)
          .commit(),
      ],
    });
  } catch (error) {
    // An order claimed or paid at the very moment: say what to finish, as before.
    if (error instanceof Conflict || error instanceof TransactionCancelled) await refuseWhileOrdersOpen(userId);
    throw error;
  }
  return { deletedAt: deleted.deletedAt ?? now.toISOString(), purgeAfter };
};

export interface AccountDeletionRecord {
  userId: string;
  deletedAt: string;
  purgeAfter: string;
  purgeQueue?: string;
  purgedAt?: string;
}

export const getAccountDeletion = async (userId: string) => {
  return getRecord<AccountDeletionRecord>(models.accountDeletion, { userId }, { consistent: true });
};

/** A run of the purge takes this many due accounts at most; the next run takes the rest. */
export const PURGE_BATCH = 25;

/** The purges due by `asOf`, oldest first: a page of the purge index's one partition. */
export const duePurges = async (asOf: Date, limit = PURGE_BATCH) => {
  const { data } = await marketplace()
    .entities.accountDeletion.query.purgeQueue({ purgeQueue: PURGE_QUEUE })
    .lte({ purgeAfter: asOf.toISOString() })
    .go({ limit });
  return data as AccountDeletionRecord[];
};

/** The personal fields of a user record; the purge removes those the record's model has. */
export const PERSONAL_FIELDS = [
  'displayName',
  'profileImageUrl',
  'phone',
  'businessName',
  'profileImageKey',
  'profileImageState',
  'logoKey',
  'logoState',
  'stripeCustomerId',
  'pendingEmailChangeId',
  // The saved editing style: its notes are the photographer's words, its photos go with profiles/{userId}/.
  'editingStyle',
] as const;

const personalFieldsOf = (user: UserRecord) => {
  const modelled = definitions.user.attributes as Record<string, unknown>;
  return PERSONAL_FIELDS.filter(
    (field) => field in modelled && (user as unknown as Record<string, unknown>)[field] !== undefined,
  );
};

/** Hands for the purge's steps outside the table, so a test or a run without Stripe can say what it used. */
export interface PurgeServices {
  /** Every object under the prefix removed. */
  deletePrefix: (prefix: string) => Promise<number>;
  /** These objects removed (the pictures' sizes, which are named by a hash, not under the user's prefix). */
  deleteKeys: (keys: readonly string[]) => Promise<void>;
  /** The Stripe customer's saved cards detached. */
  detachCards: (customerId: string) => Promise<number>;
}

export type PurgeOutcome = 'purged' | 'reactivated' | 'no-user';

/**
 * Removes one deleted account's personal data: its pictures and data downloads in S3, the saved
 * cards at Stripe, then in one transaction the personal fields (the email becomes a tombstone),
 * the email guard (the address may make a new account), the latest data download, and the purge's
 * own mark. An account reactivated meanwhile is left alone (the mark goes). Safe to run again.
 */
export const purgeAccount = async (deletion: AccountDeletionRecord, services: PurgeServices, now = new Date()) => {
  const dequeue = (e: Parameters<Parameters<typeof commitAll>[0]>[0]) =>
    e.accountDeletion
      .patch({ userId: deletion.userId })
      .set({ purgedAt: now.toISOString() })
      .remove(['purgeQueue'])
      .commit();
  const user = await getUser(deletion.userId, { consistent: true });
  if (!user || !user.deletedAt || user.isActive) {
    await commitAll((e) => [dequeue(e)]);
    return (user ? 'reactivated' : 'no-user') satisfies PurgeOutcome;
  }
  const pictureKeys = [user.profileImageKey, user.logoKey].filter((key): key is string => Boolean(key));
  await services.deleteKeys(pictureKeys.flatMap(profilePictureObjects));
  await services.deletePrefix(`profiles/${user.userId}/`);
  await services.deletePrefix(`${EXPORT_KEY_PREFIX}${user.userId}/`);
  if (user.stripeCustomerId) await services.detachCards(user.stripeCustomerId);
  const guard = await getRecord<{ userId?: string }>(models.userEmail, { email: user.email }, { consistent: true });
  const holdsEmail = guard?.userId === user.userId;
  const remove = personalFieldsOf(user);
  const feedback = await feedbackOf(user.userId);
  await commitAll((e) => [
    e.user
      .patch({ userId: user.userId })
      .set({ email: purgedEmail(user.userId) })
      .remove(remove as never)
      .where(({ updatedAt }, { eq }) => eq(updatedAt, user.updatedAt))
      .commit(),
    ...(holdsEmail
      ? [
          e.userEmail
            .delete({ email: user.email })
            .where(({ userId }, { eq }) => eq(userId, user.userId))
            .commit(),
        ]
      : []),
    e.dataExport.delete({ userId: user.userId }).commit(),
    dequeue(e),
  ]);
  // The name and address the admin's feedback list shows with each message the account sent.
  for (const item of feedback) {
    await writers()
      .feedback.patch({ feedbackId: item.feedbackId })
      .set({ userName: 'Deleted account', userEmail: purgedEmail(user.userId) })
      .go();
  }
  return 'purged' satisfies PurgeOutcome;
};

const feedbackOf = async (userId: string) => {
  return queryAll<{ feedbackId: string }>(models.feedback, 'byUser', { userId });
};

/** One run of the purge: every due account of a batch, each on its own (one failing leaves the rest). */
export const purgeDueAccounts = async (services: PurgeServices, asOf = new Date()) => {
  const summary: Record<PurgeOutcome | 'failed', number> = { purged: 0, reactivated: 0, 'no-user': 0, failed: 0 };
  for (const deletion of await duePurges(asOf)) {
    try {
      summary[await purgeAccount(deletion, services)] += 1;
    } catch (error) {
      summary.failed += 1;
      logger.error('account purge failed', { userId: deletion.userId, error: error as Error });
    }
  }
  return summary;
};
