import { Modal, SimpleGrid, Text } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';
import { formatDate } from '../../../../lib/format-date';
import { roleLabels, roleOrder, userStatusBadges } from './user-labels';

const orNone = (value: string | null | undefined) => value || '—';

/** Every field of one user, read-only. */
export function UserDetailsModal({ user, onClose }: { user: AdminUserView | null; onClose: () => void }) {
  const fields: [string, string][] = user
    ? [
        ['ID', user.id],
        ['Email', user.email],
        ['Name', orNone(user.displayName)],
        ['Status', userStatusBadges[user.status]?.label ?? user.status],
        [
          'Roles',
          roleOrder
            .filter((role) => user.roles.includes(role))
            .map((role) => roleLabels[role])
            .join(', ') || 'No roles',
        ],
        ['Active', user.isActive ? 'Yes' : 'No (deleted)'],
        ['Created', formatDate(user.createdAt)],
        ['Invited', user.invitedAt ? formatDate(user.invitedAt) : '—'],
        ['Deleted', user.deletedAt ? formatDate(user.deletedAt) : '—'],
      ]
    : [];
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title="User Details"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={4} m={0}>
        {fields.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" fz="xs" fw={600} c="gray.7">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
