import { Badge, Button, FileInput, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { acceptedEditedExtensions, editorUploadMessages } from '@marketplace/events/editor-orders';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { formatFileSize } from '../../../../lib/format-file-size';
import { type EditedUploadRow, type EditedUploadStatus, useEditedUploads } from '../../api/use-edited-uploads';

const ACCEPT = ['image/*', ...acceptedEditedExtensions.map((extension) => `.${extension}`)].join(',');

const statusLabels: Record<EditedUploadStatus, string> = {
  uploading: 'Uploading',
  saving: 'Saving',
  done: 'Uploaded',
  failed: 'Failed',
};

const statusColors: Record<EditedUploadStatus, string> = {
  uploading: 'blue',
  saving: 'blue',
  done: 'green',
  failed: 'red',
};

/** A bar whose whole track carries the progressbar role, so it is present from 0%. */
function ProgressBar({
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

function UploadRowView({ row }: { row: EditedUploadRow }) {
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
      <ProgressBar
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

/** The editor's deliveries: edited images or archives, each uploaded straight to storage. */
export function EditedUploadPanel({ orderId, onUploaded }: { orderId: string; onUploaded: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const { rows, busy, overallPercent, upload } = useEditedUploads(orderId, onUploaded);

  const submit = async () => {
    await upload(files);
    if (files.length) setFiles([]);
  };

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      radius="lg"
      component="section"
      aria-labelledby="edited-upload-heading"
    >
      <Stack gap="md">
        <Title order={2} fz="lg" id="edited-upload-heading">
          Upload Edited Images
        </Title>
        <FileInput
          label="Edited images or archives"
          description={editorUploadMessages.hint}
          placeholder="Choose files"
          // Mantine's default placeholder grey fails contrast on white; this one is a shown label, not a hint.
          styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
          multiple
          clearable
          clearButtonProps={{ 'aria-label': 'Clear chosen files' }}
          accept={ACCEPT}
          value={files}
          onChange={setFiles}
          disabled={busy}
          leftSection={<IconUpload size={16} aria-hidden="true" />}
        />
        <Group justify="flex-end">
          <Button onClick={submit} loading={busy} leftSection={<IconUpload size={16} aria-hidden="true" />}>
            Upload Files
          </Button>
        </Group>
        {rows.length > 0 && (
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={600} aria-live="polite">
                Uploaded {rows.filter((row) => row.status === 'done').length} of {rows.length}
              </Text>
              <Text fz="sm" c="gray.7">
                {overallPercent}%
              </Text>
            </Group>
            <ProgressBar value={overallPercent} size="lg" label="Overall upload progress" />
            <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Edited uploads">
              {rows.map((row) => (
                <UploadRowView key={row.id} row={row} />
              ))}
            </Stack>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
