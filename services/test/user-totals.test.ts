import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { type AdminUsersQuery, adminUsersQuery } from '@marketplace/events/admin';
import { type Role, roles, userStatuses } from '@marketplace/events/roles';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aNewAccount, uniqueEmail } from './support';

/**
 * The admin's user and editor totals are counters moved by every user write. Each kind of write
 * runs here against a table of its own (the shared one gains users from other files as this
 * runs), and after each the total of every filter the All Users tab can send is compared with the
 * list's own rows read to the end through the cursors, and with the records themselves; the
 * offline recount of the counter family must agree with what the writes stored.
 */
const shared = process.env.TABLE_NAME;
const table = `user-totals-${ulid().toLowerCase()}`;

type Modules = {
  users: typeof import('../src/data/users');
  adminUsers: typeof import('../src/data/admin-users');
  adminEditors: typeof import('../src/data/admin-editors');
  invitations: typeof import('../src/data/invitations');
  repair: typeof import('../src/ops/duplicate-users');
  totals: typeof import('../src/data/user-totals');
  family: typeof import('../src/ops/counters/user-totals');
  transactions: typeof import('../src/data/transactions');
  entities: typeof import('../src/data/entities');
  dynamo: typeof import('../src/data/client').dynamo;
};
let m: Modules;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  // Fresh modules bound to the table of this file; the shared table stays as it is for the others.
  vi.resetModules();
  const { dynamo } = await import('../src/data/client');
  const { ensureTable } = await import('../local/table-setup');
  m = {
    users: await import('../src/data/users'),
    adminUsers: await import('../src/data/admin-users'),
    adminEditors: await import('../src/data/admin-editors'),
    invitations: await import('../src/data/invitations'),
    repair: await import('../src/ops/duplicate-users'),
    totals: await import('../src/data/user-totals'),
    family: await import('../src/ops/counters/user-totals'),
    transactions: await import('../src/data/transactions'),
    entities: await import('../src/data/entities'),
    dynamo,
  };
  expect(m.entities.marketplace().entities.user.query.all({}).params()).toMatchObject({ TableName: table });
  process.env.TABLE_NAME = shared;
  await ensureTable(dynamo(), table, { stream: false });
});

afterAll(async () => {
  await m.dynamo().send(new DeleteTableCommand({ TableName: table }));
  vi.resetModules();
});

/** Every filter the All Users tab (and an API client) can send: 2 x 2 x 4 x 4. */
const everyFilter: AdminUsersQuery[] = [false, true].flatMap((includeInvited) =>
  [false, true].flatMap((includeInactive) =>
    [undefined, ...userStatuses].flatMap((status) =>
      [undefined, ...roles].map((role) =>
        adminUsersQuery.parse({
          limit: 3,
          ...(includeInvited ? { includeInvited: 'true' } : {}),
          ...(includeInactive ? { includeInactive: 'true' } : {}),
          ...(status ? { status } : {}),
          ...(role ? { role } : {}),
        }),
      ),
    ),
  ),
);

/** The list's own rows for a filter, read page by page to the end. */
const walk = async (query: AdminUsersQuery) => {
  const ids: string[] = [];
  let cursor: string | undefined;
  let first: number | undefined;
  let page = 1;
  do {
    const answer = await m.adminUsers.listUsers({ ...query, page, cursor });
    first ??= answer.total;
    ids.push(...answer.users.map((u) => u.id));
    cursor = answer.nextCursor ?? undefined;
    page += 1;
  } while (cursor);
  return { total: first, ids };
};

const matches = (q: AdminUsersQuery) => (u: { userId: string; isActive: boolean; status: string; roles: Role[] }) =>
  (q.includeInactive || u.isActive) &&
  (q.includeInvited || !u.userId.startsWith('invited-')) &&
  (!q.status || u.status === q.status) &&
  (!q.role || u.roles.includes(q.role));

const storedCounters = async () => {
  const { data } = await m.entities
    .marketplace()
    .entities.counter.query.byScope({ scope: m.totals.USER_TOTALS_SCOPE })
    .go({ pages: 'all' });
  return new Map(data.map((c) => [c.name, c.value]));
};

/** After a write: every filter's total, the editors' and the invited editors' agree with the rows. */
const expectTotalsExact = async (step: string) => {
  const records = await m.users.listAllUsers();
  const filtersWithRows = new Set<string>();
  for (const query of everyFilter) {
    const label = `${step}: ${JSON.stringify({ ...query, limit: undefined, page: undefined })}`;
    const { total, ids } = await walk(query);
    const expected = records.filter(matches(query)).map((u) => u.userId);
    expect(ids, label).toEqual(expected);
    expect(total, label).toBe(ids.length);
    if (ids.length) filtersWithRows.add(label);
  }
  const editors = records.filter((u) => u.roles.includes('editor'));
  expect((await m.adminEditors.listEditors({ page: 1, limit: 100 })).total, `${step}: editors`).toBe(editors.length);
  const invited = editors.filter((u) => u.userId.startsWith('invited-') && u.isActive);
  expect((await m.adminUsers.listInvitedUsers({ limit: 100 })).total, `${step}: invited`).toBe(invited.length);
  // The offline recount says what the writes stored, counter for counter (absent = 0).
  const stored = await storedCounters();
  const recounted = await m.family.userTotalCounters.recount();
  expect(
    recounted.filter((c) => (stored.get(c.name) ?? 0) !== c.value).map((c) => ({ ...c, stored: stored.get(c.name) })),
    `${step}: recount`,
  ).toEqual([]);
  expect([...stored.keys()].filter((name) => !recounted.some((c) => c.name === name))).toEqual([]);
  return filtersWithRows.size;
};

