import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { AdminUserListResponse, AdminUsersQuery, AdminUserView } from '@marketplace/events/admin';
import { adminUsersQuery } from '@marketplace/events/admin';
import type { Role } from '@marketplace/events/roles';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LAST_ADMIN_MESSAGE } from '../src/data/users';
import {
  aNewAccount,
  aPhotographer,
  as,
  aUserWithRoles,
  call,
  db,
  signIn,
  type TestAccount,
  uniqueEmail,
  waitFor,
} from './support';

const send = (account: TestAccount | null, method: string, path: string, body?: unknown) =>
  call(path, { method, ...(account ? { token: account.token } : {}), ...(body === undefined ? {} : { body }) });

let admin: TestAccount;

beforeAll(async () => {
  admin = await aUserWithRoles(['admin']);
});

/** The newest hundred: other test files add users to the shared table meanwhile, so one page of 25 may not reach ours. */
const listUsers = async (query = '') => {
  const response = await as(admin).get(`/api/admin/users?limit=100${query.replace('?', '&')}`);
  expect(response.status).toBe(200);
  return response.body.users as AdminUserView[];
};

/** Why Firebase refuses this account's sign-in, once the identity worker has disabled it (null if it never does). */
const signInRefusedSoon = async (email: string) =>
  waitFor(
    () =>
      signIn(email, 'test-password').then(
        () => null,
        (error: Error) => error.message,
      ),
    (reason) => reason !== null,
  );

/**
 * Runs `body` with the data modules bound to a table of its own, deleted afterwards: the shared
 * table's admins come and go as other files run, so counts of admins are taken apart from it.
 */
const inOwnTable = async (
  prefix: string,
  body: (modules: {
    marketplace: typeof import('../src/data/entities').marketplace;
    users: typeof import('../src/data/users');
    adminUsers: typeof import('../src/data/admin-users');
  }) => Promise<void>,
) => {
  const shared = process.env.TABLE_NAME;
  const table = `${prefix}-${ulid().toLowerCase()}`;
  process.env.TABLE_NAME = table;
  // Fresh modules read the new table name.
  vi.resetModules();
  const { dynamo } = await import('../src/data/client');
  const { ensureTable } = await import('../local/table-setup');
  const { marketplace } = await import('../src/data/entities');
  const users = await import('../src/data/users');
  const adminUsers = await import('../src/data/admin-users');
  try {
    await ensureTable(dynamo(), table, { stream: false });
    await body({ marketplace, users, adminUsers });
  } finally {
    process.env.TABLE_NAME = shared;
    await dynamo().send(new DeleteTableCommand({ TableName: table }));
    vi.resetModules();
  }
};

const inEditorIndex = async (userId: string) =>
  (await db().user.query.editors({ isEditor: 'editor' }).go({ pages: 'all' })).data.some((u) => u.userId === userId);

