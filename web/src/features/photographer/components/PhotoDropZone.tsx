import { Alert, Input, List, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  acceptedPhotoExtensions,
  isAcceptedPhoto,
  MAX_ORIGINAL_BYTES,
  orderFormMessages,
} from '@marketplace/events/orders';
import { IconAlertCircle, IconPhotoUp } from '@tabler/icons-react';
import { type FileRejection, useDropzone } from 'react-dropzone';

const acceptAttribute = acceptedPhotoExtensions.map((extension) => `.${extension}`).join(',');
const extensionList = acceptedPhotoExtensions.map((extension) => extension.toUpperCase()).join(', ');

// RAW files often arrive with an empty MIME type, so photos are accepted by their extension.
const checkPhoto = (file: File) => {
  if (!isAcceptedPhoto(file.name)) return { code: 'file-invalid-type', message: orderFormMessages.fileType };
  if (file.size > MAX_ORIGINAL_BYTES) return { code: 'file-too-large', message: orderFormMessages.fileTooLarge };
  return null;
};

/** Where photos are dropped or chosen; refused files are listed with the reason. */
export function PhotoDropZone({
  onFilesAdded,
  rejections,
  onRejections,
  disabled,
  error,
}: {
  onFilesAdded: (files: File[]) => void;
  rejections: readonly FileRejection[];
  onRejections: (rejections: FileRejection[]) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    validator: checkPhoto,
    multiple: true,
    disabled,
    onDrop: (accepted, rejected) => {
      if (accepted.length) onFilesAdded(accepted);
      onRejections(rejected);
    },
  });

  return (
    <Stack gap="xs">
      {/* Label, then description, then the field: the order the form's other fields use. */}
      <div>
        <Text component="span" fw={500} fz="sm" id="photo-drop-zone-label">
          Photos{' '}
          <span aria-hidden="true" style={{ color: 'var(--mantine-color-red-filled)' }}>
            *
          </span>
        </Text>
        <Input.Description id="photo-drop-zone-hint">
          {extensionList}. Upload every shot, duplicates included.
        </Input.Description>
      </div>
      {/* Outside the drop area, so the area (a button) holds no other control. */}
      <input {...getInputProps({ accept: acceptAttribute })} aria-label="Choose photos" />
      <Paper
        {...getRootProps({
          // A focusable area that opens the file picker on Enter or Space: a button to assistive technology.
          // Its name is the field's label and then the words it shows, so someone who says what they
          // see ('click Drag photos here') reaches it too (WCAG 2.5.3).
          role: 'button',
          'aria-labelledby': 'photo-drop-zone-label photo-drop-zone-action',
          'aria-describedby': 'photo-drop-zone-hint',
          'aria-disabled': disabled || undefined,
        })}
        withBorder
        p="xl"
        radius="md"
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: error
            ? 'var(--mantine-color-red-filled)'
            : isDragActive
              ? 'var(--mantine-primary-color-filled)'
              : undefined,
          cursor: disabled ? 'not-allowed' : 'pointer',
          background: isDragActive ? 'var(--mantine-primary-color-light)' : undefined,
        }}
      >
        <Stack align="center" gap={6} ta="center">
          <ThemeIcon size={44} radius="xl" variant="light" aria-hidden="true">
            <IconPhotoUp size={24} />
          </ThemeIcon>
          <Text fw={600} id="photo-drop-zone-action">
            {isDragActive ? 'Drop the photos here' : 'Drag photos here or click to choose'}
          </Text>
        </Stack>
      </Paper>
      {error && (
        <Text c="red.8" fz="sm" role="alert">
          {error}
        </Text>
      )}
      {rejections.length > 0 && (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="Some files were not added">
          <List size="sm" spacing={2}>
            {rejections.map(({ file, errors }) => (
              <List.Item key={`${file.name}-${file.size}-${file.lastModified}`}>
                {file.name}: {errors.map((e) => e.message).join('; ')}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
