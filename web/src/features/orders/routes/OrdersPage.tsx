import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconCirclePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { ORDERS_PAGE_SIZE, useMyOrders } from '../api/use-my-orders';
import { OrderCards } from '../components/OrderCards';
import { OrdersTable } from '../components/OrdersTable';

// Mantine's 'sm' breakpoint: narrower screens get cards instead of a table.
const DESKTOP_QUERY = '(min-width: 48em)';

const createOrderButton = (label: string) => (
  <Button component={Link} to="/create-order" leftSection={<IconCirclePlus size={18} aria-hidden="true" />}>
    {label}
  </Button>
);

export function OrdersPage() {
  // The cursors of the pages before this one: Next pushes, Previous pops.
  const [earlierCursors, setEarlierCursors] = useState<(string | undefined)[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const { data, error, isLoading } = useMyOrders(cursor);
  const isDesktop = useMediaQuery(DESKTOP_QUERY, true, { getInitialValueInEffect: false });

  const goNext = () => {
    if (!data?.nextCursor) return;
    setEarlierCursors((stack) => [...stack, cursor]);
    setCursor(data.nextCursor);
  };
  const goPrevious = () => {
    setCursor(earlierCursors.at(-1));
    setEarlierCursors((stack) => stack.slice(0, -1));
  };

  const header = (
    <PageHeader
      title="All Orders"
      description="Every order you have placed, newest first."
      actions={createOrderButton('Create New Order')}
    />
  );

  if (isLoading && !data) {
    return (
      <>
        {header}
        <Stack gap="sm" role="status" aria-label="Loading your orders">
          <Skeleton height={64} radius="md" />
          <Skeleton height={64} radius="md" />
          <Skeleton height={64} radius="md" />
        </Stack>
      </>
    );
  }
  if (error || !data) {
    return (
      <>
        {header}
        <Alert color="red">Your orders could not be loaded. Please try again later.</Alert>
      </>
    );
  }
  if (data.total === 0 && data.orders.length === 0) {
    return (
      <>
        {header}
        <EmptyState title="No orders yet" action={createOrderButton('Create your first order')}>
          Every order you place will be listed here, with its status and downloads.
        </EmptyState>
      </>
    );
  }

  const pageCount = Math.max(1, Math.ceil(data.total / ORDERS_PAGE_SIZE));
  const pageNumber = earlierCursors.length + 1;
  return (
    <>
      {header}
      <Stack gap="md" aria-busy={isLoading}>
        {isDesktop ? <OrdersTable orders={data.orders} /> : <OrderCards orders={data.orders} />}
        <Group justify="space-between" gap="sm" component="nav" aria-label="Pages of orders">
          <Button
            variant="default"
            onClick={goPrevious}
            disabled={isLoading || earlierCursors.length === 0}
            leftSection={<IconChevronLeft size={16} aria-hidden="true" />}
          >
            Previous
          </Button>
          <Text fz="sm" c="gray.7" aria-live="polite">
            Page {pageNumber} of {Math.max(pageCount, pageNumber)}
          </Text>
          <Button
            variant="default"
            onClick={goNext}
            disabled={isLoading || !data.nextCursor}
            rightSection={<IconChevronRight size={16} aria-hidden="true" />}
          >
            Next
          </Button>
        </Group>
      </Stack>
    </>
  );
}