describe('who may manage users', () => {
  it('refuses every user route to anonymous callers (401), photographers and editors (403)', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), aUserWithRoles(['editor'])]);
    const target = await aPhotographer();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/invited-users'],
      ['GET', `/api/admin/check-email/${encodeURIComponent(target.email)}`],
      ['PATCH', `/api/admin/users/${target.uid}/role`, { role: 'admin' }],
      ['POST', `/api/admin/users/${target.uid}/roles`, { role: 'admin' }],
      ['DELETE', `/api/admin/users/${target.uid}/roles/photographer`],
      ['PATCH', `/api/admin/users/${target.uid}/deactivate`],
      ['PATCH', `/api/admin/users/${target.uid}/reactivate`],
      ['DELETE', `/api/admin/users/${target.uid}`],
    ];
    for (const [method, path, body] of routes) {
      expect((await send(null, method, path, body)).status, `${method} ${path}`).toBe(401);
      expect((await send(photographer, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await send(editor, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    const record = (await db().user.get({ userId: target.uid }).go()).data!;
    expect(record).toMatchObject({ roles: ['photographer'], isActive: true, status: 'verified' });
  });
});

describe('the user list', () => {
  it('lists accounts newest first and shows deleted ones only when asked', async () => {
    const older = await aPhotographer({ displayName: 'Older Olive' });
    const newer = await aPhotographer({ displayName: 'Newer Nate' });
    expect((await send(admin, 'DELETE', `/api/admin/users/${older.uid}`)).status).toBe(200);

    const active = await listUsers();
    const all = await listUsers('?includeInactive=true');

    expect(active.some((u) => u.id === older.uid)).toBe(false);
    expect(active.find((u) => u.id === newer.uid)).toMatchObject({
      email: newer.email,
      displayName: 'Newer Nate',
      status: 'verified',
      roles: ['photographer'],
      isActive: true,
      deletedAt: null,
    });
    const ids = all.map((u) => u.id);
    expect(ids.indexOf(newer.uid)).toBeLessThan(ids.indexOf(older.uid));
    expect(all.find((u) => u.id === older.uid)).toMatchObject({ isActive: false, deletedAt: expect.any(String) });
    const createdAts = all.map((u) => u.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
  });

  it('lists invited editors apart, by their placeholder id, and deleting one cancels the invitation', async () => {
    const email = uniqueEmail('invitee');
    const [jobType] = (await as(admin).get('/api/orders/job-types')).body as { id: string }[];
    const invited = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ivy Invited',
      jobTypeRates: [{ jobTypeId: jobType!.id, ratePerPhotoCents: 300 }],
    });
    expect(invited.status).toBe(201);
    const placeholderId = invited.body.user.id as string;

    const invitedList = (await as(admin).get('/api/admin/invited-users')).body.users as AdminUserView[];
    expect(invitedList.find((u) => u.id === placeholderId)).toMatchObject({
      email,
      status: 'invited',
      roles: ['editor'],
      invitedAt: expect.any(String),
    });
    expect((await listUsers('?includeInactive=true')).some((u) => u.id === placeholderId)).toBe(false);
    expect((await listUsers('?includeInvited=true&status=invited')).find((u) => u.id === placeholderId)).toMatchObject({
      email,
      status: 'invited',
    });
    expect((await as(admin).get(`/api/admin/check-email/${email}`)).body).toEqual({
      email,
      available: false,
      reason: 'invited',
    });
    expect((await send(admin, 'POST', `/api/admin/users/${placeholderId}/roles`, { role: 'admin' })).status).toBe(409);

    const deleted = await send(admin, 'DELETE', `/api/admin/users/${placeholderId}`);

    expect(deleted.status).toBe(200);
    expect(deleted.body.user).toMatchObject({ id: placeholderId, email, isActive: false });
    expect(
      (await as(admin).get('/api/admin/invited-users')).body.users.some((u: AdminUserView) => u.id === placeholderId),
    ).toBe(false);
    const invitations = (await db().invitation.query.byEmail({ email }).go()).data;
    expect(invitations.map((i) => i.status)).toEqual(['revoked']);
    expect((await db().editorRate.query.byEditor({ editorId: placeholderId }).go()).data).toHaveLength(0);
    expect((await as(admin).get(`/api/admin/check-email/${email}`)).body.available).toBe(true);
  });

  it('tells whether an email is registered or available, and refuses a malformed one', async () => {
    const registered = await aPhotographer();

    const taken = await as(admin).get(`/api/admin/check-email/${encodeURIComponent(registered.email.toUpperCase())}`);
    const free = await as(admin).get(`/api/admin/check-email/${uniqueEmail('free')}`);
    const malformed = await as(admin).get('/api/admin/check-email/not-an-email');

    expect(taken.body).toEqual({ email: registered.email, available: false, reason: 'registered' });
    expect(free.body).toMatchObject({ available: true, reason: null });
    expect(malformed.status).toBe(400);
  });
});

