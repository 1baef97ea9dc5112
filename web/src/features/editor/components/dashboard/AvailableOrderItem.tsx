import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { addOnLineLabel } from '@marketplace/events/add-ons';
import type { AvailableOrderView } from '@marketplace/events/editor-orders';
import { orderDisplayName } from '@marketplace/events/orders';
import { IconEye } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { DueTime } from '../../../../components/DueTime';
import { formatDate } from '../../../../lib/format-date';
import { formatMoney } from '../../../../lib/format-money';
import { ClaimOrderButton } from './ClaimOrderButton';

const RATE_NOT_SET = 'Rate not set';

export const photoCountText = (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`;

/** What the editor would earn, or why that cannot be said yet. */
export const earningsText = (cents: number | null) => (cents === null ? RATE_NOT_SET : formatMoney(cents));

/** One order on offer: what it is, what it pays, and the buttons to look at it or take it. */
export function AvailableOrderItem({ order }: { order: AvailableOrderView }) {
  const titleId = useId();
  return (
    <Paper component="li" withBorder p="md" radius="md" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text id={titleId} fw={650} style={{ overflowWrap: 'anywhere' }}>
                {orderDisplayName(order)}
              </Text>
              {order.assignedToMe && (
                <Badge variant="light" color="blue" c="#10487a" size="sm">
                  Assigned to you
                </Badge>
              )}
            </Group>
            <Text fz="sm" c="gray.7">
              {order.jobTypeName} · {photoCountText(order.photoCount)}
            </Text>
            {(order.addOns ?? []).length > 0 && (
              <Text fz="sm" fw={600} c="teal.9">
                {(order.addOns ?? []).map(addOnLineLabel).join(' ')}
              </Text>
            )}
          </Stack>
          <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
            <Text fz="xs" c="gray.7">
              Potential earnings
            </Text>
            <Text fw={700} c={order.potentialEarningsCents === null ? 'gray.7' : undefined}>
              {earningsText(order.potentialEarningsCents)}
            </Text>
          </Stack>
        </Group>
        {order.editingRequirements && (
          <Text fz="sm" lineClamp={2} title={order.editingRequirements} style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600} fz="sm">
              Requirements:
            </Text>{' '}
            {order.editingRequirements}
          </Text>
        )}
        {order.editingStyleSummary && (
          <Text fz="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600} fz="sm">
              Style:
            </Text>{' '}
            {order.editingStyleSummary}
          </Text>
        )}
        <Text fz="sm" c="gray.7">
          Created <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
        </Text>
        <DueTime order={order} withTimeLeft />
        <Group gap="xs" grow preventGrowOverflow={false} mt={4} maw={{ base: '100%', sm: 280 }}>
          <Button
            component={Link}
            to={`/orders/${order.id}`}
            variant="default"
            size="sm"
            leftSection={<IconEye size={16} aria-hidden="true" />}
          >
            Preview
          </Button>
          <ClaimOrderButton orderId={order.id} />
        </Group>
      </Stack>
    </Paper>
  );
}
