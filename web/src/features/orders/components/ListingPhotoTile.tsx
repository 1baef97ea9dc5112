import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Box, Button, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { SequencedPhotoView } from '@marketplace/events/delivery';
import { IconGripVertical } from '@tabler/icons-react';
import { ThumbnailTile } from '../../../components/photos/ThumbnailTile';

interface ListingPhotoTileProps {
  photo: SequencedPhotoView;
  /** 1-based place in the listing as arranged now; 1 is the cover. */
  place: number;
  total: number;
  onMakeCover: () => void;
  /** Where focus goes back to after 'Make cover' moves the tile. */
  handleRef: (handle: HTMLButtonElement | null) => void;
}

/**
 * One photo of the listing: dragged by the mouse anywhere on the tile, after a short press on a
 * touch screen (so a swipe still scrolls the page), or with the keyboard from its move handle.
 */
export function ListingPhotoTile({ photo, place, total, onMakeCover, handleRef }: ListingPhotoTileProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: photo.key,
  });
  const isCover = place === 1;

  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p={6}
      radius="md"
      data-dragging={isDragging || undefined}
      {...listeners}
      style={{
        // Translate, not transform: tiles of one grid never scale into each other's size.
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 'var(--mantine-shadow-lg)' : undefined,
        cursor: isDragging ? 'grabbing' : 'grab',
        userSelect: 'none',
      }}
    >
      <Stack gap={6}>
        <Box pos="relative">
          <ThumbnailTile
            image={{
              filename: photo.filename,
              thumbnail: photo.thumbnailUrl ? 'ready' : 'placeholder',
              thumbnailUrl: photo.thumbnailUrl,
            }}
          />
          <Group gap={4} pos="absolute" top={6} left={6} wrap="nowrap">
            <Badge size="sm" variant="filled" color="dark">
              <VisuallyHidden>Place </VisuallyHidden>
              {place}
            </Badge>
            {isCover && (
              <Badge size="sm" variant="filled" color="harbor">
                Cover
              </Badge>
            )}
          </Group>
        </Box>
        <Text fz="xs" fw={500} truncate="end" title={photo.filename} px={2}>
          {photo.filename}
        </Text>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <ActionIcon
            ref={(node) => {
              setActivatorNodeRef(node);
              handleRef(node);
            }}
            variant="default"
            size="md"
            {...attributes}
            aria-label={`Move ${photo.filename}, photo ${place} of ${total}`}
            title="Drag, or press Space and use the arrow keys"
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
          >
            <IconGripVertical size={16} aria-hidden="true" />
          </ActionIcon>
          {!isCover && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={onMakeCover}
              aria-label={`Make cover: ${photo.filename}`}
            >
              Make cover
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
