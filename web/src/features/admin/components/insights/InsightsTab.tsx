// The charts' styles come with the tab, after Mantine's own (loaded at start-up), as Mantine asks.
import '@mantine/charts/styles.css';
import { Alert, Box, Button, Grid, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import {
  DEFAULT_INSIGHT_RANGE,
  INSIGHT_RANGES,
  type InsightRange,
  type InsightsView,
} from '@marketplace/events/insights';
import { TURNAROUND_HOURS } from '@marketplace/events/orders';
import { IconDownload } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { EmptyState } from '../../../../components/EmptyState';
import { SectionLoader } from '../../../../components/PageLoader';
import { StatCard } from '../../../../components/StatCard';
import { apiErrorText } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format-money';
import { browserTimeZone, useAdminInsights } from '../../api/insights';
import { AddOnRevenueChart } from './AddOnRevenueChart';
import { EditorTable } from './EditorTable';
import { DEFAULT_EDITOR_SORT, type EditorSort, sortEditors } from './editor-sorting';
import { formatCount, formatDay, formatHours, formatShare, isQuietRange } from './insight-figures';
import { downloadCsv, insightsCsv, insightsCsvFileName } from './insights-csv';
import { JobTypeMixChart } from './JobTypeMixChart';
import { OnTimeByTierTable } from './OnTimeByTierTable';
import { OrdersPaidChart } from './OrdersPaidChart';
import { PlatformTakeChart } from './PlatformTakeChart';
import { PoolDepthChart } from './PoolDepthChart';
import { RevenueChart, type RevenuePeriodKind } from './RevenueChart';
import { TurnaroundChart } from './TurnaroundChart';

const rangeOptions = INSIGHT_RANGES.map((range) => ({ value: range, label: `${range} days` }));
const isInsightRange = (value: string): value is InsightRange => INSIGHT_RANGES.includes(value as InsightRange);
const LONGEST_RANGE = INSIGHT_RANGES[INSIGHT_RANGES.length - 1] ?? DEFAULT_INSIGHT_RANGE;

/** A chart on the left and its figures beside it; on a phone the figures follow the chart. */
const chartSpan = { base: 12, md: 8 };
const figuresSpan = { base: 12, md: 4 };
const figureColumns = { base: 2, md: 1 };

/**
 * The admin's Insights: what sold, whether the turnaround promises hold (each tier's), the job types, the open
 * pool through the day and the editors, over the last 7, 30 or 90 of the admin's own days; each
 * chart with its table of figures, and all of it as one CSV.
 */
export function InsightsTab() {
  const [range, setRange] = useState<InsightRange>(DEFAULT_INSIGHT_RANGE);
  const [timeZone] = useState(browserTimeZone);
  const { data, error, mutate } = useAdminInsights({ range, timeZone });
  // Per day unless the admin chooses; 90 days of three bars a day are too thin to read, so weeks there.
  const [chosenRevenuePer, setRevenuePer] = useState<RevenuePeriodKind | null>(null);
  const revenuePer = chosenRevenuePer ?? (data?.range === LONGEST_RANGE ? 'week' : 'day');
  const [editorSort, setEditorSort] = useState<EditorSort>(DEFAULT_EDITOR_SORT);
  const editors = useMemo(() => (data ? sortEditors(data.editors, editorSort) : []), [data, editorSort]);
  const rangeLabelId = useId();
  // The previous range stays on screen, dimmed, while the chosen one loads.
  const loadingOtherRange = data !== undefined && data.range !== range;

  const exportCsv = () => {
    if (data) downloadCsv(insightsCsvFileName(data), insightsCsv(data, editors));
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group align="flex-end" gap="md">
          <Stack gap={4}>
            <Text id={rangeLabelId} fz="sm" fw={600}>
              Range
            </Text>
            <SegmentedControl
              aria-labelledby={rangeLabelId}
              data={rangeOptions}
              value={range}
              onChange={(value) => isInsightRange(value) && setRange(value)}
            />
          </Stack>
          <Text fz="sm" c="gray.7" pb={8}>
            Days in {timeZone}
          </Text>
        </Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          disabled={!data || loadingOtherRange || Boolean(error)}
          onClick={exportCsv}
        >
          Export CSV
        </Button>
      </Group>

      {error ? (
        <Alert color="red" title="Could not load the insights">
          <Stack gap="sm" align="flex-start">
            <Text fz="sm">{apiErrorText(error, 'The figures did not arrive. Please try again.')}</Text>
            <Button color="red.8" size="xs" onClick={() => void mutate()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : !data ? (
        <InsightsSkeleton />
      ) : (
        <Box
          aria-busy={loadingOtherRange}
          style={{ opacity: loadingOtherRange ? 0.55 : 1, transition: 'opacity 150ms' }}
        >
          {loadingOtherRange && (
            <Box mb="sm">
              <SectionLoader label={`Loading the last ${range} days`} />
            </Box>
          )}
          {isQuietRange(data) ? (
            <EmptyState
              title={`No sales in the last ${data.range} days`}
              action={
                data.range !== LONGEST_RANGE && (
                  <Button variant="default" onClick={() => setRange(LONGEST_RANGE)}>
                    Show the last {LONGEST_RANGE} days
                  </Button>
                )
              }
            >
              Nothing was paid, completed or refunded from {formatDay(data.from)} to {formatDay(data.to)}, and no paid
              order waited for an editor.
            </EmptyState>
          ) : (
            <InsightsFigures
              view={data}
              editors={editors}
              revenuePer={revenuePer}
              onRevenuePerChange={setRevenuePer}
              editorSort={editorSort}
              onEditorSortChange={setEditorSort}
            />
          )}
        </Box>
      )}
    </Stack>
  );
}

function InsightsFigures({
  view,
  editors,
  revenuePer,
  onRevenuePerChange,
  editorSort,
  onEditorSortChange,
}: {
  view: InsightsView;
  editors: InsightsView['editors'];
  revenuePer: RevenuePeriodKind;
  onRevenuePerChange: (per: RevenuePeriodKind) => void;
  editorSort: EditorSort;
  onEditorSortChange: (sort: EditorSort) => void;
}) {
  const { totals } = view;
  return (
    <Grid gutter="md">
      <Grid.Col span={chartSpan}>
        <RevenueChart view={view} per={revenuePer} onPerChange={onRevenuePerChange} />
      </Grid.Col>
      <Grid.Col span={figuresSpan}>
        <SimpleGrid cols={figureColumns} spacing="md">
          <StatCard label="Gross" value={formatMoney(totals.grossCents)} />
          <StatCard label="Refunds" value={formatMoney(totals.refundsCents)} />
          <StatCard label="Net" value={formatMoney(totals.netCents)} />
        </SimpleGrid>
      </Grid.Col>

      <Grid.Col span={chartSpan}>
        <PlatformTakeChart view={view} />
      </Grid.Col>
      <Grid.Col span={figuresSpan}>
        <SimpleGrid cols={figureColumns} spacing="md">
          <StatCard label="Platform's take" value={formatMoney(totals.takeCents)} />
        </SimpleGrid>
      </Grid.Col>

      <Grid.Col span={chartSpan}>
        <OrdersPaidChart view={view} />
      </Grid.Col>
      <Grid.Col span={figuresSpan}>
        <SimpleGrid cols={figureColumns} spacing="md">
          <StatCard label="Orders paid" value={formatCount(totals.ordersPaid)} />
          <StatCard label="Orders completed" value={formatCount(totals.ordersCompleted)} />
        </SimpleGrid>
      </Grid.Col>

      <Grid.Col span={chartSpan}>
        <TurnaroundChart view={view} />
      </Grid.Col>
      <Grid.Col span={figuresSpan}>
        <SimpleGrid cols={figureColumns} spacing="md">
          <StatCard label={`Within ${TURNAROUND_HOURS} h`} value={formatShare(totals.withinPromiseShare)} />
          <StatCard label="Turnaround p50" value={formatHours(totals.turnaroundP50Hours)} />
          <StatCard label="Turnaround p90" value={formatHours(totals.turnaroundP90Hours)} />
          <StatCard label="Revision rate" value={formatShare(totals.revisionRate)} />
        </SimpleGrid>
      </Grid.Col>

      <Grid.Col span={12}>
        <OnTimeByTierTable tiers={view.onTimeByTier} />
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 6 }}>
        <JobTypeMixChart view={view} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <PoolDepthChart view={view} />
      </Grid.Col>
      {(view.addOns ?? []).length > 0 && (
        <Grid.Col span={{ base: 12, md: 6 }}>
          <AddOnRevenueChart view={view} />
        </Grid.Col>
      )}

      <Grid.Col span={12}>
        <EditorTable editors={editors} sort={editorSort} onSortChange={onEditorSortChange} />
      </Grid.Col>
    </Grid>
  );
}

/** The tab's shape while its figures are on their way, at the cards' heights, so nothing jumps when they arrive. */
function InsightsSkeleton() {
  return (
    <Grid gutter="md" role="status" aria-label="Loading insights">
      <ChartWithFiguresSkeleton chartHeight={380} cards={3} />
      <ChartWithFiguresSkeleton chartHeight={345} cards={2} />
      <ChartWithFiguresSkeleton chartHeight={700} cards={4} />
      <Grid.Col span={12}>
        <Skeleton height={230} radius="lg" />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Skeleton height={390} radius="lg" />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Skeleton height={390} radius="lg" />
      </Grid.Col>
      <Grid.Col span={12}>
        <Skeleton height={280} radius="lg" />
      </Grid.Col>
    </Grid>
  );
}

function ChartWithFiguresSkeleton({ chartHeight, cards }: { chartHeight: number; cards: number }) {
  return (
    <>
      <Grid.Col span={chartSpan}>
        <Skeleton height={chartHeight} radius="lg" />
      </Grid.Col>
      <Grid.Col span={figuresSpan}>
        <SimpleGrid cols={figureColumns} spacing="md">
          {Array.from({ length: cards }, (_, card) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing but their place.
            <Skeleton key={card} height={96} radius="lg" />
          ))}
        </SimpleGrid>
      </Grid.Col>
    </>
  );
}
