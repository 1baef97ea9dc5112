import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { UploadProgress, type UploadStatusLooks } from '../../../components/uploads/UploadProgress';
import type { UploadRowStatus, UploadSnapshot } from '../uploads/originals-upload';

const looks: UploadStatusLooks<UploadRowStatus> = {
  waiting: { label: 'Waiting', color: 'gray' },
  uploading: { label: 'Uploading', color: 'blue' },
  registering: { label: 'Saving', color: 'blue' },
  done: { label: 'Uploaded', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  missing: { label: 'Choose again', color: 'orange' },
};

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
        <UploadProgress
          summary={`Uploading ${progress.doneCount} of ${progress.total}`}
          overallPercent={progress.overallPercent}
          rows={progress.rows}
          looks={looks}
          listLabel="Photo uploads"
        >
          {progress.failedCount > 0 && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
              {progress.failedCount} file(s) failed to upload.
            </Alert>
          )}
          {progress.missingCount > 0 && !inFlight && (
            <Alert color="orange" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
              {progress.missingCount} file(s) could not be resumed after the page was reloaded. Continue without them,
              or cancel and start the order again.
            </Alert>
          )}
        </UploadProgress>
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
