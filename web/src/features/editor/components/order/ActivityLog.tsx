import { Alert, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { format } from 'date-fns';
import { EmptyState } from '../../../../components/EmptyState';
import { SectionLoader } from '../../../../components/PageLoader';
import { useOrderEvents } from '../../api/use-order-events';

const formatEventTime = (value: string) => format(new Date(value), "MMM d, yyyy 'at' h:mm a");

/** The order's history, oldest first; asked for only while its tab is open (`active`). */
export function ActivityLog({ orderId, active }: { orderId: string; active: boolean }) {
  const { data, error, isLoading } = useOrderEvents(orderId, active);

  if (!active) return null;
  if (isLoading || (!error && !data)) {
    return (
      <Stack align="center" py="xl">
        <SectionLoader label="Loading the activity log" />
      </Stack>
    );
  }
  if (error || !data) return <Alert color="red">The activity log could not be loaded. Please try again later.</Alert>;
  if (data.events.length === 0) return <EmptyState title="No activity yet" />;

  const events = [...data.events].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return (
    <Stack gap="sm" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Activity log">
      {events.map((event) => (
        <Paper key={event.id} withBorder p="md" radius="md" component="li">
          <Stack gap={6}>
            <Title order={3} fz="sm">
              {event.eventType}
            </Title>
            <Text fz="sm">{event.description}</Text>
            <Text fz="xs" c="gray.7">
              <time dateTime={event.createdAt}>{formatEventTime(event.createdAt)}</time>
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {JSON.stringify(event.metadata ?? {}, null, 2)}
            </Code>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
