import { Group, Paper, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { type ReactNode, useId } from 'react';

export interface StatCardProps {
  label: string;
  value: string;
  icon?: ReactNode;
}

/** One headline number with its label, e.g. 'Total Spent $120.00'; the label names the group. */
export function StatCard({ label, value, icon }: StatCardProps) {
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

/**
 * A page's headline numbers: two across on a phone, all four from `wideFrom` on; a skeleton of
 * the same shape while they load (so nothing jumps), and `fallback` when there are none.
 */
export function StatCardGrid({
  cards,
  loading,
  loadingLabel,
  fallback,
  wideFrom = 'md',
}: {
  cards: readonly StatCardProps[] | undefined;
  loading: boolean;
  loadingLabel: string;
  fallback: ReactNode;
  wideFrom?: 'md' | 'xl';
}) {
  const cols = { base: 2, [wideFrom]: 4 };
  if (loading) {
    return (
      <SimpleGrid cols={cols} spacing="md" role="status" aria-label={loadingLabel}>
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} height={96} radius="lg" />
        ))}
      </SimpleGrid>
    );
  }
  if (!cards) return fallback;
  return (
    <SimpleGrid cols={cols} spacing="md">
      {cards.map((card) => (
        <StatCard key={card.label} {...card} />
      ))}
    </SimpleGrid>
  );
}
