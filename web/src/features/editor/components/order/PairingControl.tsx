import { Button, NativeSelect, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { OrderImageView } from '@marketplace/events/orders';
import { useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';

export const NO_ORIGINAL = '';

/** 'Pairs with IMG_0012.CR2', 'No original matched', or the editor's own choice. */
export const pairingText = (image: OrderImageView, originals: readonly OrderImageView[]) => {
  const original = originals.find((candidate) => candidate.key === image.pairedOriginalKey);
  if (original) return `Pairs with ${original.filename}`;
  return image.pairedBy === 'editor' ? 'No original' : 'No original matched';
};

interface PairingControlProps {
  image: OrderImageView;
  originals: readonly OrderImageView[];
  /** Whether this viewer may change the pairing (the order's editor while the order is open to it). */
  canChange: boolean;
  onPair: (editedKey: string, originalKey: string | null) => Promise<unknown>;
}

/**
 * Which original an edited file is compared with: the file-name rule's answer, and a select to
 * put it right (any original, or 'No original').
 */
export function PairingControl({ image, originals, canChange, onPair }: PairingControlProps) {
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async (value: string) => {
    setSaving(true);
    try {
      await onPair(image.key, value === NO_ORIGINAL ? null : value);
      notifications.show({ color: 'green', message: `Pairing of ${image.filename} saved` });
      setEditing(false);
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'The pairing could not be saved') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap={4}>
      <Text fz="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
        {pairingText(image, originals)}
        {image.pairedBy === 'editor' ? ' (set by you)' : ''}
      </Text>
      {canChange && !editing && (
        <Button
          size="compact-xs"
          variant="subtle"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setEditing(true)}
          aria-label={`Change the original of ${image.filename}`}
        >
          Change
        </Button>
      )}
      {editing && (
        <Stack gap={4}>
          <NativeSelect
            size="xs"
            label={`Original of ${image.filename}`}
            labelProps={{ fz: 'xs' }}
            autoFocus
            disabled={saving}
            value={image.pairedOriginalKey ?? NO_ORIGINAL}
            onChange={(event) => void save(event.currentTarget.value)}
            data={[
              ...originals.map((original) => ({ value: original.key, label: original.filename })),
              { value: NO_ORIGINAL, label: 'No original' },
            ]}
          />
          <Button
            size="compact-xs"
            variant="default"
            style={{ alignSelf: 'flex-start' }}
            disabled={saving}
            onClick={() => setEditing(false)}
          >
            Cancel
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
