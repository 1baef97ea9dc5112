import { Button, Group, Modal, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { ADMIN_NOTES_MAX } from '@marketplace/events/admin';
import { type FeedbackStatus, type FeedbackView, feedbackStatuses } from '@marketplace/events/feedback';
import { useEffect, useState } from 'react';
import { feedbackStatusBadges, feedbackTypeLabels } from '../../../../lib/feedback-labels';
import { formatDate } from '../../../../lib/format-date';
import type { FeedbackUpdate } from '../../api/feedback';
import { shortFeedbackId } from './FeedbackCard';
import { FeedbackStatusBadge } from './FeedbackStatusBadge';

interface FeedbackDetailsModalProps {
  item: FeedbackView | null;
  saving: boolean;
  onSave: (update: FeedbackUpdate) => void;
  onClose: () => void;
}

/** The whole message, the admin's notes and any status. */
export function FeedbackDetailsModal({ item, saving, onSave, onClose }: FeedbackDetailsModalProps) {
  const [status, setStatus] = useState<FeedbackStatus>('open');
  const [notes, setNotes] = useState('');
  useEffect(() => {
    if (!item) return;
    setStatus(item.status);
    setNotes(item.adminNotes ?? '');
  }, [item]);

  return (
    <Modal
      opened={item !== null}
      onClose={() => !saving && onClose()}
      title="Feedback Details"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {item && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSave({ status, adminNotes: notes });
          }}
        >
          <Stack gap="md">
            <Group gap="xs" wrap="wrap">
              <Text fw={600} ff="monospace">
                #{shortFeedbackId(item.id)}
              </Text>
              <Text fw={600}>{feedbackTypeLabels[item.type]}</Text>
              <FeedbackStatusBadge status={item.status} />
            </Group>
            <Text fz="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
              From {item.userName} ({item.userEmail}) on {formatDate(item.createdAt)}
              {item.reviewedAt &&
                ` · reviewed${item.reviewerName ? ` by ${item.reviewerName}` : ''} on ${formatDate(item.reviewedAt)}`}
            </Text>
            <Stack gap={4}>
              <Text fz="sm" fw={600}>
                Message
              </Text>
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{item.message}</Text>
            </Stack>
            <Textarea
              label="Admin notes"
              value={notes}
              onChange={(event) => setNotes(event.currentTarget.value)}
              autosize
              minRows={3}
              maxRows={10}
              maxLength={ADMIN_NOTES_MAX}
            />
            <NativeSelect
              label="Status"
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as FeedbackStatus)}
              data={feedbackStatuses.map((value) => ({ value, label: feedbackStatusBadges[value].label }))}
              maw={240}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                Update Feedback
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
