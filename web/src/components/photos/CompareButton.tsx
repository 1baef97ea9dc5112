import { Button } from '@mantine/core';
import { IconArrowsHorizontal } from '@tabler/icons-react';

/** 'Compare' under an edited photo: opens its before/after view. */
export function CompareButton({ filename, onClick }: { filename: string; onClick: () => void }) {
  return (
    <Button
      size="compact-sm"
      variant="light"
      onClick={onClick}
      aria-label={`Compare ${filename} before and after`}
      leftSection={<IconArrowsHorizontal size={14} aria-hidden="true" />}
    >
      Compare
    </Button>
  );
}
