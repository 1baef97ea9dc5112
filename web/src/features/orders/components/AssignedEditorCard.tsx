import { Button, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconStar } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format-date';
import { RateEditorModal } from './RateEditorModal';
import { RatingStars } from './RatingStars';

/** Who is editing the order, what they said about it, and the photographer's rating of them. */
export function AssignedEditorCard({ order }: { order: OrderDetailView }) {
  const [rating, { open: openRating, close: closeRating }] = useDisclosure(false);
  const canRate = order.status === 'completed' && order.photographerRating === null;
  const editorName = order.editor?.displayName ?? order.editor?.email ?? 'Your editor';
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="assigned-editor-heading">
      <Title order={2} fz="lg" id="assigned-editor-heading" mb="md">
        Assigned Editor
      </Title>
      <Stack gap="md">
        {order.editor ? (
          <div>
            <Text fw={600}>{editorName}</Text>
            {order.assignedAt && (
              <Text fz="sm" c="gray.7">
                Assigned <time dateTime={order.assignedAt}>{formatDate(order.assignedAt)}</time>
              </Text>
            )}
          </div>
        ) : (
          <Text c="gray.7">No editor has been assigned yet.</Text>
        )}
        {order.photographerRating !== null && (
          <div>
            <Text fz="sm" fw={600} c="gray.7" mb={4}>
              Your rating
            </Text>
            <RatingStars rating={order.photographerRating} />
          </div>
        )}
        {canRate && (
          <Button onClick={openRating} leftSection={<IconStar size={16} aria-hidden="true" />}>
            Rate Editor
          </Button>
        )}
        {/* Stays mounted through the save, so the modal can close itself once the rating shows. */}
        {order.status === 'completed' && <RateEditorModal orderId={order.id} opened={rating} onClose={closeRating} />}
        <Divider />
        <div>
          <Text fz="sm" fw={600} c="gray.7" mb={4}>
            Editor notes
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {order.editorNotes ?? 'No notes from the editor yet.'}
          </Text>
        </div>
      </Stack>
    </Paper>
  );
}
