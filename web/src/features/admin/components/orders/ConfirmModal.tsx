import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The label of the button that leaves things as they are. */
  keepLabel: string;
  danger?: boolean;
  onClose: () => void;
  /** Resolves once the action is done; the dialog stays open and its buttons disabled meanwhile. */
  onConfirm: () => Promise<void>;
}

/** A question with two answers, for actions that are not taken lightly. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  keepLabel,
  danger,
  onClose,
  onConfirm,
}: ConfirmModalProps) {
  const [sending, setSending] = useState(false);
  const confirm = async () => {
    setSending(true);
    try {
      await onConfirm();
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal opened={opened} onClose={() => !sending && onClose()} title={title} centered>
      <Stack gap="lg">
        <Text component="div">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={sending}>
            {keepLabel}
          </Button>
          <Button color={danger ? 'red.9' : undefined} onClick={confirm} loading={sending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
