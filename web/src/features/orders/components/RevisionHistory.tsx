import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { RevisionView } from '@marketplace/events/orders';
import { formatDate } from '../../../lib/format-date';

/** One round's notes: the note for the order, then each photo's by file name. */
export function RevisionNotes({ revision }: { revision: RevisionView }) {
  return (
    <Stack gap={6}>
      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {revision.note}
      </Text>
      {revision.photoNotes.length > 0 && (
        <List fz="sm" spacing={4} aria-label={`Photo notes of revision ${revision.round}`}>
          {revision.photoNotes.map((photo) => (
            <List.Item key={photo.key} style={{ overflowWrap: 'anywhere' }}>
              <Text component="span" fz="sm" fw={600}>
                {photo.filename ?? 'A photo'}:
              </Text>{' '}
              {photo.note}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/** The order's revision rounds, oldest first: when each was asked, what it said, when it came back. */
export function RevisionHistory({ revisions }: { revisions: readonly RevisionView[] }) {
  if (revisions.length === 0) return null;
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="revisions-heading">
      <Title order={2} fz="lg" id="revisions-heading" mb="md">
        Revisions
      </Title>
      <Stack gap="md" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {revisions.map((revision) => (
          <Stack key={revision.round} gap={6} component="li" aria-label={`Revision ${revision.round}`}>
            <Group gap="xs" justify="space-between">
              <Text fw={650}>Revision {revision.round}</Text>
              {revision.completedAt ? (
                <Badge variant="light" color="green" c="#1f5f2c">
                  Re-delivered
                </Badge>
              ) : (
                <Badge variant="light" color="orange" c="#7a3b00">
                  In progress
                </Badge>
              )}
            </Group>
            <Text fz="xs" c="gray.7">
              Requested <time dateTime={revision.requestedAt}>{formatDate(revision.requestedAt)}</time>
              {revision.completedAt && (
                <>
                  {' · '}Re-delivered <time dateTime={revision.completedAt}>{formatDate(revision.completedAt)}</time>
                </>
              )}
            </Text>
            <RevisionNotes revision={revision} />
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
