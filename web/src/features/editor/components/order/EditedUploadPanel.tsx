import { Button, FileInput, Group, Paper, Stack, Title } from '@mantine/core';
import { acceptedEditedExtensions, editorUploadMessages } from '@marketplace/events/editor-orders';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { UploadProgress, type UploadStatusLooks } from '../../../../components/uploads/UploadProgress';
import { type EditedUploadStatus, useEditedUploads } from '../../api/use-edited-uploads';

const ACCEPT = ['image/*', ...acceptedEditedExtensions.map((extension) => `.${extension}`)].join(',');

const looks: UploadStatusLooks<EditedUploadStatus> = {
  uploading: { label: 'Uploading', color: 'blue' },
  saving: { label: 'Saving', color: 'blue' },
  done: { label: 'Uploaded', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

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
          <UploadProgress
            summary={`Uploaded ${rows.filter((row) => row.status === 'done').length} of ${rows.length}`}
            overallPercent={overallPercent}
            rows={rows}
            looks={looks}
            listLabel="Edited uploads"
          />
        )}
      </Stack>
    </Paper>
  );
}
