import { Alert, Button, Group, Text } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { useState } from 'react';

/** 'We found 4 scenes in 10 files. Use 4 as the photo count?' */
export const sceneSuggestionText = (sceneCount: number, fileCount: number) =>
  `We found ${sceneCount} ${sceneCount === 1 ? 'scene' : 'scenes'} in ${fileCount} files. Use ${sceneCount} as the photo count?`;

/**
 * Offers the number of scenes the bracket grouping found as the photo count. The photographer
 * decides: the button sets the count, the close button puts the offer away. It shows only when
 * brackets were found (fewer scenes than files) and the count is not that number already.
 */
export function SceneCountSuggestion({
  sceneCount,
  fileCount,
  photoCount,
  onUse,
  disabled,
}: {
  /** null while the files' EXIF is still being read. */
  sceneCount: number | null;
  fileCount: number;
  photoCount: number | '';
  onUse: (sceneCount: number) => void;
  disabled?: boolean;
}) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const offer = `${sceneCount}/${fileCount}`;
  if (sceneCount === null || sceneCount < 1 || sceneCount >= fileCount || photoCount === sceneCount) return null;
  if (dismissed === offer) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconStack2 size={18} aria-hidden="true" />}
      title="HDR brackets found"
      withCloseButton
      closeButtonLabel="Dismiss the suggested photo count"
      onClose={() => setDismissed(offer)}
      role="status"
    >
      <Group justify="space-between" gap="sm">
        <Text fz="sm">{sceneSuggestionText(sceneCount, fileCount)}</Text>
        <Button size="xs" onClick={() => onUse(sceneCount)} disabled={disabled}>
          Use {sceneCount}
        </Button>
      </Group>
    </Alert>
  );
}