const signUp = async (userRoles: Role[], email = uniqueEmail('totals')) => {
  const account = await aNewAccount({ email });
  await m.users.createUserOnce({ userId: account.uid, email, roles: userRoles, status: 'verified' });
  return account;
};

// Each test walks all 64 filters' lists page by page after every write: minutes of requests on
// a busy machine, more than the default 30 s.
describe('the admin list totals after each kind of user write', { timeout: 180_000 }, () => {
  let admin: { uid: string };
  let ann: { uid: string };
  let ben: { uid: string };

  it('counts sign-ups (photographers, an editor, an admin, a second identity for a taken email)', async () => {
    admin = await signUp(['admin']);
    ann = await signUp(['photographer']);
    ben = await signUp(['photographer']);
    await signUp(['editor']);
    const taken = await signUp(['photographer']);
    const twin = await aNewAccount();
    await expect(
      m.users.createUserOnce({
        userId: twin.uid,
        email: (await m.users.getUser(taken.uid))!.email,
        roles: [],
        status: 'verified',
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(await expectTotalsExact('sign-up')).toBeGreaterThan(10);
  });

  it('moves them when a role is added, removed or set', async () => {
    await m.adminUsers.addRole(ann.uid, 'editor');
    await expectTotalsExact('role added');
    await m.adminUsers.removeRole(ann.uid, 'photographer');
    await expectTotalsExact('role removed');
    await m.adminUsers.setOnlyRole(ann.uid, 'admin');
    await expectTotalsExact('role set');
  });

  it('moves them when a user is suspended, deleted and reactivated', async () => {
    await m.adminUsers.deactivateUser({ userId: ben.uid, actorId: admin.uid });
    await expectTotalsExact('suspended');
    await m.adminUsers.deleteUser({ userId: ben.uid, actorId: admin.uid });
    await expectTotalsExact('suspended and deleted');
    await m.adminUsers.reactivateUser(ben.uid);
    await expectTotalsExact('reactivated');
    await m.adminUsers.deleteUser({ userId: ann.uid, actorId: admin.uid });
    await expectTotalsExact('deleted');
  });

  it('counts invited editors, and moves them when an invitation is accepted or cancelled', async () => {
    const invite = (email: string) =>
      m.invitations.createInvitation({ email, displayName: 'Ivy', jobTypeRates: [], invitedBy: admin.uid });
    const newcomer = uniqueEmail('newcomer');
    const cancelled = uniqueEmail('cancelled');
    const first = await invite(newcomer);
    await invite(cancelled);
    await expectTotalsExact('invited');
    // Invited again: the same placeholder, counted once.
    const again = await invite(newcomer);
    expect(again.user.userId).toBe(first.user.userId);
    await expectTotalsExact('invited again');

    const account = await aNewAccount({ email: newcomer });
    await m.invitations.acceptInvitation({
      email: newcomer,
      token: again.token,
      uid: account.uid,
      idToken: account.token,
    });
    await expectTotalsExact('accepted');

    const cancelledId = (await m.users.usersWithEmail(cancelled))[0]!.userId;
    await m.adminUsers.deleteUser({ userId: cancelledId, actorId: admin.uid });
    await expectTotalsExact('cancelled');

    // An existing photographer accepting gains the role in the same record.
    const photographer = await signUp(['photographer']);
    const email = (await m.users.getUser(photographer.uid))!.email;
    const invitation = await invite(email);
    await m.invitations.acceptInvitation({
      email,
      token: invitation.token,
      uid: photographer.uid,
      idToken: photographer.token,
    });
    expect((await m.users.getUser(photographer.uid))!.roles).toEqual(['photographer', 'editor']);
    await expectTotalsExact('accepted by a photographer');
  });

  it('moves them when the repair merges the duplicates of one email', async () => {
    // Two records for one email, as a table from before the email guard held them (each counted).
    const email = uniqueEmail('twice');
    const older = await aNewAccount();
    const newer = await aNewAccount();
    for (const [account, userRoles] of [
      [older, ['photographer']],
      [newer, ['editor']],
    ] as const) {
      await m.transactions.commitAll((e) => [
        e.user
          .create({
            userId: account.uid,
            email,
            roles: [...userRoles],
            status: 'verified',
            ...m.users.roleIndexAttributes(userRoles),
          })
          .commit(),
        ...m.totals.userTotalMoves(e, null, {
          userId: account.uid,
          roles: userRoles,
          status: 'verified',
          isActive: true,
        }),
      ]);
    }
    await expectTotalsExact('duplicates');

    const merged = await m.repair.repairUserEmails({ force: true });

    expect(merged).toEqual([expect.objectContaining({ email, removed: [expect.any(String)] })]);
    expect(await m.users.usersWithEmail(email)).toHaveLength(1);
    await expectTotalsExact('repaired');
  });
});
