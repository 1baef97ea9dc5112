import { Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface OrdersPaginationProps {
  shown: number;
  total: number;
  page: number;
  pageCount: number;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** 'Showing X of Y orders' and the way between pages. */
export function OrdersPagination({ shown, total, page, pageCount, busy, onPrevious, onNext }: OrdersPaginationProps) {
  return (
    <Stack gap="xs" component="nav" aria-label="Pages of orders">
      <Text fz="sm" c="gray.7">
        Showing {shown} of {total} orders
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
