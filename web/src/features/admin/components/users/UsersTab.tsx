import { Alert, Checkbox, Group, NativeSelect, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUserView } from '@marketplace/events/admin';
import type { Role, UserStatus } from '@marketplace/events/roles';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useCurrentUser } from '../../../../lib/current-user';
import { useAdminUsers, useUserAdminActions } from '../../api/users';
import { ConfirmUserActionModal, type UserAction } from './ConfirmUserActionModal';
import { ManageRolesModal } from './ManageRolesModal';
import { UserDetailsModal } from './UserDetailsModal';
import { UserListItem } from './UserListItem';
import { roleLabels, roleOrder, userStatusBadges } from './user-labels';

type StatusFilter = 'all' | UserStatus;
type RoleFilter = 'all' | Role;

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

const matches = (user: AdminUserView, status: StatusFilter, role: RoleFilter) =>
  (status === 'all' || user.status === status) && (role === 'all' || user.roles.includes(role));

/** All Users: every account and invited person, filtered here; roles, details, delete and reactivate. */
export function UsersTab() {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [role, setRole] = useState<RoleFilter>('all');
  const [showDeleted, setShowDeleted] = useState(false);
  const { users, error, isLoading } = useAdminUsers({ includeDeleted: showDeleted });
  const { deleteUser, suspendUser, reactivateUser } = useUserAdminActions();
  const { data: me } = useCurrentUser();

  const [managingId, setManagingId] = useState<string | null>(null);
  const [viewing, setViewing] = useState<AdminUserView | null>(null);
  const [confirming, setConfirming] = useState<{ user: AdminUserView; action: UserAction } | null>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [reactivatingId, setReactivatingId] = useState<string | null>(null);

  // The modal follows the list, so a role change shows once the list is refreshed.
  const managing = users?.find((user) => user.id === managingId) ?? null;
  const shown = users?.filter((user) => matches(user, status, role));

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
            onChange={(event) => setStatus(event.currentTarget.value as StatusFilter)}
            data={statusOptions}
            style={{ flex: '1 1 160px' }}
            maw={240}
          />
          <NativeSelect
            label="Role"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as RoleFilter)}
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

      {isLoading ? (
        <Stack gap="sm" role="status" aria-label="Loading users">
          <Skeleton height={84} radius="md" />
          <Skeleton height={84} radius="md" />
          <Skeleton height={84} radius="md" />
        </Stack>
      ) : error || !shown ? (
        <Alert color="red" title="Users could not be loaded">
          {apiErrorText(error, 'Please try again later.')}
        </Alert>
      ) : shown.length === 0 ? (
        <Paper withBorder p="xl" radius="md">
          <Text ta="center" c="gray.7">
            No users found matching the current filters.
          </Text>
        </Paper>
      ) : (
        <>
          <Text fz="sm" c="gray.7" aria-live="polite">
            {shown.length === 1 ? '1 user' : `${shown.length} users`}
          </Text>
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Users">
            {shown.map((user) => (
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
