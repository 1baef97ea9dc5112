import { Paper, Text, Timeline, Title } from '@mantine/core';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconCheck } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format-date';

/** The order's milestones, each with its date once reached; each revision round adds its request and re-delivery. */
export function OrderTimeline({ order }: { order: OrderDetailView }) {
  const steps = [
    { title: 'Order Created', at: order.createdAt },
    { title: 'Payment Received', at: order.paidAt },
    { title: 'Editor Assigned', at: order.assignedAt },
    { title: 'Work Started', at: order.claimedAt },
    { title: 'Order Completed', at: order.completedAt },
    ...order.revisions.flatMap((revision) => [
      { title: `Revision ${revision.round} Requested`, at: revision.requestedAt },
      { title: `Revision ${revision.round} Re-delivered`, at: revision.completedAt },
    ]),
  ];
  const lastReached = steps.findLastIndex((step) => step.at);
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="order-timeline-heading">
      <Title order={2} fz="lg" id="order-timeline-heading" mb="md">
        Timeline
      </Title>
      <Timeline
        active={lastReached}
        bulletSize={22}
        lineWidth={2}
        component="ol"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {steps.map((step) => (
          <Timeline.Item
            key={step.title}
            component="li"
            title={step.title}
            bullet={step.at ? <IconCheck size={12} aria-hidden="true" /> : undefined}
          >
            <Text fz="sm" c="gray.7">
              {step.at ? <time dateTime={step.at}>{formatDate(step.at)}</time> : 'Not yet'}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}
