import { Badge, Group, Loader, Text } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';
import { deletedBadge, signInPendingLabels, userStatusBadges } from './user-labels';

/**
 * The user's status, and 'Deleted' beside it for a soft-deleted user; while sign-in is still being
 * disabled or enabled at the identity provider, a small note saying so (the list reads again until
 * it is done).
 */
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
      {user.signInPending && (
        <Group gap={4} wrap="nowrap" role="status">
          <Loader size={10} color="gray.7" aria-hidden="true" />
          <Text fz="xs" c="gray.7">
            {signInPendingLabels[user.signInPending]}
          </Text>
        </Group>
      )}
    </Group>
  );
}