describe('roles', () => {
  it('adds, removes and sets roles one at a time, with the editor index in step', async () => {
    const user = await aPhotographer();
    const path = `/api/admin/users/${user.uid}`;

    const added = await send(admin, 'POST', `${path}/roles`, { role: 'editor' });
    expect(added.status).toBe(200);
    expect(added.body.user.roles).toEqual(['photographer', 'editor']);
    expect(await inEditorIndex(user.uid)).toBe(true);
    expect((await as(user).get('/api/orders/my-assignments')).status).toBe(200);

    const again = await send(admin, 'POST', `${path}/roles`, { role: 'editor' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('User already has the editor role');

    const removed = await send(admin, 'DELETE', `${path}/roles/editor`);
    expect(removed.body.user.roles).toEqual(['photographer']);
    expect(await inEditorIndex(user.uid)).toBe(false);
    expect((await send(admin, 'DELETE', `${path}/roles/editor`)).status).toBe(409);

    const set = await send(admin, 'PATCH', `${path}/role`, { role: 'editor' });
    expect(set.body.user.roles).toEqual(['editor']);
    expect(await inEditorIndex(user.uid)).toBe(true);
    expect((await as(user).get('/api/orders/my')).status).toBe(403);
  });

  it('refuses an unknown role and an unknown user', async () => {
    const user = await aPhotographer();
    expect((await send(admin, 'POST', `/api/admin/users/${user.uid}/roles`, { role: 'superuser' })).status).toBe(400);
    expect((await send(admin, 'DELETE', `/api/admin/users/${user.uid}/roles/superuser`)).status).toBe(400);
    expect((await send(admin, 'POST', '/api/admin/users/no-such-user/roles', { role: 'editor' })).status).toBe(404);
  });

  it('counts active admins as the admin role and accounts come and go, in a table of their own', async () => {
    await inOwnTable('admin-count', async ({ users, adminUsers }) => {
      const make = (userId: string, roles: Role[]) =>
        users.createUserOnce({ userId, email: `${userId}@example.test`, roles, status: 'verified' });
      await make('the-admin', ['admin']);
      await make('a-photographer', ['photographer']);
      expect(await users.activeAdminCount()).toBe(1);

      await adminUsers.addRole('a-photographer', 'admin');
      expect(await users.activeAdminCount()).toBe(2);
      await adminUsers.deactivateUser({ userId: 'a-photographer', actorId: 'the-admin' });
      expect(await users.activeAdminCount()).toBe(1);
      await adminUsers.reactivateUser('a-photographer', 'the-admin');
      expect(await users.activeAdminCount()).toBe(2);
      await adminUsers.deleteUser({ userId: 'a-photographer', actorId: 'the-admin' });
      expect(await users.activeAdminCount()).toBe(1);
    });
  });
});

describe('deactivating, deleting and reactivating', () => {
  it('lets a soft-deleted user neither call the API nor sign in, and reactivation restores both', async () => {
    const user = await aNewAccount({ email: uniqueEmail('leaver') });
    expect((await as(user).get('/api/auth/me')).status).toBe(200);

    const deleted = await send(admin, 'DELETE', `/api/admin/users/${user.uid}`);

    expect(deleted.status).toBe(200);
    expect(deleted.body.user).toMatchObject({ email: user.email, isActive: false, deletedAt: expect.any(String) });
    const refused = await as(user).get('/api/auth/me');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your account has been deactivated. Please contact support.');
    // Firebase follows once the identity worker has applied the deletion.
    expect(await signInRefusedSoon(user.email)).toMatch(/USER_DISABLED/);

    const reactivated = await send(admin, 'PATCH', `/api/admin/users/${user.uid}/reactivate`);

    expect(reactivated.status).toBe(200);
    expect(reactivated.body.user).toMatchObject({ isActive: true, status: 'verified', deletedAt: null });
    const token = await waitFor(
      () => signIn(user.email, 'test-password').catch(() => null),
      (signedIn) => signedIn !== null,
    );
    expect(token).toEqual(expect.any(String));
    expect((await as({ token: token ?? '' }).get('/api/auth/me')).status).toBe(200);
    expect((await db().user.get({ userId: user.uid }).go()).data?.deletedAt).toBeUndefined();
  });

  it('suspends a user who stays listed, is refused by the API and cannot sign in', async () => {
    const user = await aPhotographer();

    const response = await send(admin, 'PATCH', `/api/admin/users/${user.uid}/deactivate`);

    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email: user.email, status: 'suspended', isActive: true });
    expect((await listUsers()).find((u) => u.id === user.uid)?.status).toBe('suspended');
    expect((await as(user).get('/api/orders/my')).body.message).toBe(
      'Your account has been deactivated. Please contact support.',
    );
    expect(await signInRefusedSoon(user.email)).toMatch(/USER_DISABLED/);
  });

  it('refuses an admin deleting or deactivating their own account', async () => {
    const self = await send(admin, 'DELETE', `/api/admin/users/${admin.uid}`);
    const suspendSelf = await send(admin, 'PATCH', `/api/admin/users/${admin.uid}/deactivate`);

    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot delete your own account');
    expect(suspendSelf.status).toBe(400);
    expect((await as(admin).get('/api/admin/users')).status).toBe(200);
  });
});

