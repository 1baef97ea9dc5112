import type { Role, UserStatus } from '@marketplace/events/roles';
import { roles as allRoles, userStatuses } from '@marketplace/events/roles';
import { models, queryAll } from './direct-reads';
import { counterAdd } from './transactions';

type Entities = Parameters<typeof counterAdd>[0];

/**
 * The totals of the admin's user and editor lists, as counters moved in the same transaction as
 * every write that creates, changes or removes a user record (users.ts, invitations.ts,
 * admin-users.ts, the duplicate repair). The lists filter on four things: the kind of record (an
 * account, or an invited editor's placeholder), whether it is deleted (isActive), its status and
 * one role. So each record counts once in the cell of its (kind, standing, status) for "any
 * role", and once more in that cell of each role it holds (roles are a set); every filter the
 * screens can send is then the sum of at most 2 x 2 x 3 = 12 cells, all in one scope read by one
 * Query.
 *
 * Like the order list's counters these are few items that many writes touch; commitAll retries
 * the collisions that causes (docs/decisions/0053-totals-from-counters-every-list-a-page.md). A burst of 100 sign-ups at once all succeed
 * against DynamoDB Local; splitting each cell into shards is the step to take if real traffic
 * ever makes the retries frequent.
 */
export const USER_TOTALS_SCOPE = 'userTotals';

export type UserKind = 'account' | 'invited';
export type Standing = 'active' | 'deleted';

/** What the counters look at on a user record. */
export interface CountedUser {
  userId: string;
  roles: readonly Role[];
  status: UserStatus;
  isActive: boolean;
}

export const userKinds: readonly UserKind[] = ['account', 'invited'];
export const standings: readonly Standing[] = ['active', 'deleted'];

/** Placeholder ids begin with this (users.ts holds the same prefix; importing it would make a cycle). */
const kindOf = (userId: string): UserKind => (userId.startsWith('invited-') ? 'invited' : 'account');

interface Cell {
  role: Role | 'any';
  kind: UserKind;
  standing: Standing;
  status: UserStatus;
}

const cellName = ({ role, kind, standing, status }: Cell) => `role#${role}#${kind}#${standing}#${status}`;

/** The counter names one user record counts in: its "any role" cell and one per role it holds. */
export const userTotalNames = (user: CountedUser) => {
  const base = {
    kind: kindOf(user.userId),
    standing: user.isActive ? ('active' as const) : ('deleted' as const),
    status: user.status,
  };
  return ['any' as const, ...new Set(user.roles)].map((role) => cellName({ ...base, role }));
};

type Change = readonly [before: CountedUser | null, after: CountedUser | null];

/**
 * The counter writes that move users from `before` to `after` (null: no record), for the
 * transaction that makes the changes. Cells the changes leave alone are not touched, so a profile
 * change writes nothing and a role change two items; each counter is written once however many
 * changes move it. The caller's writes must be conditioned on the records as read, so the
 * counters move exactly when the records do.
 */
export const userTotalChanges = (e: Entities, changes: readonly Change[]) => {
  const deltas = new Map<string, number>();
  const move = (user: CountedUser | null, by: number) => {
    for (const name of user ? userTotalNames(user) : []) deltas.set(name, (deltas.get(name) ?? 0) + by);
  };
  for (const [before, after] of changes) {
    move(before, -1);
    move(after, 1);
  }
  return [...deltas]
    .filter(([, delta]) => delta !== 0)
    .map(([name, delta]) => counterAdd(e, USER_TOTALS_SCOPE, name, delta));
};

/** The counter writes of one user's change (see userTotalChanges). */
export const userTotalMoves = (e: Entities, before: CountedUser | null, after: CountedUser | null) =>
  userTotalChanges(e, [[before, after]]);

export interface UserTotalFilter {
  role?: Role | undefined;
  status?: UserStatus | undefined;
  includeInactive?: boolean;
  includeInvited?: boolean;
}

/** Every cell in these sets. */
const namesOf = (
  role: Role | 'any',
  kinds: readonly UserKind[],
  standingsWanted: readonly Standing[],
  statuses: readonly UserStatus[],
) =>
  kinds.flatMap((kind) =>
    standingsWanted.flatMap((standing) => statuses.map((status) => cellName({ role, kind, standing, status }))),
  );

/** Every counter name whose sum is the total of the admin's user list under this filter. */
export const userTotalNamesFor = (filter: UserTotalFilter) =>
  namesOf(
    filter.role ?? 'any',
    filter.includeInvited ? userKinds : ['account'],
    filter.includeInactive ? standings : ['active'],
    filter.status ? [filter.status] : userStatuses,
  );

/** Every counter the family keeps (for the offline recount, which lists them all, zeros too). */
export const allUserTotalNames = () =>
  (['any', ...allRoles] as const).flatMap((role) => namesOf(role, userKinds, standings, userStatuses));

/** The scope's counters by name: a few dozen small items, one Query. */
const readTotals = async () => {
  const counters = await queryAll<{ name: string; value: number }>(models.counter, 'byScope', {
    scope: USER_TOTALS_SCOPE,
  });
  return new Map(counters.map((c) => [c.name, c.value]));
};

const sumOf = (counters: Map<string, number>, names: readonly string[]) =>
  Math.max(
    0,
    names.reduce((sum, name) => sum + (counters.get(name) ?? 0), 0),
  );

/** The total of the admin's user list under these filters. */
export const usersTotal = async (filter: UserTotalFilter) => sumOf(await readTotals(), userTotalNamesFor(filter));

/** Every record holding the editor role, invited and deleted ones included: what the editors index holds. */
export const editorsTotal = async () =>
  sumOf(await readTotals(), namesOf('editor', userKinds, standings, userStatuses));

/** Invited editors not signed up yet (their placeholders, whatever their status). */
export const invitedEditorsTotal = async () =>
  sumOf(await readTotals(), namesOf('editor', ['invited'], ['active'], userStatuses));
