import { Alert, Button, Group, NativeSelect, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  type AdminOrderSort,
  type AssignmentFilter,
  adminOrderSorts,
  assignmentFilters,
  SEARCH_TERM_MAX,
} from '@marketplace/events/admin';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { apiErrorText } from '../../../../lib/api-client';
import { type AdminOrdersPageQuery, useAdminOrders } from '../../api/orders';
import { ListPagination, needsPages } from '../ListPagination';
import { AdminOrderCards } from './AdminOrderCards';
import { AdminOrdersTable } from './AdminOrdersTable';
import { BulkAssign } from './BulkAssign';
import { orderSelection } from './order-selection';

const SEARCH_PLACEHOLDER = 'Search by photographer name or order name...';
const NO_ORDERS = 'No orders found matching your filters.';
const SEARCH_DELAY_MS = 300;
/** A term that begins more words than one search reads lists the orders of those only (the server says so). */
const BROAD_SEARCH =
  'Many orders match this search, so only some are listed: type more of the name or number to narrow it.';
// Mantine's 'md' breakpoint: the seven columns need a laptop's width; narrower screens get cards.
const DESKTOP_QUERY = '(min-width: 62em)';

const filterLabels: Record<AssignmentFilter, string> = {
  unassigned: 'Unassigned',
  assigned: 'Assigned',
  all: 'All Orders',
};

const sortLabels: Record<AdminOrderSort, string> = {
  newest: 'Newest First',
  oldest: 'Oldest First',
  'most-photos': 'Most Photos',
  photographer: 'Photographer A-Z',
};

/** Where the admin is in one filtered, sorted, searched list: the cursors of the pages before, and this page's. */
interface Paging {
  listKey: string;
  earlierCursors: (string | undefined)[];
  cursor: string | undefined;
}

const firstPage = (listKey: string): Paging => ({ listKey, earlierCursors: [], cursor: undefined });

/**
 * The Orders tab: every order, searched, filtered by assignment and sorted by the server, 25 a
 * page. A new filter, sort or search starts again at page one; the ticked orders belong to the
 * page they were ticked on.
 */
export function OrdersTab() {
  const [filter, setFilter] = useState<AssignmentFilter>('unassigned');
  const [sortBy, setSortBy] = useState<AdminOrderSort>('newest');
  const [searchText, setSearchText] = useState('');
  const [searchTerm] = useDebouncedValue(searchText.trim(), SEARCH_DELAY_MS);
  const isDesktop = useMediaQuery(DESKTOP_QUERY, true, { getInitialValueInEffect: false });

  const listKey = JSON.stringify([filter, sortBy, searchTerm]);
  const [storedPaging, setPaging] = useState<Paging>(() => firstPage(listKey));
  const paging = storedPaging.listKey === listKey ? storedPaging : firstPage(listKey);
  const page = paging.earlierCursors.length + 1;
  const query: AdminOrdersPageQuery = { page, assignmentFilter: filter, sortBy, searchTerm, cursor: paging.cursor };

  const pageKey = JSON.stringify([listKey, page, paging.cursor]);
  const [storedSelection, setStoredSelection] = useState<{ pageKey: string; ids: ReadonlySet<string> }>({
    pageKey,
    ids: new Set(),
  });
  const selectedIds = storedSelection.pageKey === pageKey ? storedSelection.ids : new Set<string>();
  const setSelected = (ids: Set<string>) => setStoredSelection({ pageKey, ids });

  const { data, error, isLoading, isValidating, mutate } = useAdminOrders(query);

  const goNext = () => {
    if (!data) return;
    setPaging({
      listKey,
      earlierCursors: [...paging.earlierCursors, paging.cursor],
      // Without a cursor the server finds the page by reading the ones before it: slower, same page.
      cursor: data.nextCursor ?? undefined,
    });
  };
  const goPrevious = () =>
    setPaging({ listKey, earlierCursors: paging.earlierCursors.slice(0, -1), cursor: paging.earlierCursors.at(-1) });
  const goFirst = () => setPaging(firstPage(listKey));

  const toolbar = (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search"
        placeholder={SEARCH_PLACEHOLDER}
        value={searchText}
        onChange={(event) => setSearchText(event.currentTarget.value)}
        maxLength={SEARCH_TERM_MAX}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        style={{ flex: '1 1 280px' }}
      />
      <Group gap="sm" grow style={{ flex: '1 1 320px', maxWidth: 440 }}>
        <NativeSelect
          label="Assignment"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value as AssignmentFilter)}
          data={assignmentFilters.map((value) => ({ value, label: filterLabels[value] }))}
        />
        <NativeSelect
          label="Sort by"
          value={sortBy}
          onChange={(event) => setSortBy(event.currentTarget.value as AdminOrderSort)}
          data={adminOrderSorts.map((value) => ({ value, label: sortLabels[value] }))}
        />
      </Group>
    </Group>
  );

  const body = () => {
    if (isLoading && !data) {
      return (
        <Stack gap="sm" role="status" aria-label="Loading orders">
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
          <Skeleton height={56} radius="md" />
        </Stack>
      );
    }
    if (error || !data) {
      return (
        <Alert color="red" title="Orders could not be loaded">
          <Stack gap="sm" align="flex-start">
            {apiErrorText(error, 'Please try again in a moment.')}
            <Button variant="default" size="xs" onClick={() => void mutate()} loading={isValidating}>
              Try again
            </Button>
          </Stack>
        </Alert>
      );
    }
    if (data.orders.length === 0) {
      // An assignment or cancellation can empty a later page; offer the way back rather than a dead end.
      if (page > 1 && data.total > 0) {
        return (
          <EmptyState
            title="This page is empty now"
            action={
              <Button variant="default" onClick={goFirst}>
                Back to page 1
              </Button>
            }
          >
            The orders that were here have moved on.
          </EmptyState>
        );
      }
      return <EmptyState title={NO_ORDERS} />;
    }

    const selection = orderSelection(data.orders, filter, selectedIds, setSelected);
    const pages = { page, pageCount: data.totalPages, hasNext: Boolean(data.nextCursor) };
    return (
      <Stack gap="md" aria-busy={isValidating}>
        {data.moreMatches && (
          <Text fz="sm" c="gray.7" role="status">
            {BROAD_SEARCH}
          </Text>
        )}
        {selection.selectedIds.length > 0 && (
          <BulkAssign orderIds={selection.selectedIds} onDone={selection.clear} onClear={selection.clear} />
        )}
        {isDesktop ? (
          <AdminOrdersTable orders={data.orders} filter={filter} selection={selection} />
        ) : (
          <AdminOrderCards orders={data.orders} filter={filter} selection={selection} />
        )}
        {needsPages(pages) && (
          <ListPagination
            noun="orders"
            shown={data.orders.length}
            total={data.total}
            {...pages}
            busy={isLoading}
            onPrevious={goPrevious}
            onNext={goNext}
          />
        )}
      </Stack>
    );
  };

  return (
    <Stack gap="lg">
      {toolbar}
      {body()}
    </Stack>
  );
}
