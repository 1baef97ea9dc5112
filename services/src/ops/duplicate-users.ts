import type { Role } from '@marketplace/events/roles';
import { isConditionFailure } from '../data/conditional-write';
import { marketplace } from '../data/entities';
import { commitAll } from '../data/transactions';
import { userTotalMoves } from '../data/user-totals';
import { changeUser, isPlaceholderUserId, listAllUsers, type UserRecord } from '../data/users';

/**
 * Tables written before every account creation claimed its email can hold several live records
 * for one email: a local identity emulator that started empty after an unclean stop gave each
 * demo account a new id at every start, and the seed made a record for each. This repair merges
 * them and gives every live account its email claim. It reads every user (an offline ops job,
 * never a request), so it runs once per table and leaves a mark; `force` runs it again.
 */
const REPAIR_MARK = { source: 'repair', messageId: 'user-emails-v1' } as const;
// The mark must never expire: the table's TTL would delete it (year 9999, in epoch seconds).
const NEVER = 253_402_300_799;

export interface MergedEmail {
  email: string;
  kept: string;
  /** Duplicates with history (orders, payouts): soft-deleted, their history stays with them. */
  retired: string[];
  /** Duplicates with nothing of their own: removed with their rates. */
  removed: string[];
}

const entities = () => marketplace().entities;

const repaired = async () => {
  const { data } = await entities().processedMessage.get(REPAIR_MARK).go({ consistent: true });
  return data !== null;
};

/** Whether anything else in the table belongs to this user: orders placed or worked on, payouts. */
const hasHistory = async (userId: string) => {
  const e = entities();
  const [placed, worked, paid] = await Promise.all([
    e.order.query.byPhotographer({ photographerId: userId }).go({ limit: 1 }),
    e.order.query.byEditor({ editorId: userId }).go({ limit: 1 }),
    e.payout.query.byEditor({ editorId: userId }).go({ limit: 1 }),
  ]);
  return placed.data.length + worked.data.length + paid.data.length > 0;
};

/** The record to keep: the newest one with history (the one in use lately), else the oldest. */
const keeperOf = (records: { user: UserRecord; history: boolean }[]) => {
  const withHistory = records.filter((r) => r.history);
  const byAge = (withHistory.length ? withHistory : records).sort((a, b) =>
    a.user.createdAt.localeCompare(b.user.createdAt),
  );
  return (withHistory.length ? byAge.at(-1) : byAge[0])!.user;
};

const claim = async (email: string, userId: string) => {
  await entities().userEmail.put({ email, userId }).go();
};

const claimIfFree = async (email: string, userId: string) => {
  try {
    await entities().userEmail.create({ email, userId }).go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

const retire = (userId: string) =>
  changeUser(userId, (current) => ({ isActive: false, deletedAt: current.deletedAt ?? new Date().toISOString() }));

const remove = async (userId: string) => {
  // Retired first, so the active-admin counter moves in the same transaction as the standing.
  const retired = await retire(userId);
  const e = entities();
  const { data: rates } = await e.editorRate.query.byEditor({ editorId: userId }).go({ pages: 'all' });
  for (const rate of rates) await e.editorRate.delete({ editorId: userId, jobTypeId: rate.jobTypeId }).go();
  // The record leaves the admin list's totals in the transaction that deletes it, as it was read.
  await commitAll((t) => [
    t.user
      .delete({ userId })
      .where(({ updatedAt }, { eq }) => eq(updatedAt, retired.updatedAt))
      .commit(),
    ...userTotalMoves(t, retired, null),
  ]);
};

const mergeGroup = async (email: string, group: UserRecord[]): Promise<MergedEmail> => {
  const records = await Promise.all(group.map(async (user) => ({ user, history: await hasHistory(user.userId) })));
  const kept = keeperOf(records);
  const roles = [...new Set<Role>(group.flatMap((u) => u.roles))];
  if (roles.some((role) => !kept.roles.includes(role))) await changeUser(kept.userId, () => ({ roles }));
  const merged: MergedEmail = { email, kept: kept.userId, retired: [], removed: [] };
  for (const { user, history } of records) {
    if (user.userId === kept.userId) continue;
    if (history) {
      await retire(user.userId);
      merged.retired.push(user.userId);
    } else {
      await remove(user.userId);
      merged.removed.push(user.userId);
    }
  }
  await claim(email, kept.userId);
  return merged;
};

export const repairUserEmails = async ({ force = false } = {}): Promise<MergedEmail[]> => {
  if (!force && (await repaired())) return [];
  const byEmail = new Map<string, UserRecord[]>();
  for (const user of await listAllUsers()) {
    if (isPlaceholderUserId(user.userId) || user.deletedAt) continue;
    byEmail.set(user.email, [...(byEmail.get(user.email) ?? []), user]);
  }
  const merged: MergedEmail[] = [];
  for (const [email, group] of byEmail) {
    if (group.length === 1) await claimIfFree(email, group[0]!.userId);
    else merged.push(await mergeGroup(email, group));
  }
  await entities()
    .processedMessage.put({ ...REPAIR_MARK, expiresAt: NEVER, state: 'done' })
    .go();
  return merged;
};
