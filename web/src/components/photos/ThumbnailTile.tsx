import { AspectRatio, Box, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { extensionOf, type OrderImageView } from '@marketplace/events/orders';
import { useState } from 'react';

export const PREPARING_PREVIEW = 'Preparing preview...';

/** The file's type in big letters: what a file with no picture (or a picture that failed to load) shows. */
export function FileTypeTile({ filename }: { filename: string }) {
  const extension = extensionOf(filename).toUpperCase() || 'FILE';
  return (
    <Box
      data-thumbnail="placeholder"
      bg="gray.1"
      h="100%"
      style={{ display: 'grid', placeItems: 'center', border: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Stack gap={2} align="center">
        <Text fz={extension.length > 4 ? 'md' : 'xl'} fw={800} c="gray.8" aria-hidden="true">
          {extension.slice(0, 6)}
        </Text>
        <Text fz="xs" c="gray.7">
          No preview
        </Text>
      </Stack>
    </Box>
  );
}

interface ThumbnailTileProps {
  image: Pick<OrderImageView, 'filename' | 'thumbnail' | 'thumbnailUrl'>;
  /** Opens the full-size view; only a tile with a picture to show is a button. */
  onOpen?: () => void;
  ratio?: number;
}

/**
 * A photo's thumbnail in a fixed 4:3 box, so the grid never jumps while pictures load. Pending:
 * a skeleton saying the preview is being made. No picture (an archive, an unreadable file) or a
 * picture that fails to load: the file-type tile, never a broken image.
 */
export function ThumbnailTile({ image, onOpen, ratio = 4 / 3 }: ThumbnailTileProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = image.thumbnail === 'ready' ? image.thumbnailUrl : null;
  const showPicture = url !== null && failedUrl !== url;

  let content: React.ReactNode;
  if (showPicture) {
    content = (
      <img
        src={url}
        alt={image.filename}
        loading="lazy"
        decoding="async"
        onError={() => setFailedUrl(url)}
        style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
      />
    );
  } else if (image.thumbnail === 'pending') {
    content = (
      <Box pos="relative" h="100%" data-thumbnail="pending">
        <Skeleton h="100%" radius={0} animate />
        <Text fz="xs" c="gray.8" pos="absolute" inset={0} style={{ display: 'grid', placeItems: 'center' }}>
          {PREPARING_PREVIEW}
        </Text>
      </Box>
    );
  } else {
    content = <FileTypeTile filename={image.filename} />;
  }

  const box = (
    <AspectRatio ratio={ratio} style={{ overflow: 'hidden', borderRadius: 'var(--mantine-radius-sm)' }}>
      {content}
    </AspectRatio>
  );
  if (!onOpen || !showPicture) return box;
  return (
    <UnstyledButton
      onClick={onOpen}
      aria-label={`View ${image.filename} full size`}
      display="block"
      w="100%"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      {box}
    </UnstyledButton>
  );
}
