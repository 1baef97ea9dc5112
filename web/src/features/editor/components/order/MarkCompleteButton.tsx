import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apiErrorText } from '../../../../lib/api-client';
import { useCompleteEditorOrder } from '../../api/use-editor-order';

const CONFIRM_TEXT = 'Are you sure you want to mark this order as completed? This action cannot be undone.';
const COMPLETE_SUCCESS = 'Order marked as completed!';
const COMPLETE_FAILURE = 'Failed to complete order';

/** 'Mark Complete': asks first, sends the editor's notes, then returns to the dashboard. */
export function MarkCompleteButton({ orderId, editorNotes }: { orderId: string; editorNotes: string }) {
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const navigate = useNavigate();
  const completeOrder = useCompleteEditorOrder(orderId);

  const complete = async () => {
    setSending(true);
    try {
      await completeOrder(editorNotes);
      notifications.show({ color: 'green', message: COMPLETE_SUCCESS });
      navigate('/editor');
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, COMPLETE_FAILURE) });
      setSending(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <Button
        color="teal.9"
        onClick={() => setConfirming(true)}
        leftSection={<IconCircleCheck size={18} aria-hidden="true" />}
      >
        Mark Complete
      </Button>
      <Modal
        opened={confirming}
        onClose={() => !sending && setConfirming(false)}
        title="Mark order as completed"
        centered
      >
        <Text mb="lg">{CONFIRM_TEXT}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setConfirming(false)} disabled={sending}>
            Cancel
          </Button>
          <Button color="teal.9" onClick={complete} loading={sending}>
            Yes, mark complete
          </Button>
        </Group>
      </Modal>
    </>
  );
}
