import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatFileSize } from '../../lib/format-file-size';

/** One file on its way to storage, as both upload panels (originals, edited photos) show it. */
export interface UploadProgressRow<Status extends string> {
  id: string;
  filename: string;
  size: number;
  percent: number;
  status: Status;
  error?: string;
}

/** How a status reads on its badge, and the colour its badge and bar take. */
export type UploadStatusLooks<Status extends string> = Record<Status, { label: string; color: string }>;

/**
 * A progress bar whose whole track is the progressbar, so it is present and visible from 0%
 * (Mantine puts the role on the filled part, which has no width until bytes move).
 */
function UploadProgressBar({
  value,
  label,
  size,
  color,
}: {
  value: number;
  label: string;
  size: 'sm' | 'lg';
  color?: string;
}) {
  return (
    <Progress.Root
      size={size}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${value}%`}
    >
      <Progress.Section value={value} color={color} withAria={false} />
    </Progress.Root>
  );
}

function UploadRowView<Status extends string>({
  row,
  looks,
}: {
  row: UploadProgressRow<Status>;
  looks: UploadStatusLooks<Status>;
}) {
  const { label, color } = looks[row.status];
  return (
    <Stack gap={4} component="li">
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text fz="sm" truncate="end" miw={0}>
          {row.filename}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text fz="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
            {formatFileSize(row.size)}
          </Text>
          <Badge size="sm" variant="light" color={color}>
            {label}
          </Badge>
        </Group>
      </Group>
      <UploadProgressBar value={row.percent} size="sm" color={color} label={`Upload progress for ${row.filename}`} />
      {row.error && (
        <Text fz="xs" c="red.8">
          {row.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Uploads under way: a count read out as it changes, the whole batch's bar, then a bar per file
 * with its size and status. `children` (the panel's alerts) sit between the two.
 */
export function UploadProgress<Status extends string>({
  summary,
  overallPercent,
  rows,
  looks,
  listLabel,
  children,
}: {
  summary: string;
  overallPercent: number;
  rows: readonly UploadProgressRow<Status>[];
  looks: UploadStatusLooks<Status>;
  listLabel: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600} aria-live="polite">
            {summary}
          </Text>
          <Text fz="sm" c="gray.7">
            {overallPercent}%
          </Text>
        </Group>
        <UploadProgressBar value={overallPercent} size="lg" label="Overall upload progress" />
      </Stack>
      {children}
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={listLabel}>
        {rows.map((row) => (
          <UploadRowView key={row.id} row={row} looks={looks} />
        ))}
      </Stack>
    </Stack>
  );
}
