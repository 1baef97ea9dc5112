import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { OrderDetailView } from '@marketplace/events/orders';
import { DueTime } from '../../../../components/DueTime';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" fw={600} tt="uppercase" c="gray.7">
        {label}
      </Text>
      <Text fz="lg" fw={600} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** What the editor needs before starting: the photographer's requirements first, then the numbers. */
export function OrderFacts({ order }: { order: OrderDetailView }) {
  // The round the photographer asked for and the editor has not re-delivered yet.
  const openRound = order.revisions.find((round) => round.completedAt === null);
  return (
    <Stack gap="md">
      <Paper
        withBorder
        p={{ base: 'md', sm: 'lg' }}
        radius="lg"
        bg="blue.0"
        component="section"
        aria-labelledby="requirements-heading"
      >
        <Title order={2} fz="md" id="requirements-heading" mb={6}>
          Photographer's Requirements
        </Title>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {order.editingRequirements?.trim() || 'No special requirements.'}
        </Text>
      </Paper>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label="Service">{order.jobTypeName}</Fact>
          <Fact label="Photos to edit">{order.photoCount}</Fact>
          <Fact label="Originals">{order.photographerUploadCount}</Fact>
          <Fact label="Delivered">{order.editorUploadCount}</Fact>
        </SimpleGrid>
        {order.dueAt && (
          <Stack mt="md" gap={0}>
            <DueTime order={order} withTimeLeft revisionDueAt={openRound?.dueAt} />
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
