import { Box, Image } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';

/** A small square picture of a file beside its name, or a plain photo icon until one exists. */
export function SmallThumbnail({ url, size = 56 }: { url: string | null | undefined; size?: number }) {
  if (url) return <Image src={url} alt="" w={size} h={size} fit="cover" radius="sm" style={{ flexShrink: 0 }} />;
  return (
    <Box
      w={size}
      h={size}
      bg="gray.1"
      style={{ flexShrink: 0, borderRadius: 'var(--mantine-radius-sm)', display: 'grid', placeItems: 'center' }}
      aria-hidden="true"
    >
      <IconPhoto size={size / 2.4} color="var(--mantine-color-gray-6)" />
    </Box>
  );
}
