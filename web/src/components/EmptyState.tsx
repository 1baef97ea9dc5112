import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** An honest 'nothing to show' panel, with an optional next step. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack align="center" gap="sm" py="lg" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconInbox size={26} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" maw={460}>
            {children}
          </Text>
        )}
        {action}
      </Stack>
    </Paper>
  );
}
