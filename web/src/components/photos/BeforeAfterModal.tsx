import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { OrderImageView } from '@marketplace/events/orders';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { BeforeAfterSlider } from './BeforeAfterSlider';
import { PREPARING_PREVIEW } from './ThumbnailTile';

export interface PhotoPair {
  edited: OrderImageView;
  original: OrderImageView;
}

/** Each edited photo with the original it is paired with; unpaired edits have nothing to compare. */
export const photoPairs = (images: readonly OrderImageView[]): PhotoPair[] => {
  const originals = new Map(images.filter((i) => i.kind === 'original').map((i) => [i.key, i]));
  return images.flatMap((edited) => {
    const original = edited.kind === 'edited' && edited.pairedOriginalKey && originals.get(edited.pairedOriginalKey);
    return original ? [{ edited, original }] : [];
  });
};

interface BeforeAfterModalProps {
  pairs: readonly PhotoPair[];
  /** The pair shown; null when closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/** 'Before and after' in a modal: one edited photo against its original, with previous and next. */
export function BeforeAfterModal({ pairs, index, onIndexChange, onClose }: BeforeAfterModalProps) {
  const pair = index === null ? undefined : pairs[index];
  const current = index ?? 0;
  return (
    <Modal
      opened={pair !== undefined}
      onClose={onClose}
      title="Before and after"
      size="xl"
      fullScreen={false}
      centered
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {pair && (
        <Stack gap="sm">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600} truncate="end" title={pair.edited.filename} miw={0}>
              {pair.edited.filename}
            </Text>
            <Text fz="sm" c="gray.7" style={{ flexShrink: 0 }}>
              {current + 1} of {pairs.length}
            </Text>
          </Group>
          {pair.original.previewUrl && pair.edited.previewUrl ? (
            <BeforeAfterSlider
              key={pair.edited.key}
              filename={pair.edited.filename}
              beforeUrl={pair.original.previewUrl}
              beforeAlt={`Before: ${pair.original.filename}`}
              afterUrl={pair.edited.previewUrl}
              afterAlt={`After: ${pair.edited.filename}`}
            />
          ) : (
            <Alert color="gray">
              {pair.original.thumbnail === 'placeholder' || pair.edited.thumbnail === 'placeholder'
                ? 'One of these files has no picture to compare.'
                : PREPARING_PREVIEW}
            </Alert>
          )}
          <Text fz="sm" c="gray.7">
            Original: {pair.original.filename}. Drag the handle, or focus it and use the arrow keys.
          </Text>
          {pairs.length > 1 && (
            <Group justify="space-between">
              <Button
                variant="default"
                leftSection={<IconChevronLeft size={16} aria-hidden="true" />}
                disabled={current === 0}
                onClick={() => onIndexChange(current - 1)}
              >
                Previous
              </Button>
              <Button
                variant="default"
                rightSection={<IconChevronRight size={16} aria-hidden="true" />}
                disabled={current === pairs.length - 1}
                onClick={() => onIndexChange(current + 1)}
              >
                Next
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
