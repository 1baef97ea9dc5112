import { Alert, Button, Group, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  type AvailableOrdersQuery,
  availableOrderFilters,
  availableOrderSorts,
} from '@marketplace/events/editor-orders';
import { type TurnaroundTier, turnaroundTierLabel, turnaroundTiers } from '@marketplace/events/turnaround';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useLocation, useSearchParams } from 'react-router';
import { EmptyState } from '../../../../components/EmptyState';
import { ApiError, apiErrorText } from '../../../../lib/api-client';
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
  due: 'Time Left',
};

/** '' is every tier; a tier lists by time left (the server's rule: sort=due with tier). */
type TierChoice = TurnaroundTier | '';

const oneOf = <T extends string>(allowed: readonly T[], value: string | null, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/** The cursors of the pages before this one (page 1's is ''), kept in the history entry beside the address. */
interface ListState {
  availableOrderCursors: string[];
}

const earlierCursorsIn = (state: unknown): string[] => {
  const cursors = (state as Partial<ListState> | null)?.availableOrderCursors;
  return Array.isArray(cursors) && cursors.every((c) => typeof c === 'string') ? cursors : [];
};

/**
 * The page, filter, sort and the page's cursor live in the address, so going back from a preview
 * (or reloading) returns to the same page; the earlier pages' cursors live in the history entry,
 * so Previous reads its page from a cursor too. Without one the server finds a page by its number,
 * which it does only near the start of the list.
 */
function useListQuery() {
  const [params, setParams] = useSearchParams();
  const { state } = useLocation();
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const cursor = page > 1 ? params.get('cursor') || undefined : undefined;
  const query: AvailableOrdersPageQuery = {
    page,
    filter: oneOf(availableOrderFilters, params.get('filter'), 'all'),
    sort: oneOf(availableOrderSorts, params.get('sort'), 'newest'),
    ...(cursor ? { cursor } : {}),
  };
  // A tier is honoured only by time left; an address with another sort shows every tier.
  const tier = query.sort === 'due' ? oneOf<TierChoice>(turnaroundTiers, params.get('tier'), '') : '';
  if (tier) query.tier = tier;
  // '' where a page's cursor is not known (page one needs none): that page is asked for by number.
  const stored = earlierCursorsIn(state);
  const earlierCursors = Array.from({ length: page - 1 }, (_, i) => stored[i] ?? '');
  const show = (next: AvailableOrdersPageQuery, cursors: string[]) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('page', String(next.page));
        updated.set('filter', next.filter);
        updated.set('sort', next.sort);
        if (next.tier) updated.set('tier', next.tier);
        else updated.delete('tier');
        if (next.cursor) updated.set('cursor', next.cursor);
        else updated.delete('cursor');
        return updated;
      },
      { replace: true, state: { availableOrderCursors: cursors } satisfies ListState },
    );
  return {
    query,
    /** Page one of another filter, sort or tier. */
    restart: (next: Pick<AvailableOrdersPageQuery, 'filter' | 'sort' | 'tier'>) => show({ ...next, page: 1 }, []),
    next: (nextCursor: string | null) =>
      show({ ...query, page: page + 1, cursor: nextCursor ?? undefined }, [...earlierCursors, query.cursor ?? '']),
    previous: () =>
      show({ ...query, page: page - 1, cursor: earlierCursors[page - 2] || undefined }, earlierCursors.slice(0, -1)),
    first: () => show({ ...query, page: 1, cursor: undefined }, []),
  };
}

function Pagination({
  page,
  pageCount,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  page: number;
  pageCount: number;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <Group justify="space-between" gap="sm" component="nav" aria-label="Pages of available orders">
      <Button
        variant="default"
        onClick={onPrevious}
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
        onClick={onNext}
        disabled={busy || !hasNext}
        rightSection={<IconChevronRight size={16} aria-hidden="true" />}
      >
        Next
      </Button>
    </Group>
  );
}

