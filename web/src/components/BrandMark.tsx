import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconHomeEdit } from '@tabler/icons-react';

export const BRAND_NAME = 'PhotoEdit Marketplace';

export function BrandMark({ inverted = false }: { inverted?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={34} radius="md" variant={inverted ? 'white' : 'filled'} aria-hidden="true">
        <IconHomeEdit size={20} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz="lg" c={inverted ? 'white' : undefined} style={{ letterSpacing: '-0.01em' }}>
        {BRAND_NAME}
      </Text>
    </Group>
  );
}
