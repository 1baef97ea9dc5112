import { Box, Paper, Stack, Text } from '@mantine/core';
import type { OrderImageView } from '@marketplace/events/orders';
import type { ReactNode } from 'react';
import { ThumbnailTile } from '../../../../components/photos/ThumbnailTile';
import { formatFileSize } from '../../../../lib/format-file-size';

/** One stored file: its thumbnail (a click opens the full-size view), name and size, and anything more below. */
export function FileTile({
  image,
  onOpen,
  children,
}: {
  image: OrderImageView;
  onOpen?: (() => void) | undefined;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p={6} radius="md" component="li" miw={0}>
      <Stack gap={6}>
        <ThumbnailTile image={image} {...(onOpen ? { onOpen } : {})} />
        <Stack gap={0} miw={0} px={2}>
          <Text fz="sm" fw={500} truncate="end" title={image.filename}>
            {image.filename}
          </Text>
          <Text fz="xs" c="gray.7">
            {formatFileSize(image.size)}
          </Text>
        </Stack>
        {children && <Box px={2}>{children}</Box>}
      </Stack>
    </Paper>
  );
}
