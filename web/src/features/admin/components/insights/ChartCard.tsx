import { Box, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { type CSSProperties, type ReactNode, useId, useState } from 'react';

export const CHART_HEIGHT = 240;

/**
 * Axis and legend text in gray.7 rather than Mantine's dimmed gray, which is under 4.5:1 on
 * white; set as the variable itself, since LineChart hands a `textColor` prop on to its <div>.
 */
export const readableChartText = { '--chart-text-color': 'var(--mantine-color-gray-7)' } as CSSProperties;

/** The figures behind a chart: the first cell of each row names it (a day, a week, a job type). */
export interface ChartFigures {
  /** Says what the table holds, e.g. 'Revenue per day, Mar 1, 2025 to Mar 30, 2025'. */
  caption: string;
  headers: string[];
  rows: { key: string; cells: ReactNode[] }[];
}

// As Mantine's VisuallyHidden: out of sight, still read by screen readers.
const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/**
 * A chart with its text alternative: the table of its figures. A screen reader meets the chart as
 * one image named by the card's title and described by the table's name, then the table itself;
 * the table is out of sight until 'Show as table' brings it on screen for everyone else.
 */
export function ChartCard({
  title,
  description,
  actions,
  chart,
  figures,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  chart: ReactNode;
  figures: ChartFigures;
}) {
  const titleId = useId();
  const captionId = useId();
  const tableId = useId();
  const [tableShown, setTableShown] = useState(false);
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p={{ base: 'sm', sm: 'md' }} radius="lg" h="100%">
      <Group justify="space-between" align="flex-start" gap="xs" mb={description ? 4 : 'sm'}>
        <Title order={2} fz="lg" id={titleId}>
          {title}
        </Title>
        {actions}
      </Group>
      {description && (
        <Text fz="sm" c="gray.7" mb="sm">
          {description}
        </Text>
      )}
      <Box role="img" aria-labelledby={titleId} aria-describedby={captionId}>
        {chart}
      </Box>
      <Button
        variant={tableShown ? 'light' : 'subtle'}
        size="compact-sm"
        mt="xs"
        aria-pressed={tableShown}
        aria-controls={tableId}
        onClick={() => setTableShown((shown) => !shown)}
      >
        Show as table
      </Button>
      <Box id={tableId} mt={tableShown ? 'xs' : undefined} style={tableShown ? undefined : visuallyHidden}>
        {/* The table's name sits outside its scrolling box, so it wraps to the card's width on a phone. */}
        <Text id={captionId} fz="sm" c="gray.7" mb={4}>
          {figures.caption}
        </Text>
        <Box
          // Shown, it scrolls sideways on a narrow screen, focusable so a keyboard can scroll it too;
          // hidden, it must not scroll, or it would be a scrolling box no keyboard can reach.
          {...(tableShown
            ? { role: 'region', 'aria-labelledby': captionId, tabIndex: 0, style: { overflowX: 'auto' } }
            : {})}
        >
          <Table striped withTableBorder fz="sm" horizontalSpacing="xs" aria-labelledby={captionId}>
            <Table.Thead>
              <Table.Tr>
                {figures.headers.map((header) => (
                  <Table.Th key={header} scope="col">
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {figures.rows.map(({ key, cells: [first, ...rest] }) => (
                <Table.Tr key={key}>
                  <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                    {first}
                  </Table.Th>
                  {rest.map((cell, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their position is their identity.
                    <Table.Td key={column} style={{ whiteSpace: 'nowrap' }}>
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      </Box>
    </Paper>
  );
}