function AvailableOrdersBody({ list }: { list: ReturnType<typeof useListQuery> }) {
  const { query } = list;
  const { data, error, isLoading } = useAvailableOrders(query);
  if (isLoading && !data) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading available orders">
        <Skeleton height={150} radius="md" />
        <Skeleton height={150} radius="md" />
      </Stack>
    );
  }
  // A page link the server cannot follow (too deep to open by number, or no longer valid) says why.
  if (error instanceof ApiError && error.status === 400 && query.page > 1) {
    return (
      <Alert color="red">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{apiErrorText(error, 'This page cannot be shown.')}</Text>
          <Button variant="default" onClick={list.first}>
            Go to the first page
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (error || !data) {
    return <Alert color="red">Available orders could not be loaded. Please try again later.</Alert>;
  }
  const hasNext = data.nextCursor !== null;
  // The total is a counter; the pages themselves say whether another follows.
  const pageCount = Math.max(1, Math.ceil(data.total / AVAILABLE_ORDERS_PAGE_SIZE), query.page + (hasNext ? 1 : 0));
  if (data.orders.length === 0) {
    // Claims can empty the pages after this point; offer the way back rather than a dead end.
    if (query.page > 1 && data.total > 0) {
      return (
        <EmptyState
          title="This page is empty now"
          action={
            <Button variant="default" onClick={list.first}>
              Go to the first page
            </Button>
          }
        >
          The orders that were here have been claimed.
        </EmptyState>
      );
    }
    return (
      <EmptyState title="No orders available right now">
        {query.filter === 'all' && !query.tier
          ? 'New paid orders will show here for you to claim. Check back soon.'
          : query.tier
            ? 'No orders of this turnaround match. Try All turnarounds.'
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
      {(data.total > AVAILABLE_ORDERS_PAGE_SIZE || query.page > 1 || hasNext) && (
        <Pagination
          page={query.page}
          pageCount={pageCount}
          hasNext={hasNext}
          busy={isLoading}
          onPrevious={list.previous}
          onNext={() => list.next(data.nextCursor)}
        />
      )}
    </Stack>
  );
}

/** Orders waiting for an editor, filtered and sorted by the server, ten to a page. */
export function AvailableOrders() {
  const list = useListQuery();
  const { query } = list;
  return (
    <Stack gap="md" component="section" aria-labelledby="available-orders-heading">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} fz="lg" id="available-orders-heading">
          Available Orders
        </Title>
        <Group gap="sm" grow style={{ flex: '1 1 480px', maxWidth: 620 }}>
          <NativeSelect
            label="Show"
            value={query.filter}
            onChange={(event) => list.restart({ ...query, filter: event.currentTarget.value as AvailableOrderFilter })}
            data={availableOrderFilters.map((value) => ({ value, label: filterLabels[value] }))}
          />
          <NativeSelect
            label="Turnaround"
            value={query.tier ?? ''}
            onChange={(event) => {
              const tier = event.currentTarget.value as TierChoice;
              // One turnaround is listed by time left (the index that holds the tier).
              list.restart({ filter: query.filter, sort: tier ? 'due' : query.sort, tier: tier || undefined });
            }}
            data={[
              { value: '', label: 'All turnarounds' },
              ...turnaroundTiers.map((value) => ({ value, label: turnaroundTierLabel[value] })),
            ]}
          />
          <NativeSelect
            label="Sort by"
            value={query.sort}
            onChange={(event) => {
              const sort = event.currentTarget.value as AvailableOrderSort;
              // Another sort shows every turnaround again: only time left can list one.
              list.restart({ filter: query.filter, sort, tier: sort === 'due' ? query.tier : undefined });
            }}
            data={availableOrderSorts.map((value) => ({ value, label: sortLabels[value] }))}
          />
        </Group>
      </Group>
      <AvailableOrdersBody list={list} />
    </Stack>
  );
}
