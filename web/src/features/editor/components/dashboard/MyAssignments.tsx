import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { EditorAssignmentView } from '@marketplace/events/editor-orders';
import { orderDisplayName } from '@marketplace/events/orders';
import { IconArrowRight } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { DueTime } from '../../../../components/DueTime';
import { EmptyState } from '../../../../components/EmptyState';
import { OrderStatusBadge } from '../../../../components/OrderStatusBadge';
import { formatDate } from '../../../../lib/format-date';
import { moreAssignments, useMyAssignments } from '../../api/use-my-assignments';
import { earningsText, photoCountText } from './AvailableOrderItem';

function AssignmentItem({ order }: { order: EditorAssignmentView }) {
  return (
    <Paper component="li" withBorder p="md" radius="md">
      <Stack gap={6}>
        <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={650} style={{ overflowWrap: 'anywhere' }}>
            {orderDisplayName(order)}
          </Text>
          {order.status === 'revision_requested' && <OrderStatusBadge status={order.status} />}
        </Group>
        {order.revision && (
          <Text fz="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <Text component="span" fz="sm" fw={650}>
              Revision {order.revision.round}:
            </Text>{' '}
            {order.revision.note}
          </Text>
        )}
        <Text fz="sm" c="gray.7">
          {order.jobTypeName} · {photoCountText(order.photoCount)} · {earningsText(order.potentialEarningsCents)}
        </Text>
        <Text fz="sm">
          {order.editorUploadCount} of {order.photoCount} edited photos uploaded
        </Text>
        {order.claimedAt && (
          <Text fz="sm" c="gray.7">
            Claimed <time dateTime={order.claimedAt}>{formatDate(order.claimedAt)}</time>
          </Text>
        )}
        <DueTime order={order} withTimeLeft revisionDueAt={order.revision?.dueAt} />
        <Button
          component={Link}
          to={`/editor/orders/${order.id}`}
          size="sm"
          mt={4}
          rightSection={<IconArrowRight size={16} aria-hidden="true" />}
        >
          Work on Order
        </Button>
      </Stack>
    </Paper>
  );
}

/** Pages after the first, kept while the first page they follow is the one on screen. */
interface LaterPages {
  after: string;
  orders: EditorAssignmentView[];
  nextCursor: string | null;
}

function MyAssignmentsBody() {
  const { data, error, isLoading } = useMyAssignments();
  const [stored, setLater] = useState<LaterPages | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  // A claim or completion refreshes the first page; pages loaded after an older first page go.
  const later = stored && stored.after === data?.nextCursor ? stored : null;
  const nextCursor = later ? later.nextCursor : (data?.nextCursor ?? null);
  if (isLoading) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading your assignments">
        <Skeleton height={140} radius="md" />
      </Stack>
    );
  }
  if (error || !data) {
    return <Alert color="red">Your assignments could not be loaded. Please try again later.</Alert>;
  }
  const showMore = async () => {
    if (!nextCursor || !data.nextCursor) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await moreAssignments(nextCursor);
      setLater({
        after: data.nextCursor,
        orders: [...(later?.orders ?? []), ...page.orders],
        nextCursor: page.nextCursor,
      });
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };
  // The dashboard lists the work still to do (in progress or back for a revision); finished orders count in the totals above.
  const inProgress = [...data.orders, ...(later?.orders ?? [])].filter(
    (order) => order.status === 'in_progress' || order.status === 'revision_requested',
  );
  if (inProgress.length === 0 && !nextCursor) {
    return (
      <EmptyState title="No active assignments">Orders you claim will show here while you work on them.</EmptyState>
    );
  }
  return (
    <Stack gap="sm">
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="My assignments">
        {inProgress.map((order) => (
          <AssignmentItem key={order.id} order={order} />
        ))}
      </Stack>
      {nextCursor && (
        <Stack gap={4} align="center">
          <Text fz="sm" c="gray.7">
            Showing {inProgress.length} of {data.total} assignments
          </Text>
          <Button variant="default" onClick={showMore} loading={loadingMore}>
            Show more
          </Button>
          {moreFailed && (
            <Text fz="sm" c="red.8" role="alert">
              More assignments could not be loaded. Please try again.
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** The orders the editor is working on, each a step away from its work page. */
export function MyAssignments() {
  return (
    <Stack gap="md" component="section" aria-labelledby="my-assignments-heading">
      <Title order={2} fz="lg" id="my-assignments-heading">
        My Assignments
      </Title>
      <MyAssignmentsBody />
    </Stack>
  );
}
