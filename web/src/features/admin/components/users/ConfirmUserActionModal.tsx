import { Button, Group, Modal, Text } from '@mantine/core';
import type { AdminUserView } from '@marketplace/events/admin';

export type UserAction = 'delete' | 'suspend';

const actionTexts: Record<UserAction, { title: string; verb: string; consequence: string; color: string }> = {
  delete: {
    title: 'Delete User',
    verb: 'delete',
    consequence:
      "They will no longer be able to sign in. Their orders and history are kept, and you can reactivate them later from 'Show deleted users'.",
    color: 'red.8',
  },
  suspend: {
    title: 'Suspend User',
    verb: 'suspend',
    consequence: 'They stay listed but can no longer sign in until you reactivate them.',
    color: 'orange.9',
  },
};

interface ConfirmUserActionModalProps {
  pending: { user: AdminUserView; action: UserAction } | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The confirmation a delete ('Delete User') or a suspension asks for. */
export function ConfirmUserActionModal({ pending, busy, onConfirm, onClose }: ConfirmUserActionModalProps) {
  const texts = actionTexts[pending?.action ?? 'delete'];
  return (
    <Modal
      opened={pending !== null}
      onClose={() => !busy && onClose()}
      title={texts.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text mb="sm" style={{ overflowWrap: 'anywhere' }}>
        Are you sure you want to {texts.verb} <strong>{pending?.user.email}</strong>?
      </Text>
      <Text fz="sm" c="gray.7" mb="lg">
        {texts.consequence}
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color={texts.color} onClick={onConfirm} loading={busy}>
          {texts.title}
        </Button>
      </Group>
    </Modal>
  );
}
