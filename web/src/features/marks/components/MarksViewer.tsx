import { Badge, Checkbox, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type MarkView, markKindLabel } from '@marketplace/events/marks';
import { useState } from 'react';
import { MarkedPhoto } from './MarkShapes';

export interface ViewedPicture {
  label: string;
  src: string;
}

/**
 * One photo's marks shown over the photo (and over its edit, for the before/after), with the
 * numbered notes beside it. The order's editor ticks each mark done here while editing.
 */
export function MarksViewer({
  filename,
  pictures,
  marks,
  show,
  onTick,
}: {
  filename: string;
  pictures: ViewedPicture[];
  marks: readonly MarkView[];
  show: boolean;
  /** Present for the order's editor while editing. */
  onTick?: ((markId: string, done: boolean) => Promise<void>) | undefined;
}) {
  const [aspect, setAspect] = useState(1.5);
  const [busy, setBusy] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const doneCount = marks.filter((mark) => mark.done).length;

  const tick = async (mark: MarkView, index: number, done: boolean) => {
    if (!onTick) return;
    setBusy(mark.id);
    setError(null);
    try {
      await onTick(mark.id, done);
      setAnnouncement(`Mark ${index + 1} ${done ? 'ticked done' : 'no longer done'}.`);
    } catch {
      setError('The mark could not be saved. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="sm">
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
      <Group gap="sm" align="flex-start">
        {pictures.map((picture) => (
          <Stack key={picture.label} gap={4} style={{ flex: '1 1 280px', minWidth: 0 }}>
            {pictures.length > 1 && (
              <Text fz="xs" fw={600} c="gray.7">
                {picture.label}
              </Text>
            )}
            <MarkedPhoto
              src={picture.src}
              alt={`${filename} (${picture.label.toLowerCase()})${show ? `, with ${marks.length} marks shown` : ''}`}
              marks={marks}
              show={show}
              aspect={aspect}
              onAspect={setAspect}
            />
          </Stack>
        ))}
      </Group>
      <Group gap="xs">
        <Text fz="sm" fw={600}>
          Notes on {filename}
        </Text>
        <Badge variant="light" color={doneCount === marks.length ? 'green.9' : 'gray.7'}>
          {doneCount} of {marks.length} done
        </Badge>
      </Group>
      <Stack component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Marks on ${filename}`}>
        {marks.map((mark, index) => {
          const text = `${index + 1}. ${markKindLabel[mark.kind]}: ${mark.note || 'no note'}${mark.round > 0 ? ` (revision ${mark.round})` : ''}`;
          return (
            <li key={mark.id}>
              {onTick ? (
                <Checkbox
                  label={text}
                  checked={mark.done}
                  disabled={busy === mark.id}
                  onChange={(event) => void tick(mark, index, event.currentTarget.checked)}
                />
              ) : (
                <Text fz="sm" td={mark.done ? 'line-through' : undefined}>
                  {text}
                  {mark.done && ' (done)'}
                </Text>
              )}
            </li>
          );
        })}
      </Stack>
      {error && (
        <Text fz="sm" c="red.9" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
