import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { IconAlertTriangle, IconBulb, IconInbox, IconMessages } from '@tabler/icons-react';
import { StatCard } from '../../../../components/StatCard';
import { useFeedbackStats } from '../../api/feedback';

/** Total Feedback, Problems, Suggestions and Open Items. */
export function FeedbackStatsCards() {
  const { data, isLoading } = useFeedbackStats();
  if (isLoading) {
    return (
      <SimpleGrid cols={{ base: 2, md: 4 }} role="status" aria-label="Loading statistics">
        {[1, 2, 3, 4].map((key) => (
          <Skeleton key={key} height={96} radius="lg" />
        ))}
      </SimpleGrid>
    );
  }
  const stats = data?.stats;
  if (!stats) {
    return (
      <Paper withBorder p="md" radius="lg">
        <Text c="gray.7">No statistics available</Text>
      </Paper>
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }}>
      <StatCard label="Total Feedback" value={String(stats.total)} icon={<IconMessages size={22} />} />
      <StatCard label="Problems" value={String(stats.byType.problem)} icon={<IconAlertTriangle size={22} />} />
      <StatCard label="Suggestions" value={String(stats.byType.suggestion)} icon={<IconBulb size={22} />} />
      <StatCard label="Open Items" value={String(stats.byStatus.open)} icon={<IconInbox size={22} />} />
    </SimpleGrid>
  );
}
