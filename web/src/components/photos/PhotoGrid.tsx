import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/** A responsive list of photo cards: two columns on a phone, as many 180 px columns as fit on a desktop. */
export function PhotoGrid({ label, children, min = 180 }: { label: string; children: ReactNode; min?: number }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      m={0}
      p={0}
      style={{
        listStyle: 'none',
        display: 'grid',
        gap: 'var(--mantine-spacing-sm)',
        gridTemplateColumns: `repeat(auto-fill, minmax(min(calc(50% - var(--mantine-spacing-sm) / 2), ${min}px), 1fr))`,
      }}
    >
      {children}
    </Box>
  );
}
