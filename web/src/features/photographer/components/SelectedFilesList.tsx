import { ActionIcon, Box, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { extensionOf } from '@marketplace/events/orders';
import { IconX } from '@tabler/icons-react';
import { memo } from 'react';
import { formatFileSize } from '../../../lib/format-file-size';
import { bracketsFound } from '../dropped-files/file-scenes';
import { type FileThumbnail, useFileThumbnails } from '../dropped-files/file-thumbnails';

const TILE = 56;

const tileStyle = {
  width: TILE,
  height: TILE,
  flexShrink: 0,
  borderRadius: 'var(--mantine-radius-sm)',
} as const;

/** The file's picture, or its type in a tile when the browser cannot show it (never a broken image). */
function Thumbnail({ file, thumbnail }: { file: File; thumbnail: FileThumbnail | undefined }) {
  if (!thumbnail || thumbnail.state === 'loading') return <Skeleton style={tileStyle} />;
  if (thumbnail.state === 'ready') {
    return (
      <img
        src={thumbnail.url}
        alt=""
        width={TILE}
        height={TILE}
        style={{ ...tileStyle, objectFit: 'cover', display: 'block' }}
      />
    );
  }
  return (
    <Box
      style={{
        ...tileStyle,
        display: 'grid',
        placeItems: 'center',
        background: 'var(--mantine-color-gray-1)',
        border: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Text fz="xs" fw={700} c="gray.7">
        {extensionOf(file.name).toUpperCase() || 'FILE'}
      </Text>
    </Box>
  );
}

const FileRow = memo(function FileRow({
  file,
  thumbnail,
  scene,
  first,
  disabled,
  onRemove,
}: {
  file: File;
  thumbnail: FileThumbnail | undefined;
  scene: number | undefined;
  first: boolean;
  disabled?: boolean;
  onRemove: (file: File) => void;
}) {
  return (
    <Group
      component="li"
      justify="space-between"
      wrap="nowrap"
      gap="sm"
      px="md"
      py={8}
      style={first ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Thumbnail file={file} thumbnail={thumbnail} />
        <Stack gap={2} miw={0}>
          <Text fz="sm" truncate="end" miw={0}>
            {file.name}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text fz="sm" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
              {formatFileSize(file.size)}
            </Text>
            {scene !== undefined && (
              <Text fz="sm" c="blue.9" fw={500} style={{ whiteSpace: 'nowrap' }}>
                Scene {scene}
              </Text>
            )}
          </Group>
        </Stack>
      </Group>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Remove ${file.name}`}
        onClick={() => onRemove(file)}
        disabled={disabled}
      >
        <IconX size={16} aria-hidden="true" />
      </ActionIcon>
    </Group>
  );
});

/**
 * The chosen photos with a thumbnail made in the browser, their sizes and, once brackets are
 * found, the scene each belongs to (the shots of a scene listed together); each can be taken out
 * before the order is placed.
 */
export function SelectedFilesList({
  files,
  scenes,
  onRemove,
  disabled,
}: {
  files: readonly File[];
  /** Each file's HDR scene; labels show only when some scene holds more than one file. */
  scenes?: ReadonlyMap<File, number> | null;
  onRemove: (file: File) => void;
  disabled?: boolean;
}) {
  const thumbnails = useFileThumbnails(files);
  if (!files.length) return null;
  const grouping = bracketsFound(scenes ?? null) ? scenes : null;
  // Once brackets are found, the shots of a scene are listed together (sort is stable: drop order within a scene).
  const listed = grouping
    ? [...files].sort(
        (a, b) => (grouping.get(a) ?? Number.MAX_SAFE_INTEGER) - (grouping.get(b) ?? Number.MAX_SAFE_INTEGER),
      )
    : files;
  return (
    <Paper withBorder radius="md">
      <Stack gap={0} component="ul" aria-label="Selected photos" m={0} p={0} style={{ listStyle: 'none' }}>
        {listed.map((file, index) => (
          <FileRow
            key={`${file.name}-${file.size}-${file.lastModified}`}
            file={file}
            thumbnail={thumbnails.get(file)}
            scene={grouping?.get(file)}
            first={index === 0}
            disabled={disabled}
            onRemove={onRemove}
          />
        ))}
      </Stack>
    </Paper>
  );
}
