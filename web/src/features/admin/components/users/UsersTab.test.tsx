import type { AdminUserListResponse, AdminUserView } from '@marketplace/events/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../../test/fake-api';
import { fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const USERS_PATH = '/api/admin/users';

const aUser = (fields: Partial<AdminUserView> = {}): AdminUserView => ({
  id: 'user-1',
  email: 'pat@example.com',
  displayName: 'Pat Lens',
  status: 'verified',
  roles: ['photographer'],
  isActive: true,
  createdAt: '2025-03-01T00:00:00.000Z',
  deletedAt: null,
  invitedAt: null,
  signInPending: null,
  ...fields,
});

const pat = aUser();
const erin = aUser({
  id: 'user-erin',
  email: 'erin@example.com',
  displayName: 'Erin Edits',
  roles: ['editor'],
  createdAt: '2025-03-02T00:00:00.000Z',
});
const ada = aUser({
  id: 'user-ada',
  email: 'ada@example.com',
  displayName: 'Ada Admin',
  roles: ['photographer', 'editor', 'admin'],
  createdAt: '2025-03-03T00:00:00.000Z',
});
const sam = aUser({
  id: 'user-sam',
  email: 'sam@example.com',
  displayName: 'Sam Paused',
  status: 'suspended',
  createdAt: '2025-02-01T00:00:00.000Z',
});
const invitedIvy = aUser({
  id: 'invited-ivy',
  email: 'ivy@example.com',
  displayName: 'Ivy Invited',
  status: 'invited',
  roles: ['editor'],
  createdAt: '2025-03-04T00:00:00.000Z',
  invitedAt: '2025-03-04T00:00:00.000Z',
});
const deletedDan = aUser({
  id: 'user-dan',
  email: 'dan@example.com',
  displayName: 'Dan Gone',
  isActive: false,
  deletedAt: '2025-03-05T00:00:00.000Z',
});

/**
 * The users route as the server answers it: filters, newest first, pages of `limit` with a cursor
 * (here the next row's index) and the total of the filtered list.
 */
const serveUsers = (people: AdminUserView[], request: RecordedRequest): AdminUserListResponse => {
  const q = request.query;
  const matching = people
    .filter((u) => q.get('includeInactive') === 'true' || u.isActive)
    .filter((u) => q.get('includeInvited') === 'true' || !u.id.startsWith('invited-'))
    .filter((u) => !q.get('status') || u.status === q.get('status'))
    .filter((u) => !q.get('role') || u.roles.includes(q.get('role') as never))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const limit = Number(q.get('limit') ?? 25);
  const page = Number(q.get('page') ?? 1);
  const start = q.get('cursor') ? Number(q.get('cursor')) : (page - 1) * limit;
  const end = start + limit;
  return {
    users: matching.slice(start, end),
    total: matching.length,
    totalPages: Math.ceil(matching.length / limit),
    page,
    nextCursor: end < matching.length ? String(end) : null,
  };
};

const userList = () => screen.findByRole('list', { name: 'Users' });
const userItem = async (email: string) => within(await userList()).findByRole('listitem', { name: email });
const shownEmails = async () =>
  within(await userList())
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

async function openUsersTab() {
  const view = renderApp('/admin?tab=users');
  await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 15_000 });
  // The tab's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('checkbox', { name: 'Show deleted users' }, { timeout: 15_000 });
  return view;
}

