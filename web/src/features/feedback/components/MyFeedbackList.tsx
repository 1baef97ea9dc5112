import { Alert, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { feedbackStatusBadges, feedbackTypeLabels } from '../../../lib/feedback-labels';
import { formatDate } from '../../../lib/format-date';
import { useMyFeedback } from '../api/use-my-feedback';

const SHOWN_REPORTS = 5;

function ListBody() {
  const { data, error, isLoading } = useMyFeedback();
  if (isLoading) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading your reports">
        <Skeleton height={72} radius="md" />
        <Skeleton height={72} radius="md" />
      </Stack>
    );
  }
  if (error || !data) {
    return <Alert color="red">Your earlier reports could not be loaded. Please try again later.</Alert>;
  }
  if (data.feedback.length === 0) {
    return <Text c="dimmed">You have not sent any reports yet.</Text>;
  }
  const shown = data.feedback.slice(0, SHOWN_REPORTS);
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {shown.map((item) => {
        const status = feedbackStatusBadges[item.status];
        return (
          <Paper component="li" withBorder p="md" radius="md" key={item.id}>
            <Group justify="space-between" gap="xs" mb={6}>
              <Group gap="xs">
                <Text fw={600} fz="sm">
                  {feedbackTypeLabels[item.type]}
                </Text>
                <Badge color={status.color} variant="light" size="sm">
                  {status.label}
                </Badge>
              </Group>
              <Text c="dimmed" fz="xs" component="time" dateTime={item.createdAt}>
                {formatDate(item.createdAt)}
              </Text>
            </Group>
            <Text fz="sm" lineClamp={2} c="dark.4">
              {item.message}
            </Text>
          </Paper>
        );
      })}
      {data.feedback.length > SHOWN_REPORTS && (
        <Text c="dimmed" fz="xs">
          Showing your {SHOWN_REPORTS} most recent reports.
        </Text>
      )}
    </Stack>
  );
}

/** The user's own earlier reports, so they can see what they already told us and where it stands. */
export function MyFeedbackList() {
  return (
    <Stack gap="md" component="section" aria-labelledby="my-feedback-heading">
      <Title order={2} fz="lg" id="my-feedback-heading">
        Your earlier reports
      </Title>
      <ListBody />
    </Stack>
  );
}
