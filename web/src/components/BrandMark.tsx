import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconHomeEdit } from '@tabler/icons-react';

export const BRAND_NAME = 'PhotoEdit Marketplace';

export function BrandMark({ inverted = false, compact = false }: { inverted?: boolean; compact?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={compact ? 28 : 34} radius="md" variant={inverted ? 'white' : 'filled'} aria-hidden="true">
        <IconHomeEdit size={compact ? 17 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text
        fw={700}
        fz={compact ? 'md' : 'lg'}
        c={inverted ? 'white' : undefined}
        style={{ letterSpacing: '-0.01em', whiteSpace: 'nowrap' }}
      >
        {BRAND_NAME}
      </Text>
    </Group>
  );
}