describe('All Users tab', () => {
  let people: AdminUserView[];
  const change = (id: string, fields: Partial<AdminUserView>) => {
    people = people.map((u) => (u.id === id ? { ...u, ...fields } : u));
  };

  beforeEach(() => {
    people = [invitedIvy, ada, erin, pat, sam, deletedDan];
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', USERS_PATH, (request) => ({ status: 200, body: serveUsers(people, request) }));
  });

  it('lists active users and invited ones newest first, one page from the server, and counts them in the tab label', async () => {
    await openUsersTab();
    await userList();
    expect(await shownEmails()).toEqual([
      'ivy@example.com',
      'ada@example.com',
      'erin@example.com',
      'pat@example.com',
      'sam@example.com',
    ]);
    expect(await screen.findByRole('tab', { name: 'All Users (5)' })).toBeInTheDocument();
    const [first] = fakeApi.requestsTo('GET', USERS_PATH);
    expect(Object.fromEntries(first!.query)).toEqual({ page: '1', limit: '25', includeInvited: 'true' });
    // One page is never more than a page: no pager for five people.
    expect(screen.queryByRole('navigation', { name: 'Pages of users' })).toBeNull();
  });

  // Several renders of 25 rows: on a busy two-core machine this outlasts the default 30 s.
  it('pages through many users with Next and Previous, and starts again at page one when a filter changes', async () => {
    people = Array.from({ length: 30 }, (_, i) =>
      aUser({
        id: `user-${i}`,
        email: `person${String(i).padStart(2, '0')}@example.com`,
        createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      }),
    );
    const { user } = await openUsersTab();
    await userList();
    expect(await shownEmails()).toHaveLength(25);
    const pages = await screen.findByRole('navigation', { name: 'Pages of users' });
    expect(within(pages).getByText('Showing 25 of 30 users')).toBeInTheDocument();
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 2 of 2')).toBeInTheDocument();
    expect(await shownEmails()).toEqual([
      'person04@example.com',
      'person03@example.com',
      'person02@example.com',
      'person01@example.com',
      'person00@example.com',
    ]);
    expect(within(pages).getByText('Showing 5 of 30 users')).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', USERS_PATH).at(-1)?.query.get('cursor')).toBe('25');
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(within(pages).getByRole('button', { name: 'Previous' }));
    expect(await within(pages).findByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 2 of 2')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Photographer');
    expect(await within(pages).findByText('Page 1 of 2')).toBeInTheDocument();
    const last = fakeApi.requestsTo('GET', USERS_PATH).at(-1)!;
    expect([last.query.get('page'), last.query.get('cursor'), last.query.get('role')]).toEqual([
      '1',
      null,
      'photographer',
    ]);
  }, 60_000);

  it('offers Next on a filtered page that found no one yet when the server says more follow, and shows who it finds there', async () => {
    // A rare role among many users: the first page looked through its share of them and found no one.
    fakeApi.on('GET', USERS_PATH, (request) => ({
      status: 200,
      body: request.query.get('cursor')
        ? { users: [ada], total: 1, totalPages: 1, page: 2, nextCursor: null }
        : { users: [], total: 1, totalPages: 1, page: 1, nextCursor: 'looked-through-600' },
    }));
    const { user } = await openUsersTab();
    expect(
      await screen.findByText('No matching users among the ones this page looked through: Next looks further.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No users found matching the current filters.')).toBeNull();
    const pages = screen.getByRole('navigation', { name: 'Pages of users' });
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(within(pages).getByRole('button', { name: 'Next' }));

    expect(await userItem('ada@example.com')).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', USERS_PATH).at(-1)?.query.get('cursor')).toBe('looked-through-600');
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('marks admins with a shield and offers an invited person only their details', async () => {
    await openUsersTab();
    expect(within(await userItem('ada@example.com')).getByRole('img', { name: 'Admin' })).toBeInTheDocument();
    expect(within(await userItem('pat@example.com')).queryByRole('img', { name: 'Admin' })).toBeNull();

    const ivy = await userItem('ivy@example.com');
    expect(within(ivy).getByText('Invited')).toBeInTheDocument();
    expect(within(ivy).getByRole('button', { name: 'View details of ivy@example.com' })).toBeInTheDocument();
    expect(within(ivy).queryByRole('button', { name: 'Manage Roles' })).toBeNull();
    expect(within(ivy).queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('offers the signed-in admin neither delete nor suspend on their own row', async () => {
    fakeApi.on('GET', '/api/auth/me', {
      status: 200,
      body: aMeView({ id: 'user-ada', email: 'ada@example.com', roles: ['admin'] }),
    });
    await openUsersTab();
    const own = await userItem('ada@example.com');
    expect(within(own).getByRole('button', { name: 'Manage Roles' })).toBeInTheDocument();
    expect(within(own).queryByRole('button', { name: 'Delete ada@example.com' })).toBeNull();
    expect(within(own).queryByRole('button', { name: 'Suspend ada@example.com' })).toBeNull();
    expect(
      within(await userItem('pat@example.com')).getByRole('button', { name: 'Delete pat@example.com' }),
    ).toBeInTheDocument();
  });

  it('filters by status and by role on the server', async () => {
    const { user } = await openUsersTab();
    await userList();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Suspended');
    await waitFor(async () => expect(await shownEmails()).toEqual(['sam@example.com']));
    expect(fakeApi.requestsTo('GET', USERS_PATH).at(-1)?.query.get('status')).toBe('suspended');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'All statuses');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Editor');
    await waitFor(async () =>
      expect(await shownEmails()).toEqual(['ivy@example.com', 'ada@example.com', 'erin@example.com']),
    );
    const editors = fakeApi.requestsTo('GET', USERS_PATH).at(-1)!;
    expect([editors.query.get('status'), editors.query.get('role')]).toEqual([null, 'editor']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Suspended');
    expect(await screen.findByText('No users found matching the current filters.')).toBeInTheDocument();
  });

  it('shows deleted users when asked, beside the others', async () => {
    const { user } = await openUsersTab();
    await userList();
    await user.click(screen.getByRole('checkbox', { name: 'Show deleted users' }));

    const dan = await userItem('dan@example.com');
    expect(within(dan).getByText('Deleted')).toBeInTheDocument();
    expect(within(dan).getByRole('button', { name: 'Reactivate dan@example.com' })).toBeInTheDocument();
    expect(within(dan).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(await userItem('pat@example.com')).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', USERS_PATH).at(-1)?.query.get('includeInactive')).toBe('true');
  });

  it('deletes a user only after the Delete User confirmation, then says so and refreshes the list', async () => {
    fakeApi.on('DELETE', `${USERS_PATH}/user-1`, () => {
      change('user-1', { isActive: false, deletedAt: '2025-03-06T00:00:00.000Z' });
      return { status: 200, body: { user: { ...pat, isActive: false, deletedAt: '2025-03-06T00:00:00.000Z' } } };
    });
    const { user } = await openUsersTab();
    await user.click(within(await userItem('pat@example.com')).getByRole('button', { name: 'Delete pat@example.com' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    expect(fakeApi.requestsTo('DELETE', `${USERS_PATH}/user-1`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete User' }));

    expect(await screen.findByText('User pat@example.com deleted successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Users' })).queryByRole('listitem', { name: 'pat@example.com' }),
      ).toBeNull(),
    );
    expect(fakeApi.requestsTo('DELETE', `${USERS_PATH}/user-1`)).toHaveLength(1);
  });

  it('leaves the user alone when the confirmation is cancelled', async () => {
    const { user } = await openUsersTab();
    await user.click(within(await userItem('pat@example.com')).getByRole('button', { name: 'Delete pat@example.com' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete User' })).toBeNull());
    expect(fakeApi.requestsTo('DELETE', `${USERS_PATH}/user-1`)).toHaveLength(0);
  });

  it("shows the server's message when a delete fails, else 'Failed to delete user'", async () => {
    fakeApi.on('DELETE', `${USERS_PATH}/user-1`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'You cannot delete yourself' },
    });
    fakeApi.on('DELETE', `${USERS_PATH}/user-erin`, { status: 500 });
    const { user } = await openUsersTab();
    await user.click(within(await userItem('pat@example.com')).getByRole('button', { name: 'Delete pat@example.com' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Delete User' }),
    );
    expect(await screen.findByText('You cannot delete yourself')).toBeInTheDocument();

    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Cancel' }),
    );
    await user.click(
      within(await userItem('erin@example.com')).getByRole('button', { name: 'Delete erin@example.com' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Delete User' }),
    );
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
  });

  it('reactivates a deleted user, says so and switches back to the list without deleted users', async () => {
    fakeApi.on('PATCH', `${USERS_PATH}/user-dan/reactivate`, () => {
      change('user-dan', { isActive: true, deletedAt: null });
      return { status: 200, body: { user: { ...deletedDan, isActive: true, deletedAt: null } } };
    });
    const { user } = await openUsersTab();
    await userList();
    await user.click(screen.getByRole('checkbox', { name: 'Show deleted users' }));
    await user.click(
      within(await userItem('dan@example.com')).getByRole('button', { name: 'Reactivate dan@example.com' }),
    );

    expect(await screen.findByText('User dan@example.com reactivated successfully')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Show deleted users' })).not.toBeChecked();
    const dan = await userItem('dan@example.com');
    expect(within(dan).queryByText('Deleted')).toBeNull();
    expect(await userItem('ivy@example.com')).toBeInTheDocument();
  });

  it("shows the server's message when reactivating fails, else 'Failed to reactivate user'", async () => {
    fakeApi.on('PATCH', `${USERS_PATH}/user-dan/reactivate`, { status: 502 });
    const { user } = await openUsersTab();
    await userList();
    await user.click(screen.getByRole('checkbox', { name: 'Show deleted users' }));
    await user.click(
      within(await userItem('dan@example.com')).getByRole('button', { name: 'Reactivate dan@example.com' }),
    );
    expect(await screen.findByText('Failed to reactivate user')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Show deleted users' })).toBeChecked();
  });

  it('suspends a user after the Suspend User confirmation, and offers a suspended user reactivation', async () => {
    fakeApi.on('PATCH', `${USERS_PATH}/user-1/deactivate`, () => {
      change('user-1', { status: 'suspended' });
      return { status: 200, body: { user: { ...pat, status: 'suspended' } } };
    });
    const { user } = await openUsersTab();
    const samRow = await userItem('sam@example.com');
    expect(within(samRow).getByRole('button', { name: 'Reactivate sam@example.com' })).toBeInTheDocument();
    expect(within(samRow).queryByRole('button', { name: 'Suspend sam@example.com' })).toBeNull();

    await user.click(
      within(await userItem('pat@example.com')).getByRole('button', { name: 'Suspend pat@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Suspend User' });
    expect(fakeApi.requestsTo('PATCH', `${USERS_PATH}/user-1/deactivate`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Suspend User' }));

    expect(await screen.findByText('User pat@example.com suspended successfully')).toBeInTheDocument();
    expect(
      await within(await userItem('pat@example.com')).findByRole('button', { name: 'Reactivate pat@example.com' }),
    ).toBeInTheDocument();
  });

  it('shows that sign-in is being disabled after a suspension, reading the list again until it is done', async () => {
    fakeApi.on('PATCH', `${USERS_PATH}/user-1/deactivate`, () => {
      change('user-1', { status: 'suspended', signInPending: 'disabling' });
      return { status: 200, body: { user: { ...pat, status: 'suspended', signInPending: 'disabling' } } };
    });
    const { user } = await openUsersTab();
    await user.click(
      within(await userItem('pat@example.com')).getByRole('button', { name: 'Suspend pat@example.com' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Suspend User' })).getByRole('button', { name: 'Suspend User' }),
    );

    expect(await within(await userItem('pat@example.com')).findByText('Disabling sign-in…')).toBeInTheDocument();
    const readsWhilePending = fakeApi.requestsTo('GET', USERS_PATH).length;
    // The identity worker has disabled the account: the next read of the page says so.
    change('user-1', { signInPending: null });
    await waitFor(
      async () => expect(within(await userItem('pat@example.com')).queryByText('Disabling sign-in…')).toBeNull(),
      { timeout: 8_000 },
    );
    expect(fakeApi.requestsTo('GET', USERS_PATH).length).toBeGreaterThan(readsWhilePending);
    expect(within(await userItem('pat@example.com')).getByText('Suspended')).toBeInTheDocument();
  });

  it('says sign-in is being enabled again after a reactivation', async () => {
    people = [{ ...sam, signInPending: 'enabling', status: 'verified' }];
    await openUsersTab();
    expect(await within(await userItem('sam@example.com')).findByText('Enabling sign-in…')).toBeInTheDocument();
  });

  it("opens a user's details with every field", async () => {
    const { user } = await openUsersTab();
    await user.click(
      within(await userItem('pat@example.com')).getByRole('button', { name: 'View details of pat@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    for (const text of ['user-1', 'pat@example.com', 'Pat Lens', 'Verified', 'Photographer', 'Mar 1, 2025']) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
  });
});

describe('Manage User Roles', () => {
  let pats: AdminUserView;

  beforeEach(() => {
    pats = pat;
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', USERS_PATH, (request) => ({ status: 200, body: serveUsers([ada, pats], request) }));
  });

  const openRoles = async (email: string) => {
    const view = await openUsersTab();
    await view.user.click(within(await userItem(email)).getByRole('button', { name: 'Manage Roles' }));
    return { ...view, dialog: await screen.findByRole('dialog', { name: 'Manage User Roles' }) };
  };

  it('offers only the roles the user lacks, and the legend of what each role may do', async () => {
    const { dialog } = await openRoles('pat@example.com');
    const select = within(dialog).getByRole('combobox', { name: 'Role to add' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Editor', 'Admin']);
    expect(within(dialog).getByText('Create orders, upload photos, pay')).toBeInTheDocument();
    expect(within(dialog).getByText('View available orders, edit photos, complete orders')).toBeInTheDocument();
    expect(within(dialog).getByText('Full system access, manage users, invite editors')).toBeInTheDocument();
  });

  it("says 'User has all available roles' when there is nothing to add", async () => {
    const { dialog } = await openRoles('ada@example.com');
    expect(within(dialog).getByText('User has all available roles')).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Role to add' })).toBeNull();
  });

  it('adds the chosen role, says so and refreshes the list', async () => {
    fakeApi.on('POST', `${USERS_PATH}/user-1/roles`, () => {
      pats = { ...pat, roles: ['photographer', 'admin'] };
      return { status: 200, body: { user: pats } };
    });
    const { user, dialog } = await openRoles('pat@example.com');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role to add' }), 'Admin');
    await user.click(within(dialog).getByRole('button', { name: 'Add Role' }));

    expect(await screen.findByText('admin role added successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `${USERS_PATH}/user-1/roles`)[0]?.body).toEqual({ role: 'admin' });
    expect(within(dialog).getByRole('button', { name: 'Remove admin role' })).toBeInTheDocument();
    expect(await within(await userItem('pat@example.com')).findByRole('img', { name: 'Admin' })).toBeInTheDocument();
  });

  it('removes a role and says so', async () => {
    fakeApi.on('DELETE', `${USERS_PATH}/user-1/roles/photographer`, () => {
      pats = { ...pat, roles: [] };
      return { status: 200, body: { user: pats } };
    });
    const { user, dialog } = await openRoles('pat@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Remove photographer role' }));
    expect(await screen.findByText('Role removed successfully!')).toBeInTheDocument();
    expect(within(dialog).getByText('No roles')).toBeInTheDocument();
  });

  it("shows the server's words when a role change fails, else the fallback", async () => {
    fakeApi.on('POST', `${USERS_PATH}/user-1/roles`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'Already an editor' },
    });
    fakeApi.on('DELETE', `${USERS_PATH}/user-1/roles/photographer`, { status: 500 });
    const { user, dialog } = await openRoles('pat@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Role' }));
    expect(await screen.findByText('Already an editor')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove photographer role' }));
    expect(await screen.findByText('Failed to remove role')).toBeInTheDocument();
  });
});