describe('the last active admin', () => {
  it('survives two admins removing each other at once, in a table of their own', async () => {
    await inOwnTable('admins', async ({ users, adminUsers }) => {
      const make = (userId: string) =>
        users.createUserOnce({ userId, email: `${userId}@example.test`, roles: ['admin'], status: 'verified' });
      await make('first-admin');
      await make('second-admin');
      await make('third-admin');
      expect(await users.activeAdminCount()).toBe(3);
      await adminUsers.removeRole('third-admin', 'admin');

      const outcomes = await Promise.allSettled([
        adminUsers.removeRole('second-admin', 'admin'),
        adminUsers.deleteUser({ userId: 'first-admin', actorId: 'second-admin' }),
      ]);

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const [refusal] = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refusal?.reason).toMatchObject({ statusCode: 409, message: LAST_ADMIN_MESSAGE });
      const left = (await users.listAllUsers()).filter((u) => u.roles.includes('admin') && u.isActive);
      expect(left).toHaveLength(1);
      expect(await users.activeAdminCount()).toBe(1);
      await expect(adminUsers.removeRole(left[0]!.userId, 'admin')).rejects.toMatchObject({ statusCode: 409 });
    });
  });

  it('counts the admins of a table from before the counter once, from its users', async () => {
    await inOwnTable('admins', async ({ marketplace, users }) => {
      // Written as an older version did: records only, no counter.
      for (const [userId, roles, isActive] of [
        ['old-admin', ['admin'], true],
        ['old-deleted-admin', ['admin'], false],
        ['old-editor', ['editor'], true],
      ] as const) {
        await marketplace()
          .entities.user.create({ userId, email: `${userId}@example.test`, roles: [...roles], isActive })
          .go();
      }

      expect(await users.activeAdminCount()).toBe(1);
      await expect(users.setRoles('old-admin', ['editor'])).rejects.toMatchObject({ message: LAST_ADMIN_MESSAGE });
      await users.setRoles('old-editor', ['editor', 'admin']);
      expect(await users.activeAdminCount()).toBe(2);
    });
  });
});

