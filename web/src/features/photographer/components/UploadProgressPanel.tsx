import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { formatFileSize } from '../../../lib/format-file-size';
import type { UploadRow, UploadRowStatus, UploadSnapshot } from '../uploads/originals-upload';

const statusLabels: Record<UploadRowStatus, string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  registering: 'Saving',
  done: 'Uploaded',
  failed: 'Failed',
  missing: 'Choose again',
};

const statusColors: Record<UploadRowStatus, string> = {
  waiting: 'gray',
  uploading: 'blue',
  registering: 'blue',
  done: 'green',
  failed: 'red',
  missing: 'orange',
};

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

function UploadRowView({ row }: { row: UploadRow }) {
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
          <Badge size="sm" variant="light" color={statusColors[row.status]}>
            {statusLabels[row.status]}
          </Badge>
        </Group>
      </Group>
      <UploadProgressBar
        value={row.percent}
        size="sm"
        color={statusColors[row.status]}
        label={`Upload progress for ${row.filename}`}
      />
      {row.error && (
        <Text fz="xs" c="red.8">
          {row.error}
        </Text>
      )}
    </Stack>
  );
}

/** Each original's way to S3, one bar per file and one for the whole order. */
export function UploadProgressPanel({
  orderNumber,
  progress,
  onRetry,
  onDropMissing,
  onCancel,
}: {
  orderNumber: number;
  progress: UploadSnapshot;
  onRetry: () => void;
  onDropMissing: () => void;
  onCancel: () => void;
}) {
  const inFlight = progress.rows.some((row) => ['waiting', 'uploading', 'registering'].includes(row.status));
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="upload-progress-heading">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="xl" id="upload-progress-heading">
            Uploading photos
          </Title>
          <Text c="gray.7">
            Order #{orderNumber} is created. Keep this tab open until every photo is uploaded; payment opens next.
          </Text>
        </Stack>
        <Stack gap={6}>
          <Group justify="space-between">
            <Text fw={600} aria-live="polite">
              Uploading {progress.doneCount} of {progress.total}
            </Text>
            <Text fz="sm" c="gray.7">
              {progress.overallPercent}%
            </Text>
          </Group>
          <UploadProgressBar value={progress.overallPercent} size="lg" label="Overall upload progress" />
        </Stack>
        {progress.failedCount > 0 && (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
            {progress.failedCount} file(s) failed to upload.
          </Alert>
        )}
        {progress.missingCount > 0 && !inFlight && (
          <Alert color="orange" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
            {progress.missingCount} file(s) could not be resumed after the page was reloaded. Continue without them, or
            cancel and start the order again.
          </Alert>
        )}
        <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Photo uploads">
          {progress.rows.map((row) => (
            <UploadRowView key={row.id} row={row} />
          ))}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          {progress.missingCount > 0 && !inFlight && progress.doneCount > 0 && (
            <Button variant="light" onClick={onDropMissing}>
              Continue without them
            </Button>
          )}
          {progress.failedCount > 0 && (
            <Button leftSection={<IconRefresh size={16} aria-hidden="true" />} onClick={onRetry}>
              Retry failed uploads
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
