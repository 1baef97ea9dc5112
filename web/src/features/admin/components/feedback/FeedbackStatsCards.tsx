import { Paper, Text } from '@mantine/core';
import { IconAlertTriangle, IconBulb, IconInbox, IconMessages } from '@tabler/icons-react';
import { StatCardGrid } from '../../../../components/StatCard';
import { useFeedbackStats } from '../../api/feedback';

/** Total Feedback, Problems, Suggestions and Open Items. */
export function FeedbackStatsCards() {
  const { data, isLoading } = useFeedbackStats();
  const stats = data?.stats;
  return (
    <StatCardGrid
      loading={isLoading}
      loadingLabel="Loading statistics"
      fallback={
        <Paper withBorder p="md" radius="lg">
          <Text c="gray.7">No statistics available</Text>
        </Paper>
      }
      cards={
        stats
          ? [
              { label: 'Total Feedback', value: String(stats.total), icon: <IconMessages size={22} /> },
              { label: 'Problems', value: String(stats.byType.problem), icon: <IconAlertTriangle size={22} /> },
              { label: 'Suggestions', value: String(stats.byType.suggestion), icon: <IconBulb size={22} /> },
              { label: 'Open Items', value: String(stats.byStatus.open), icon: <IconInbox size={22} /> },
            ]
          : undefined
      }
    />
  );
}
