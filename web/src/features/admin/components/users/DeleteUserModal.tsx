import { Button, Group, Modal, Text } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';

interface DeleteUserModalProps {
  user: AdminUserView | null;
  deleting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** 'Delete User': the confirmation a soft delete needs. */
export function DeleteUserModal({ user, deleting, onConfirm, onClose }: DeleteUserModalProps) {
  return (
    <Modal
      opened={user !== null}
      onClose={() => !deleting && onClose()}
      title="Delete User"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text mb="sm">
        Are you sure you want to delete <strong>{user?.email}</strong>?
      </Text>
      <Text fz="sm" c="gray.7" mb="lg">
        They will no longer be able to sign in. Their orders and history are kept, and you can reactivate them later
        from 'Show deleted users'.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={deleting}>
          Cancel
        </Button>
        <Button color="red.8" onClick={onConfirm} loading={deleting}>
          Delete User
        </Button>
      </Group>
    </Modal>
  );
}
