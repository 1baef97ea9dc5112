import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPhoto, IconX } from '@tabler/icons-react';
import { formatFileSize } from '../../../lib/format-file-size';

/** The chosen photos with their sizes; each can be taken out before the order is placed. */
export function SelectedFilesList({
  files,
  onRemove,
  disabled,
}: {
  files: readonly File[];
  onRemove: (file: File) => void;
  disabled?: boolean;
}) {
  if (!files.length) return null;
  return (
    <Paper withBorder radius="md">
      <Stack gap={0} component="ul" aria-label="Selected photos" m={0} p={0} style={{ listStyle: 'none' }}>
        {files.map((file, index) => (
          <Group
            key={`${file.name}-${file.size}-${file.lastModified}`}
            component="li"
            justify="space-between"
            wrap="nowrap"
            gap="sm"
            px="md"
            py={8}
            style={index ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
          >
            <Group gap="sm" wrap="nowrap" miw={0}>
              <IconPhoto size={18} aria-hidden="true" style={{ flexShrink: 0 }} />
              <Text fz="sm" truncate="end" miw={0}>
                {file.name}
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Text fz="sm" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
                {formatFileSize(file.size)}
              </Text>
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
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
