import { Alert, Button, Checkbox, Group, NativeSelect, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUserView } from '@marketplace/events/admin';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { apiErrorText } from '../../../../lib/api-client';
import { useCurrentUser } from '../../../../lib/current-user';
import {
  type AdminUsersPageQuery,
  type UserRoleFilter,
  type UserStatusFilter,
  useAdminUsers,
  useUserAdminActions,
} from '../../api/users';
import { ListPagination, needsPages } from '../ListPagination';
import { useCursorPaging } from '../use-cursor-paging';
import { ConfirmUserActionModal, type UserAction } from './ConfirmUserActionModal';
import { ManageRolesModal } from './ManageRolesModal';
import { UserDetailsModal } from './UserDetailsModal';
import { UserListItem } from './UserListItem';
import { roleLabels, roleOrder, userStatusBadges } from './user-labels';

const LOOK_FURTHER = 'No matching users among the ones this page looked through: Next looks further.';

const statusOptions = [
  { value: 'all', label: 'All statuses' },
  ...(['verified', 'invited', 'suspended'] as const).map((status) => ({
    value: status,
    label: userStatusBadges[status].label,
  })),
];
const roleOptions = [
  { value: 'all', label: 'All roles' },
  ...roleOrder.map((role) => ({ value: role, label: roleLabels[role] })),
];

/**
 * All Users: accounts and invited people, a page at a time, filtered and paged by the server (the
 * marketplace may hold many thousands); roles, details, delete and reactivate.
 */
export function UsersTab() {
  const [status, setStatus] = useState<UserStatusFilter>('all');
  const [role, setRole] = useState<UserRoleFilter>('all');
  const [showDeleted, setShowDeleted] = useState(false);
  const paging = useCursorPaging(JSON.stringify([status, role, showDeleted]));
  const query: AdminUsersPageQuery = {
    page: paging.page,
    status,
    role,
    includeDeleted: showDeleted,
    cursor: paging.cursor,
  };
  const { data, error, isLoading, isValidating } = useAdminUsers(query);
  const users = data?.users;
  const { deleteUser, suspendUser, reactivateUser } = useUserAdminActions();
  const { data: me } = useCurrentUser();

  const [managingId, setManagingId] = useState<string | null>(null);
  const [viewing, setViewing] = useState<AdminUserView | null>(null);
  const [confirming, setConfirming] = useState<{ user: AdminUserView; action: UserAction } | null>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [reactivatingId, setReactivatingId] = useState<string | null>(null);

  // The modal follows the list, so a role change shows once the list is refreshed.
  const managing = users?.find((user) => user.id === managingId) ?? null;
  const pages = { page: paging.page, pageCount: data?.totalPages ?? 1, hasNext: Boolean(data?.nextCursor) };

  const confirmAction = async () => {
    if (!confirming) return;
    const { user, action } = confirming;
    setConfirmBusy(true);
    try {
      const changed = await (action === 'delete' ? deleteUser : suspendUser)(user.id);
      const email = changed?.email ?? user.email;
      notifications.show({
        color: 'green',
        message: action === 'delete' ? `User ${email} deleted successfully` : `User ${email} suspended successfully`,
      });
      setConfirming(null);
    } catch (failure) {
      notifications.show({
        color: 'red',
        message: apiErrorText(failure, action === 'delete' ? 'Failed to delete user' : 'Failed to suspend user'),
      });
    } finally {
      setConfirmBusy(false);
    }
  };

  const reactivate = async (user: AdminUserView) => {
    setReactivatingId(user.id);
    try {
      const reactivated = await reactivateUser(user.id);
      notifications.show({
        color: 'green',
        message: `User ${reactivated?.email ?? user.email} reactivated successfully`,
      });
      setShowDeleted(false);
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'Failed to reactivate user') });
    } finally {
      setReactivatingId(null);
    }
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <NativeSelect
            label="Status"
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value as UserStatusFilter)}
            data={statusOptions}
            style={{ flex: '1 1 160px' }}
            maw={240}
          />
          <NativeSelect
            label="Role"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as UserRoleFilter)}
            data={roleOptions}
            style={{ flex: '1 1 160px' }}
            maw={240}
          />
          <Checkbox
            label="Show deleted users"
            checked={showDeleted}
            onChange={(event) => setShowDeleted(event.currentTarget.checked)}
            mb={8}
          />
        </Group>
      </Paper>

      {isLoading && !data ? (
        <Stack gap="sm" role="status" aria-label="Loading users">
          <Skeleton height={84} radius="md" />
          <Skeleton height={84} radius="md" />
          <Skeleton height={84} radius="md" />
        </Stack>
      ) : error || !users ? (
        <Alert color="red" title="Users could not be loaded">
          {apiErrorText(error, 'Please try again later.')}
        </Alert>
      ) : users.length === 0 && paging.page > 1 && !pages.hasNext ? (
        // A delete can empty the last page; offer the way back rather than a dead end.
        <EmptyState
          title="This page is empty now"
          action={
            <Button variant="default" onClick={paging.first}>
              Back to page 1
            </Button>
          }
        />
      ) : users.length === 0 && !pages.hasNext ? (
        <Paper withBorder p="xl" radius="md">
          <Text ta="center" c="gray.7">
            No users found matching the current filters.
          </Text>
        </Paper>
      ) : (
        <>
          <Text fz="sm" c="gray.7" aria-live="polite">
            {data?.total === 1 ? '1 user' : `${data?.total ?? users.length} users`}
          </Text>
          {users.length === 0 && (
            // A rare filter over many users: this page looked through its share of them and found none.
            <Text fz="sm" c="gray.7">
              {LOOK_FURTHER}
            </Text>
          )}
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Users">
            {users.map((user) => (
              <UserListItem
                key={user.id}
                user={user}
                onManageRoles={() => setManagingId(user.id)}
                onViewDetails={() => setViewing(user)}
                onDelete={() => setConfirming({ user, action: 'delete' })}
                onSuspend={() => setConfirming({ user, action: 'suspend' })}
                onReactivate={() => reactivate(user)}
                reactivating={reactivatingId === user.id}
                isSelf={user.id === me?.id}
              />
            ))}
          </Stack>
          {needsPages(pages) && (
            <ListPagination
              noun="users"
              shown={users.length}
              total={data?.total ?? users.length}
              {...pages}
              busy={isValidating}
              onPrevious={paging.previous}
              onNext={() => paging.next(data?.nextCursor ?? null)}
            />
          )}
        </>
      )}

      <ManageRolesModal user={managing} onClose={() => setManagingId(null)} />
      <UserDetailsModal user={viewing} onClose={() => setViewing(null)} />
      <ConfirmUserActionModal
        pending={confirming}
        busy={confirmBusy}
        onConfirm={confirmAction}
        onClose={() => setConfirming(null)}
      />
    </Stack>
  );
}
