import { Box, Group, Paper, Table, Text, Title, UnstyledButton } from '@mantine/core';
import type { InsightEditor } from '@marketplace/events/insights';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import { useId } from 'react';
import { formatMoney } from '../../../../lib/format-money';
import { type EditorSort, type EditorSortKey, nextEditorSort } from './editor-sorting';
import { formatCount, formatHours, formatRating, NO_FIGURE } from './insight-figures';

const columns: { key: EditorSortKey; header: string }[] = [
  { key: 'name', header: 'Editor' },
  { key: 'completed', header: 'Completed' },
  { key: 'averageRating', header: 'Average rating' },
  { key: 'averageTurnaroundHours', header: 'Average turnaround' },
  { key: 'late', header: 'Late' },
  { key: 'earningsCents', header: 'Earnings' },
];

const directionWords = { ascending: 'lowest first', descending: 'highest first' } as const;
const sortedBy = ({ key, direction }: EditorSort) => {
  const header = columns.find((column) => column.key === key)?.header ?? key;
  return key === 'name'
    ? `Sorted by editor, ${direction === 'ascending' ? 'A to Z' : 'Z to A'}.`
    : `Sorted by ${header.toLowerCase()}, ${directionWords[direction]}.`;
};

function SortIcon({ active, direction }: { active: boolean; direction: EditorSort['direction'] }) {
  const Icon = !active ? IconArrowsSort : direction === 'ascending' ? IconArrowUp : IconArrowDown;
  return <Icon size={14} aria-hidden="true" style={{ flexShrink: 0, opacity: active ? 1 : 0.55 }} />;
}

/**
 * The editors of the range: completions, rating, turnaround, late orders and earnings. Each column
 * heading is a button that sorts by it (again: the other way round); the heading carries aria-sort.
 */
export function EditorTable({
  editors,
  sort,
  onSortChange,
}: {
  /** Already in the order of `sort`. */
  editors: InsightEditor[];
  sort: EditorSort;
  onSortChange: (sort: EditorSort) => void;
}) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p={{ base: 'sm', sm: 'md' }} radius="lg">
      <Title order={2} fz="lg" id={titleId}>
        Editors
      </Title>
      <Text fz="sm" c="gray.7" mb="sm" aria-live="polite">
        {editors.length ? `${sortedBy(sort)} Select a column heading to sort by it.` : ''}
      </Text>
      {editors.length === 0 ? (
        <Text c="gray.7">No editor completed an order in these days.</Text>
      ) : (
        // Scrolls sideways inside its own box on a phone; focusable so a keyboard can scroll it too.
        <Box role="region" aria-label="Editor table" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table striped highlightOnHover miw={680} verticalSpacing="xs" aria-labelledby={titleId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map(({ key, header }) => {
                  const active = sort.key === key;
                  return (
                    <Table.Th key={key} scope="col" aria-sort={active ? sort.direction : 'none'} p={0}>
                      <UnstyledButton
                        onClick={() => onSortChange(nextEditorSort(sort, key))}
                        px="sm"
                        py={8}
                        w="100%"
                        fz="sm"
                        fw={700}
                      >
                        <Group gap={4} wrap="nowrap" justify={key === 'name' ? 'flex-start' : 'flex-end'}>
                          <span style={{ whiteSpace: 'nowrap' }}>{header}</span>
                          <SortIcon active={active} direction={sort.direction} />
                        </Group>
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {editors.map((editor) => (
                <Table.Tr key={editor.editorId}>
                  <Table.Th scope="row" fw={600} miw={160} style={{ overflowWrap: 'anywhere' }}>
                    {editor.name}
                  </Table.Th>
                  <Table.Td ta="end">{formatCount(editor.completed)}</Table.Td>
                  <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                    {editor.averageRating === null
                      ? NO_FIGURE
                      : `${formatRating(editor.averageRating)} (${formatCount(editor.ratings)} ${editor.ratings === 1 ? 'rating' : 'ratings'})`}
                  </Table.Td>
                  <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                    {formatHours(editor.averageTurnaroundHours)}
                  </Table.Td>
                  <Table.Td ta="end">{formatCount(editor.late)}</Table.Td>
                  <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(editor.earningsCents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}
