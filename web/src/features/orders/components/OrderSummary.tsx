import { Alert, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { OrderDetailView } from '@marketplace/events/orders';
import { turnaroundTierLabel } from '@marketplace/events/turnaround';
import type { ReactNode } from 'react';
import { DueTime } from '../../../components/DueTime';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" fz="sm" fw={600} c="gray.7">
        {label}
      </Text>
      <Text component="dd" m={0} mt={2}>
        {children}
      </Text>
    </div>
  );
}

/** What was ordered, what it cost and when things happened. */
export function OrderSummary({ order }: { order: OrderDetailView }) {
  // Back for a revision, what is owed is the open round, by its own due time (rounds from before tiers have none).
  const openRound = order.revisions.find((round) => round.completedAt === null);
  const showDue =
    !!order.dueAt &&
    (order.status === 'paid' ||
      order.status === 'in_progress' ||
      (order.status === 'revision_requested' && !!openRound?.dueAt));
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="order-summary-heading">
      <Title order={2} fz="lg" id="order-summary-heading" mb="md">
        Order Summary
      </Title>
      <Stack gap="md">
        <SimpleGrid component="dl" cols={{ base: 2, sm: 3 }} spacing="md" verticalSpacing="md" m={0}>
          <Fact label="Photo count">{order.photoCount}</Fact>
          <Fact label="Total cost">{formatMoney(order.totalAmountCents)}</Fact>
          <Fact label="Service type">{order.jobTypeName}</Fact>
          <Fact label="Turnaround">{turnaroundTierLabel[order.turnaroundTier]}</Fact>
          <Fact label="Created">
            <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
          </Fact>
          <Fact label="Completed">
            {order.completedAt ? <time dateTime={order.completedAt}>{formatDate(order.completedAt)}</time> : 'Not yet'}
          </Fact>
          {showDue && (
            <Fact label="Due">
              <DueTime order={order} fz="md" revisionDueAt={openRound?.dueAt} />
            </Fact>
          )}
        </SimpleGrid>
        {order.lateCredits.map((credit) => (
          <Alert key={credit.round} color="yellow" variant="light" data-testid="late-credit">
            <Text fz="sm" c="dark">
              {credit.round > 0 ? `Revision ${credit.round}: ` : ''}
              {credit.text}
            </Text>
          </Alert>
        ))}
        <div>
          <Text fz="sm" fw={600} c="gray.7">
            Editing requirements
          </Text>
          <Text mt={2} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {order.editingRequirements ?? 'None given'}
          </Text>
        </div>
      </Stack>
    </Paper>
  );
}
