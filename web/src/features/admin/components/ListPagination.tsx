import { Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface ListPaginationProps {
  /** What the list holds, plural: 'users', 'editors'. */
  noun: string;
  shown: number;
  total: number;
  page: number;
  /** The server's totalPages. */
  pageCount: number;
  /** Whether the server gave a cursor to a next page: Next follows it. */
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/**
 * Whether a list needs its pages shown: more than one by the total, or a next page the server
 * points to (a filtered page may come back short with more behind it), or a page after the first.
 */
export const needsPages = ({ page, pageCount, hasNext }: Pick<ListPaginationProps, 'page' | 'pageCount' | 'hasNext'>) =>
  pageCount > 1 || hasNext || page > 1;

/** 'Showing X of Y users' and the way between pages, as the order list has it. */
export function ListPagination({
  noun,
  shown,
  total,
  page,
  pageCount,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: ListPaginationProps) {
  // A page is never 'of' fewer pages than it and the one Next leads to.
  const pages = Math.max(pageCount, hasNext ? page + 1 : page);
  return (
    <Stack gap="xs" component="nav" aria-label={`Pages of ${noun}`}>
      <Text fz="sm" c="gray.7">
        Showing {shown} of {total} {noun}
      </Text>
      <Group justify="space-between" gap="sm">
        <Button
          variant="default"
          onClick={onPrevious}
          disabled={busy || page <= 1}
          leftSection={<IconChevronLeft size={16} aria-hidden="true" />}
        >
          Previous
        </Button>
        <Text fz="sm" c="gray.7" aria-live="polite">
          Page {page} of {pages}
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
    </Stack>
  );
}
