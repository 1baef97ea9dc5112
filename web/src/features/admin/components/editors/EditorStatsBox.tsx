import { Alert, Group, Loader, Paper, SimpleGrid, Text } from '@mantine/core';
import type { AdminEditorStatsView } from '@marketplace/events/admin';
import { RATING_MAX } from '@marketplace/events/orders';
import { apiErrorText } from '../../../../lib/api-client';
import { useAdminEditorStats } from '../../api/editors';

const ratingText = ({ averageRating, ratingCount }: AdminEditorStatsView) =>
  averageRating === null || ratingCount === 0
    ? 'No ratings'
    : `${averageRating.toFixed(1)}/${RATING_MAX} (${ratingCount} ${ratingCount === 1 ? 'rating' : 'ratings'})`;

const turnaroundText = ({ averageTurnaroundHours }: AdminEditorStatsView) =>
  averageTurnaroundHours === null ? 'No data' : `${averageTurnaroundHours.toFixed(1)} h`;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" fw={600} c="gray.7">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** The editor's performance: average rating, how long an order takes from claim to completion, and order counts. */
export function EditorStatsBox({ editorId }: { editorId: string }) {
  const { data, error } = useAdminEditorStats(editorId);
  return (
    <Paper bg="gray.0" p="sm" radius="md" role="group" aria-label="Performance">
      {error ? (
        <Alert color="red" p="xs">
          {apiErrorText(error, 'Failed to load stats')}
        </Alert>
      ) : !data ? (
        <Group justify="center" role="status" aria-label="Loading stats">
          <Loader size="sm" aria-hidden="true" />
        </Group>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Stat label="Average rating" value={ratingText(data)} />
          <Stat label="Average turnaround" value={turnaroundText(data)} />
          <Stat label="Completed orders" value={String(data.completedOrders)} />
          <Stat label="Active orders" value={String(data.activeOrders)} />
        </SimpleGrid>
      )}
    </Paper>
  );
}
