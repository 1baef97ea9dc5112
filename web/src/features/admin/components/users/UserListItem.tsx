import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';
import { IconEye, IconPlayerPause, IconRefresh, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { formatDate } from '../../../../lib/format-date';
import { UserStatusBadges } from './UserStatusBadges';
import { roleLabels, roleOrder } from './user-labels';

/** An invited person without an account yet: there is nothing to manage until they sign up. */
export const isPlaceholder = (user: AdminUserView) => user.status === 'invited';

interface UserListItemProps {
  user: AdminUserView;
  onManageRoles: () => void;
  onViewDetails: () => void;
  onDelete: () => void;
  onSuspend: () => void;
  onReactivate: () => void;
  reactivating: boolean;
  /** The signed-in admin's own row: the server refuses suspending or deleting yourself, so neither is offered. */
  isSelf: boolean;
}

/** One user as a card: a row on a wide screen, stacked on a phone. */
export function UserListItem({
  user,
  onManageRoles,
  onViewDetails,
  onDelete,
  onSuspend,
  onReactivate,
  reactivating,
  isSelf,
}: UserListItemProps) {
  const name = user.displayName || user.email;
  const isAdmin = user.roles.includes('admin');
  const manageable = !isPlaceholder(user);
  const suspended = user.status === 'suspended';
  return (
    <Paper component="li" withBorder p="md" radius="md" aria-label={user.email}>
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Group gap={6} wrap="nowrap">
            {isAdmin && (
              <IconShieldCheck
                size={18}
                color="var(--mantine-color-blue-8)"
                role="img"
                aria-label="Admin"
                style={{ flexShrink: 0 }}
              />
            )}
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
          </Group>
          {user.displayName && (
            <Text fz="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
          )}
          <Text fz="xs" c="gray.7">
            {user.isActive ? 'Joined' : 'Deleted'}{' '}
            {formatDate(user.isActive ? user.createdAt : (user.deletedAt ?? user.createdAt))}
          </Text>
        </Stack>
        <Stack gap={6} style={{ flex: '1 1 180px' }}>
          <UserStatusBadges user={user} />
          <Group gap={6} wrap="wrap" aria-label="Roles">
            {user.roles.length === 0 ? (
              <Text fz="xs" c="gray.7">
                No roles
              </Text>
            ) : (
              roleOrder
                .filter((role) => user.roles.includes(role))
                .map((role) => (
                  <Badge key={role} variant="outline" color="dark" size="sm">
                    {roleLabels[role]}
                  </Badge>
                ))
            )}
          </Group>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {manageable && (
            <Button variant="light" size="xs" onClick={onManageRoles}>
              Manage Roles
            </Button>
          )}
          <Tooltip label="View details">
            <ActionIcon
              variant="subtle"
              color="dark"
              size="lg"
              onClick={onViewDetails}
              aria-label={`View details of ${user.email}`}
            >
              <IconEye size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          {manageable && !isSelf && user.isActive && !suspended && (
            <Tooltip label="Suspend user">
              <ActionIcon
                variant="subtle"
                color="orange.9"
                size="lg"
                onClick={onSuspend}
                aria-label={`Suspend ${user.email}`}
              >
                <IconPlayerPause size={18} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
          {manageable && !isSelf && user.isActive && (
            <Tooltip label="Delete user">
              <ActionIcon
                variant="subtle"
                color="red.8"
                size="lg"
                onClick={onDelete}
                aria-label={`Delete ${user.email}`}
              >
                <IconTrash size={18} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
          {manageable && (!user.isActive || suspended) && (
            <Tooltip label="Reactivate user">
              <ActionIcon
                variant="subtle"
                color="teal.9"
                size="lg"
                onClick={onReactivate}
                loading={reactivating}
                aria-label={`Reactivate ${user.email}`}
              >
                <IconRefresh size={18} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
