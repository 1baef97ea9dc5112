import { Button, Group, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useAdminOrderActions } from '../../api/orders';
import { AssignEditorModal } from './AssignEditorModal';

const BULK_ASSIGN_FAILURE = 'Failed to bulk assign orders';

const ordersText = (count: number) => `${count} ${count === 1 ? 'order' : 'orders'}`;

/** The bar over a selection: how many are ticked, and the dialog that gives them all to one editor. */
export function BulkAssign({
  orderIds,
  onDone,
  onClear,
}: {
  orderIds: string[];
  onDone: () => void;
  onClear: () => void;
}) {
  const actions = useAdminOrderActions();
  const [opened, setOpened] = useState(false);

  const assign = async (editorId: string): Promise<boolean> => {
    try {
      const answer = await actions.bulkAssign(orderIds, editorId);
      // The server's message says how many were assigned and which were not, and why.
      notifications.show({ color: answer.notAssigned.length ? 'yellow' : 'green', message: answer.message });
      setOpened(false);
      onDone();
      return true;
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, BULK_ASSIGN_FAILURE) });
      return false;
    }
  };

  return (
    <Paper withBorder p="sm" radius="md" bg="harbor.0" role="region" aria-label="Selected orders">
      <Group justify="space-between" gap="sm">
        <Text fw={600} aria-live="polite">
          {ordersText(orderIds.length)} selected
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={onClear}>
            Clear selection
          </Button>
          <Button
            size="xs"
            leftSection={<IconUsersPlus size={16} aria-hidden="true" />}
            onClick={() => setOpened(true)}
          >
            Bulk Assign
          </Button>
        </Group>
      </Group>
      <AssignEditorModal
        opened={opened}
        title="Bulk Assign Orders"
        submitLabel={`Assign ${ordersText(orderIds.length)}`}
        onClose={() => setOpened(false)}
        onAssign={assign}
      >
        Choose the editor who should work on the {ordersText(orderIds.length)} you selected.
      </AssignEditorModal>
    </Paper>
  );
}
