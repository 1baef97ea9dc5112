import { Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface ListPaginationProps {
  /** What the list holds, plural: 'users', 'editors'. */
  noun: string;
  shown: number;
  total: number;
  page: number;
  pageCount: number;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** 'Showing X of Y users' and the way between pages, as the order list has it. */
export function ListPagination({ noun, shown, total, page, pageCount, busy, onPrevious, onNext }: ListPaginationProps) {
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
          Page {page} of {pageCount}
        </Text>
        <Button
          variant="default"
          onClick={onNext}
          disabled={busy || page >= pageCount}
          rightSection={<IconChevronRight size={16} aria-hidden="true" />}
        >
          Next
        </Button>
      </Group>
    </Stack>
  );
}
