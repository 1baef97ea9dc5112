import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/** One headline number with its label, e.g. 'Total Spent $120.00'; the label names the group. */
export function StatCard({ label, value, icon }: { label: string; value: string; icon?: ReactNode }) {
  const labelId = useId();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" role="group" aria-labelledby={labelId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text id={labelId} fz="sm" fw={600} c="gray.7">
            {label}
          </Text>
          <Text fz={{ base: 22, sm: 28 }} fw={700} lh={1.2} mt={6} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
        {icon && (
          <ThemeIcon size={40} radius="md" variant="light" aria-hidden="true" visibleFrom="sm">
            {icon}
          </ThemeIcon>
        )}
      </Group>
    </Paper>
  );
}
