import type { AdminUserView } from '@marketplace/events/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const USERS_PATH = '/api/admin/users';
const INVITED_PATH = '/api/admin/invited-users';

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
  id: 'invite-ivy',
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

const userList = () => screen.findByRole('list', { name: 'Users' });
const userItem = async (email: string) => within(await userList()).findByRole('listitem', { name: email });
const shownEmails = async () =>
  within(await userList())
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

async function openUsersTab() {
  const view = renderApp('/admin?tab=users');
  await screen.findByRole('heading', { name: 'Admin Dashboard' });
  // The tab's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('checkbox', { name: 'Show deleted users' }, { timeout: 15_000 });
  return view;
}

describe('All Users tab', () => {
  let activeUsers: AdminUserView[];
  let everyUser: AdminUserView[];

  beforeEach(() => {
    activeUsers = [ada, erin, pat, sam];
    everyUser = [ada, erin, pat, sam, deletedDan];
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', USERS_PATH, (request) => ({
      status: 200,
      body: { users: request.query.get('includeInactive') === 'true' ? everyUser : activeUsers },
    }));
    // The invited list repeats an account that exists already: the merge keeps one row for it.
    fakeApi.on('GET', INVITED_PATH, { status: 200, body: { users: [invitedIvy, erin] } });
  });

  it('lists active users merged with invited ones by id, newest first, and counts them in the tab label', async () => {
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
    expect(fakeApi.requestsTo('GET', USERS_PATH)[0]?.query.get('includeInactive')).toBeNull();
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

  it('filters by status and by role', async () => {
    const { user } = await openUsersTab();
    await userList();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Suspended');
    expect(await shownEmails()).toEqual(['sam@example.com']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'All statuses');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Editor');
    expect(await shownEmails()).toEqual(['ivy@example.com', 'ada@example.com', 'erin@example.com']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Suspended');
    expect(await screen.findByText('No users found matching the current filters.')).toBeInTheDocument();
  });

  it('shows deleted users from the inactive list without the invited ones', async () => {
    const { user } = await openUsersTab();
    await userList();
    const invitedCalls = fakeApi.requestsTo('GET', INVITED_PATH).length;
    await user.click(screen.getByRole('checkbox', { name: 'Show deleted users' }));

    const dan = await userItem('dan@example.com');
    expect(within(dan).getByText('Deleted')).toBeInTheDocument();
    expect(within(dan).getByRole('button', { name: 'Reactivate dan@example.com' })).toBeInTheDocument();
    expect(within(dan).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(within(await userList()).queryByRole('listitem', { name: 'ivy@example.com' })).toBeNull();
    expect(fakeApi.requestsTo('GET', USERS_PATH).at(-1)?.query.get('includeInactive')).toBe('true');
    expect(fakeApi.requestsTo('GET', INVITED_PATH)).toHaveLength(invitedCalls);
  });

  it('deletes a user only after the Delete User confirmation, then says so and refreshes the list', async () => {
    fakeApi.on('DELETE', `${USERS_PATH}/user-1`, () => {
      activeUsers = [ada, erin, sam];
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
      activeUsers = [...activeUsers, { ...deletedDan, isActive: true, deletedAt: null }];
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
      activeUsers = [ada, erin, { ...pat, status: 'suspended' }, sam];
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
    fakeApi.on('GET', USERS_PATH, () => ({ status: 200, body: { users: [ada, pats] } }));
    fakeApi.on('GET', INVITED_PATH, { status: 200, body: { users: [] } });
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
