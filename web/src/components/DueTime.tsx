import { Group, Text } from '@mantine/core';
import type { OrderStatus } from '@marketplace/events/orders';
import { format } from 'date-fns';
import { LateBadge } from './OrderStatusBadge';

/** Statuses whose work is still owed, so a due time means something. */
const openStatuses: readonly OrderStatus[] = ['paid', 'in_progress'];

interface DueTimeProps {
  order: { status: OrderStatus; dueAt: string | null; isLate: boolean };
  fz?: string;
}

/**
 * When a paid order's edits are due, with a 'Late' marker once that time has passed. The date and
 * the hour each stay whole but may go to two lines, so a narrow column (a phone's) is not overrun.
 */
export function DueTime({ order, fz = 'sm' }: DueTimeProps) {
  if (!order.dueAt || !openStatuses.includes(order.status)) return null;
  return (
    <Group gap={6} wrap="wrap">
      <Text fz={fz} c="gray.7">
        Due{' '}
        <time dateTime={order.dueAt}>
          <span style={{ whiteSpace: 'nowrap' }}>{format(new Date(order.dueAt), 'MMM d, yyyy')}</span>{' '}
          <span style={{ whiteSpace: 'nowrap' }}>{format(new Date(order.dueAt), "'at' h:mm a")}</span>
        </time>
      </Text>
      {order.isLate && <LateBadge size="sm" />}
    </Group>
  );
}
