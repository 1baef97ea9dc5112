import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { extensionOf, type OrderImageView } from '@marketplace/events/orders';
import { formatFileSize } from '../../../../lib/format-file-size';

/** The file's type in a box, standing in for a thumbnail. */
function FileTypeMark({ filename }: { filename: string }) {
  const extension = extensionOf(filename).toUpperCase() || 'FILE';
  return (
    <Box
      aria-hidden="true"
      w={48}
      h={48}
      bg="gray.1"
      style={{
        flexShrink: 0,
        display: 'grid',
        placeItems: 'center',
        borderRadius: 'var(--mantine-radius-sm)',
        border: '1px solid var(--mantine-color-gray-4)',
      }}
    >
      <Text fz={extension.length > 4 ? 9 : 11} fw={700} c="gray.8">
        {extension.slice(0, 6)}
      </Text>
    </Box>
  );
}

/** One stored file: its type, name and size. */
export function FileTile({ image }: { image: OrderImageView }) {
  return (
    <Paper withBorder p="sm" radius="md" component="li">
      <Group gap="sm" wrap="nowrap">
        <FileTypeMark filename={image.filename} />
        <Stack gap={2} miw={0}>
          <Text fz="sm" fw={500} truncate="end" title={image.filename}>
            {image.filename}
          </Text>
          <Text fz="xs" c="gray.7">
            {formatFileSize(image.size)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** A responsive grid of files: one column on a phone, up to three on a desktop. */
export function FileGrid({ images, label }: { images: OrderImageView[]; label: string }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      m={0}
      p={0}
      style={{
        listStyle: 'none',
        display: 'grid',
        gap: 'var(--mantine-spacing-sm)',
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
      }}
    >
      {images.map((image) => (
        <FileTile key={image.key} image={image} />
      ))}
    </Box>
  );
}
