import { Paper, Table, Text, Title } from '@mantine/core';
import type { InsightTier } from '@marketplace/events/insights';
import { turnaroundTierLabel } from '@marketplace/events/turnaround';
import { useId } from 'react';
import { formatCount, formatShare } from './insight-figures';

/**
 * 'On time by turnaround': each tier's delivery rounds in the range (first deliveries and
 * re-deliveries after a revision, each against its own due time), how many came on time, and the share.
 */
export function OnTimeByTierTable({ tiers }: { tiers: InsightTier[] }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p={{ base: 'sm', sm: 'md' }} radius="lg">
      <Title order={2} fz="lg" id={titleId}>
        On time by turnaround
      </Title>
      <Text fz="sm" c="gray.7" mb="sm">
        Each delivery and re-delivery against its own due time.
      </Text>
      <Table striped verticalSpacing="xs" aria-labelledby={titleId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Turnaround</Table.Th>
            <Table.Th scope="col" ta="right">
              Delivered
            </Table.Th>
            <Table.Th scope="col" ta="right">
              On time
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Share
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tiers.map((row) => (
            <Table.Tr key={row.tier}>
              <Table.Th scope="row" fw={500}>
                {turnaroundTierLabel[row.tier]}
              </Table.Th>
              <Table.Td ta="right">{formatCount(row.delivered)}</Table.Td>
              <Table.Td ta="right">{formatCount(row.onTime)}</Table.Td>
              <Table.Td ta="right">{formatShare(row.onTimeShare)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
