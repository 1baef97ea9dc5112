import { Badge, Group } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';
import { deletedBadge, userStatusBadges } from './user-labels';

/** The user's status, and 'Deleted' beside it for a soft-deleted user. */
export function UserStatusBadges({ user }: { user: AdminUserView }) {
  const status = userStatusBadges[user.status] ?? userStatusBadges.suspended;
  return (
    <Group gap={6} wrap="wrap">
      <Badge variant="light" color={status.color} c={status.text} size="sm">
        {status.label}
      </Badge>
      {!user.isActive && (
        <Badge variant="light" color={deletedBadge.color} c={deletedBadge.text} size="sm">
          {deletedBadge.label}
        </Badge>
      )}
    </Group>
  );
}
