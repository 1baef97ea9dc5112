import { Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconArrowBackUp } from '@tabler/icons-react';
import { SmallThumbnail } from '../../../../components/photos/SmallThumbnail';
import { formatDate } from '../../../../lib/format-date';
import { useOrderImages } from '../../../../lib/order-images';

/** The open revision round, or null when none is open. */
export const openRevision = (order: OrderDetailView) =>
  order.status === 'revision_requested' ? (order.revisions.findLast((r) => !r.completedAt) ?? null) : null;

/**
 * What the photographer asked to change in the open round: the note, then each photo's note with
 * its file name and picture. Upload the re-edited files (a file of the same name replaces the
 * earlier one) and mark the order complete again.
 */
export function RevisionPanel({ order }: { order: OrderDetailView }) {
  const revision = openRevision(order);
  const { data } = useOrderImages(revision && revision.photoNotes.length > 0 ? order.id : undefined);
  if (!revision) return null;
  const thumbnails = new Map((data?.images ?? []).map((image) => [image.key, image.thumbnailUrl]));
  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      radius="lg"
      bg="orange.0"
      style={{ borderColor: 'var(--mantine-color-orange-4)' }}
      component="section"
      aria-labelledby="revision-panel-heading"
    >
      <Stack gap="sm">
        <div>
          <Group gap="xs" wrap="nowrap">
            <IconArrowBackUp size={20} color="var(--mantine-color-orange-8)" aria-hidden="true" />
            <Title order={2} fz="lg" id="revision-panel-heading">
              Revision {revision.round} requested
            </Title>
          </Group>
          <Text fz="sm" c="gray.8">
            Requested <time dateTime={revision.requestedAt}>{formatDate(revision.requestedAt)}</time>. Upload the
            re-edited files (a file with the same name replaces the earlier one), then mark the order complete again.
          </Text>
        </div>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{revision.note}</Text>
        {revision.photoNotes.length > 0 && (
          <Stack gap="xs">
            <Title order={3} fz="md">
              Notes on photos
            </Title>
            <List listStyleType="none" spacing="xs" p={0} aria-label="Notes on photos">
              {revision.photoNotes.map((photo) => (
                <List.Item key={photo.key}>
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <SmallThumbnail url={thumbnails.get(photo.key)} />
                    <div style={{ minWidth: 0 }}>
                      <Text fz="sm" fw={650} style={{ overflowWrap: 'anywhere' }}>
                        {photo.filename ?? 'A photo'}
                      </Text>
                      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {photo.note}
                      </Text>
                    </div>
                  </Group>
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
