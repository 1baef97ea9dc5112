import { Alert, Button, Group, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  type AvailableOrdersQuery,
  availableOrderFilters,
  availableOrderSorts,
} from '@marketplace/events/editor-orders';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../../components/EmptyState';
import {
  AVAILABLE_ORDERS_PAGE_SIZE,
  type AvailableOrdersPageQuery,
  useAvailableOrders,
} from '../../api/use-available-orders';
import { AvailableOrderItem } from './AvailableOrderItem';

type AvailableOrderFilter = AvailableOrdersQuery['filter'];
type AvailableOrderSort = AvailableOrdersQuery['sort'];

const filterLabels: Record<AvailableOrderFilter, string> = {
  all: 'All Orders',
  'with-requirements': 'With Requirements',
  'no-requirements': 'No Requirements',
};

const sortLabels: Record<AvailableOrderSort, string> = {
  newest: 'Newest First',
  oldest: 'Oldest First',
  'highest-price': 'Highest Price',
};

const oneOf = <T extends string>(allowed: readonly T[], value: string | null, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/** The page, filter and sort live in the address, so going back from a preview returns to the same page. */
function useListQuery() {
  const [params, setParams] = useSearchParams();
  const pageParam = Number(params.get('page'));
  const query: AvailableOrdersPageQuery = {
    page: Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1,
    filter: oneOf(availableOrderFilters, params.get('filter'), 'all'),
    sort: oneOf(availableOrderSorts, params.get('sort'), 'newest'),
  };
  const setQuery = (next: AvailableOrdersPageQuery) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('page', String(next.page));
        updated.set('filter', next.filter);
        updated.set('sort', next.sort);
        return updated;
      },
      { replace: true },
    );
  return [query, setQuery] as const;
}

function Pagination({
  page,
  pageCount,
  busy,
  onPage,
}: {
  page: number;
  pageCount: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <Group justify="space-between" gap="sm" component="nav" aria-label="Pages of available orders">
      <Button
        variant="default"
        onClick={() => onPage(page - 1)}
        disabled={busy || page <= 1}
        leftSection={<IconChevronLeft size={16} aria-hidden="true" />}
      >
        Previous
      </Button>
      <Text fz="sm" c="gray.7" aria-live="polite">
        Page {page} of {pageCount}
      </Text>
      <Button
        variant="default"
        onClick={() => onPage(page + 1)}
        disabled={busy || page >= pageCount}
        rightSection={<IconChevronRight size={16} aria-hidden="true" />}
      >
        Next
      </Button>
    </Group>
  );
}

function AvailableOrdersBody({ query, onPage }: { query: AvailableOrdersPageQuery; onPage: (page: number) => void }) {
  const { data, error, isLoading } = useAvailableOrders(query);
  if (isLoading && !data) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading available orders">
        <Skeleton height={150} radius="md" />
        <Skeleton height={150} radius="md" />
      </Stack>
    );
  }
  if (error || !data) {
    return <Alert color="red">Available orders could not be loaded. Please try again later.</Alert>;
  }
  const pageCount = Math.max(1, Math.ceil(data.total / AVAILABLE_ORDERS_PAGE_SIZE));
  if (data.orders.length === 0) {
    // A claim can empty the last page; offer the way back rather than a dead end.
    if (query.page > 1 && data.total > 0) {
      return (
        <EmptyState
          title="This page is empty now"
          action={
            <Button variant="default" onClick={() => onPage(pageCount)}>
              Go to page {pageCount}
            </Button>
          }
        >
          The orders that were here have been claimed.
        </EmptyState>
      );
    }
    return (
      <EmptyState title="No orders available right now">
        {query.filter === 'all'
          ? 'New paid orders will show here for you to claim. Check back soon.'
          : 'No orders match this filter. Try All Orders.'}
      </EmptyState>
    );
  }
  return (
    <Stack gap="md" aria-busy={isLoading}>
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Available orders">
        {data.orders.map((order) => (
          <AvailableOrderItem key={order.id} order={order} />
        ))}
      </Stack>
      {data.total > AVAILABLE_ORDERS_PAGE_SIZE && (
        <Pagination page={query.page} pageCount={pageCount} busy={isLoading} onPage={onPage} />
      )}
    </Stack>
  );
}

/** Orders waiting for an editor, filtered and sorted by the server, ten to a page. */
export function AvailableOrders() {
  const [query, setQuery] = useListQuery();
  return (
    <Stack gap="md" component="section" aria-labelledby="available-orders-heading">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} fz="lg" id="available-orders-heading">
          Available Orders
        </Title>
        <Group gap="sm" grow style={{ flex: '1 1 320px', maxWidth: 420 }}>
          <NativeSelect
            label="Show"
            value={query.filter}
            onChange={(event) =>
              setQuery({ ...query, page: 1, filter: event.currentTarget.value as AvailableOrderFilter })
            }
            data={availableOrderFilters.map((value) => ({ value, label: filterLabels[value] }))}
          />
          <NativeSelect
            label="Sort by"
            value={query.sort}
            onChange={(event) => setQuery({ ...query, page: 1, sort: event.currentTarget.value as AvailableOrderSort })}
            data={availableOrderSorts.map((value) => ({ value, label: sortLabels[value] }))}
          />
        </Group>
      </Group>
      <AvailableOrdersBody query={query} onPage={(page) => setQuery({ ...query, page })} />
    </Stack>
  );
}