describe('paging the user and editor lists', () => {
  type Seed = {
    userId: string;
    email: string;
    roles: ('admin' | 'editor' | 'photographer')[];
    status: 'verified' | 'invited' | 'suspended';
    isActive: boolean;
    createdAt: string;
  };
  // 61 users over 20 distinct seconds (so dates tie and the id decides), of every role, standing and kind.
  const seeds: Seed[] = Array.from({ length: 61 }, (_, i) => {
    const invited = i % 9 === 0;
    const roles: Seed['roles'] = invited
      ? ['editor']
      : [(['photographer', 'editor', 'admin'] as const)[i % 3]!, ...(i % 7 === 0 ? (['editor'] as const) : [])];
    return {
      userId: `${invited ? 'invited-' : 'user-'}${String((i * 37) % 61).padStart(3, '0')}`,
      email: `paged-${i}@example.test`,
      roles,
      status: invited ? 'invited' : i % 5 === 0 ? 'suspended' : 'verified',
      isActive: invited || i % 4 !== 0,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 20)).toISOString(),
    };
  });
  const newestFirst = (a: Seed, b: Seed) =>
    b.createdAt.localeCompare(a.createdAt) || (b.userId < a.userId ? -1 : b.userId > a.userId ? 1 : 0);
  const reference = (q: AdminUsersQuery) =>
    seeds
      .filter((u) => q.includeInactive || u.isActive)
      .filter((u) => q.includeInvited || !u.userId.startsWith('invited-'))
      .filter((u) => !q.status || u.status === q.status)
      .filter((u) => !q.role || u.roles.includes(q.role))
      .sort(newestFirst)
      .map((u) => u.userId);

  const shared = process.env.TABLE_NAME;
  let table: string;
  let data: {
    listUsers: (q: AdminUsersQuery) => Promise<AdminUserListResponse>;
    listEditors: typeof import('../src/data/admin-editors').listEditors;
    dynamo: typeof import('../src/data/client').dynamo;
  };

  beforeAll(async () => {
    table = `paged-users-${ulid().toLowerCase()}`;
    process.env.TABLE_NAME = table;
    // Fresh modules bound to a table of its own: the shared table's users come and go as other files run.
    vi.resetModules();
    const { dynamo } = await import('../src/data/client');
    const { ensureTable } = await import('../local/table-setup');
    const { marketplace } = await import('../src/data/entities');
    const { listUsers } = await import('../src/data/admin-users');
    const { listEditors } = await import('../src/data/admin-editors');
    const { USER_TOTALS_SCOPE, userTotalNames } = await import('../src/data/user-totals');
    data = { listUsers, listEditors, dynamo };
    // The fresh modules read the table name once, now; the route tests go on with the shared one.
    expect(marketplace().entities.user.query.all({}).params()).toMatchObject({ TableName: table });
    process.env.TABLE_NAME = shared;
    await ensureTable(dynamo(), table, { stream: false });
    const { unprocessed } = await marketplace()
      .entities.user.put(
        seeds.map((u) => ({
          ...u,
          ...(u.roles.includes('editor') ? { isEditor: 'editor' } : {}),
          ...(u.roles.includes('admin') ? { isAdmin: 'admin' } : {}),
          ...(u.isActive ? {} : { deletedAt: u.createdAt }),
        })),
      )
      .go({ concurrency: 8 });
    expect(unprocessed).toHaveLength(0);
    // The totals as the writes would have left them: each record in its cells.
    const totals = new Map<string, number>();
    for (const name of seeds.flatMap(userTotalNames)) totals.set(name, (totals.get(name) ?? 0) + 1);
    await marketplace()
      .entities.counter.put([...totals].map(([name, value]) => ({ scope: USER_TOTALS_SCOPE, name, value })))
      .go({ concurrency: 8 });
    return async () => {
      await dynamo().send(new DeleteTableCommand({ TableName: table }));
      vi.resetModules();
    };
  });

  const queries: Record<string, string>[] = [
    {},
    { includeInactive: 'true' },
    { includeInvited: 'true' },
    { includeInvited: 'true', includeInactive: 'true', status: 'invited' },
    { status: 'suspended', includeInactive: 'true' },
    { role: 'editor', includeInvited: 'true' },
    { role: 'admin', includeInactive: 'true' },
    { role: 'photographer', status: 'verified' },
  ];

  it('gives each filter exactly the in-memory reference, a page at a time through the cursors and by page number', async () => {
    for (const filters of queries) {
      const limit = 7;
      const expected = reference(adminUsersQuery.parse(filters));
      const totalPages = Math.ceil(expected.length / limit);
      const label = JSON.stringify(filters);
      const walked: string[] = [];
      let cursor: string | undefined;
      for (let page = 1; page <= totalPages; page++) {
        const answer = await data.listUsers(adminUsersQuery.parse({ ...filters, limit, page, cursor }));
        expect({ total: answer.total, totalPages: answer.totalPages, page: answer.page }, label).toEqual({
          total: expected.length,
          totalPages,
          page,
        });
        expect(answer.users.length, label).toBeLessThanOrEqual(limit);
        walked.push(...answer.users.map((u) => u.id));
        expect(answer.nextCursor === null, `${label} page ${page}`).toBe(page === totalPages);
        cursor = answer.nextCursor ?? undefined;
      }
      expect(walked, label).toEqual(expected);
      // A page asked for by number, without the cursor, is the same page.
      if (totalPages >= 2) {
        const second = await data.listUsers(adminUsersQuery.parse({ ...filters, limit, page: 2 }));
        expect(
          second.users.map((u) => u.id),
          label,
        ).toEqual(expected.slice(limit, 2 * limit));
      }
    }
  });

  it('pages the editors, invited ones included, newest first, with their total', async () => {
    const expected = seeds
      .filter((u) => u.roles.includes('editor'))
      .sort(newestFirst)
      .map((u) => u.userId);
    const walked: string[] = [];
    let cursor: string | undefined;
    let page = 1;
    do {
      const answer = await data.listEditors({ page, limit: 4, cursor });
      expect({ total: answer.total, totalPages: answer.totalPages }).toEqual({
        total: expected.length,
        totalPages: Math.ceil(expected.length / 4),
      });
      walked.push(...answer.editors.map((e) => e.id));
      cursor = answer.nextCursor ?? undefined;
      page += 1;
    } while (cursor);
    expect(walked).toEqual(expected);
  });

  it('answers a page of the shared list with its paging fields, and refuses a bad cursor or limit', async () => {
    const response = await as(admin).get('/api/admin/users?limit=2');
    expect(response.status).toBe(200);
    expect(response.body.users).toHaveLength(2);
    expect(response.body).toMatchObject({ page: 1, nextCursor: expect.any(String) });
    expect(response.body.total).toBeGreaterThanOrEqual(2);
    const next = await as(admin).get(`/api/admin/users?limit=2&page=2&cursor=${response.body.nextCursor}`);
    expect(next.status).toBe(200);
    const firstIds = response.body.users.map((u: AdminUserView) => u.id);
    expect(next.body.users.some((u: AdminUserView) => firstIds.includes(u.id))).toBe(false);
    expect((await as(admin).get('/api/admin/users?cursor=not-a-cursor')).status).toBe(400);
    expect((await as(admin).get('/api/admin/users?limit=101')).status).toBe(400);
    expect((await as(admin).get('/api/admin/editors?limit=0')).status).toBe(400);
  });
});
