import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { SWRInfiniteResponse } from 'swr/infinite';
import { apiErrorText } from '../lib/api-client';
import { PageLoader } from './PageLoader';

/** 'Your {what} could not be loaded', the server's reason, and a button that tries again. */
export function LoadFailedAlert({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={18} aria-hidden="true" />}
      title={`Your ${what} could not be loaded`}
    >
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">{apiErrorText(error, `Failed to load your ${what}. Please try again.`)}</Text>
        <Button variant="light" color="red" size="xs" onClick={retry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * A list read a page at a time: its loading, error and empty states, its table, and 'Show more'
 * reading the next page by the server's cursor.
 */
export function PagedTable<P extends { nextCursor: string | null }, R>({
  pages,
  rowsOf,
  what,
  empty,
  table,
  showMoreLabel = `Show more ${what}`,
}: {
  pages: SWRInfiniteResponse<P>;
  rowsOf: (page: P) => R[];
  /** What the rows are, as the messages name them: 'payouts', 'billing history'. */
  what: string;
  empty: ReactNode;
  table: (rows: R[]) => ReactNode;
  showMoreLabel?: string;
}) {
  const rows = pages.data?.flatMap(rowsOf) ?? [];
  const last = pages.data?.at(-1);
  const loadingMore = pages.isValidating && pages.data !== undefined && pages.size > pages.data.length;
  if (pages.isLoading) return <PageLoader label={`Loading your ${what}…`} />;
  if (pages.error && !rows.length) {
    return <LoadFailedAlert what={what} error={pages.error} retry={() => void pages.mutate()} />;
  }
  if (!rows.length) {
    return (
      <Text fz="sm" c="gray.7">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {table(rows)}
      {last?.nextCursor && (
        <Button
          variant="default"
          loading={loadingMore}
          onClick={() => void pages.setSize(pages.size + 1)}
          style={{ alignSelf: 'flex-start' }}
          aria-label={showMoreLabel}
        >
          Show more
        </Button>
      )}
    </Stack>
  );
}
