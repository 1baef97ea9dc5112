import { Group, Text } from '@mantine/core';
import type { OrderStatus } from '@marketplace/events/orders';
import { lateDurationText, type TurnaroundTier } from '@marketplace/events/turnaround';
import { format } from 'date-fns';
import { LateBadge } from './OrderStatusBadge';
import { TierBadge } from './TierBadge';

/** Statuses whose work is still owed, so a due time means something. */
const openStatuses: readonly OrderStatus[] = ['paid', 'in_progress'];

interface DueTimeProps {
  order: { status: OrderStatus; dueAt: string | null; isLate: boolean; turnaroundTier?: TurnaroundTier };
  fz?: string;
  /** The editor's views: the tier's badge and the time left beside the due time. */
  withTimeLeft?: boolean;
  /**
   * The open revision round's due time (the request + the tier's hours), while the order is back
   * for a revision: it is what is owed then. Null on rounds asked for before tiers.
   */
  revisionDueAt?: string | null;
}

/** '5 h 20 min left' until the due time; null once it has passed (the Late badge says so). */
export const timeLeftText = (dueAt: string, now = Date.now()) => {
  const minutes = Math.floor((Date.parse(dueAt) - now) / 60_000);
  return minutes < 0 ? null : `${lateDurationText(minutes)} left`;
};

/**
 * When a paid order's edits are due, with a 'Late' marker once that time has passed. The date and
 * the hour each stay whole but may go to two lines, so a narrow column (a phone's) is not overrun.
 */
export function DueTime({ order, fz = 'sm', withTimeLeft = false, revisionDueAt = null }: DueTimeProps) {
  const inRevision = order.status === 'revision_requested' && !!revisionDueAt;
  const dueAt = inRevision ? revisionDueAt : order.dueAt;
  if (!dueAt || (!inRevision && !openStatuses.includes(order.status))) return null;
  const left = withTimeLeft ? timeLeftText(dueAt) : null;
  // A round's lateness is worked out here: the order's own isLate is about the first delivery.
  const late = inRevision ? Date.parse(dueAt) < Date.now() : order.isLate;
  return (
    <Group gap={6} wrap="wrap">
      {withTimeLeft && order.turnaroundTier && <TierBadge tier={order.turnaroundTier} />}
      <Text fz={fz} c="gray.7">
        {inRevision ? 'Revision due' : 'Due'}{' '}
        <time dateTime={dueAt}>
          <span style={{ whiteSpace: 'nowrap' }}>{format(new Date(dueAt), 'MMM d, yyyy')}</span>{' '}
          <span style={{ whiteSpace: 'nowrap' }}>{format(new Date(dueAt), "'at' h:mm a")}</span>
        </time>
      </Text>
      {left && (
        <Text fz={fz} fw={600} data-testid="time-left">
          {left}
        </Text>
      )}
      {late && <LateBadge size="sm" />}
    </Group>
  );
}
