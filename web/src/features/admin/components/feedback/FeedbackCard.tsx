import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { FeedbackView } from '@marketplace/events/feedback';
import { feedbackTypeLabels } from '../../../../lib/feedback-labels';
import { formatDate } from '../../../../lib/format-date';
import { FeedbackStatusBadge } from './FeedbackStatusBadge';

export const shortFeedbackId = (id: string) => id.slice(0, 8);

interface FeedbackCardProps {
  item: FeedbackView;
  onViewDetails: () => void;
  onQuickUpdate: (status: 'in_progress' | 'resolved') => void;
  updating: boolean;
}

/** One report: who sent it and when, three lines of it, and the next step for it. */
export function FeedbackCard({ item, onViewDetails, onQuickUpdate, updating }: FeedbackCardProps) {
  return (
    <Paper component="li" withBorder p="md" radius="md" aria-label={`Feedback #${shortFeedbackId(item.id)}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text fw={600} fz="sm" ff="monospace">
              #{shortFeedbackId(item.id)}
            </Text>
            <Text fw={600} fz="sm">
              {feedbackTypeLabels[item.type]}
            </Text>
            <FeedbackStatusBadge status={item.status} />
          </Group>
          <Text fz="xs" c="gray.7" component="time" dateTime={item.createdAt}>
            {formatDate(item.createdAt)}
          </Text>
        </Group>
        <Text fz="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          {item.userName} · {item.userEmail}
        </Text>
        <Text fz="sm" lineClamp={3} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {item.message}
        </Text>
        {item.reviewedAt && (
          <Text fz="xs" c="gray.7">
            Reviewed{item.reviewerName ? ` by ${item.reviewerName}` : ''} on {formatDate(item.reviewedAt)}
          </Text>
        )}
        <Group gap="xs" justify="flex-end" wrap="wrap">
          {item.status === 'open' && (
            <Button size="xs" variant="light" onClick={() => onQuickUpdate('in_progress')} loading={updating}>
              Mark In Progress
            </Button>
          )}
          {item.status === 'in_progress' && (
            <Button
              size="xs"
              variant="light"
              color="teal.9"
              onClick={() => onQuickUpdate('resolved')}
              loading={updating}
            >
              Mark Resolved
            </Button>
          )}
          <Button size="xs" variant="default" onClick={onViewDetails}>
            View Details
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
