import { Alert, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FREE_REVISION_ROUNDS, REVISION_NOTE_MAX } from '@marketplace/events/orders';
import { useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { SmallThumbnail } from '../../../components/photos/SmallThumbnail';
import { apiErrorText } from '../../../lib/api-client';
import { useOrderImages } from '../../../lib/order-images';
import { useRequestRevision } from '../api/use-request-revision';

interface RevisionRequestModalProps {
  orderId: string;
  /** Rounds already used, to say which round this is. */
  roundsUsed: number;
  opened: boolean;
  onClose: () => void;
}

export const NOTE_REQUIRED = 'Please describe what should change';

/**
 * What the editor should change: a note for the whole order (required) and, if the photographer
 * wants, a note on any of the edited photos, each shown by name and picture.
 */
export function RevisionRequestModal({ orderId, roundsUsed, opened, onClose }: RevisionRequestModalProps) {
  const [note, setNote] = useState('');
  const [photoNotes, setPhotoNotes] = useState<Record<string, string>>({});
  const [noteError, setNoteError] = useState<string | null>(null);
  const { data, error, isLoading } = useOrderImages(opened ? orderId : undefined);
  const { trigger, isMutating } = useRequestRevision(orderId);
  const edited = data?.images.filter((image) => image.kind === 'edited') ?? [];

  const close = () => {
    setNote('');
    setPhotoNotes({});
    setNoteError(null);
    onClose();
  };

  const submit = async () => {
    if (!note.trim()) {
      setNoteError(NOTE_REQUIRED);
      return;
    }
    const notes = Object.entries(photoNotes)
      .map(([key, text]) => ({ key, note: text.trim() }))
      .filter((entry) => entry.note);
    try {
      await trigger({ note: note.trim(), photoNotes: notes });
      notifications.show({ color: 'green', message: 'Revision requested. Your editor has been notified.' });
      close();
    } catch (failure) {
      notifications.show({ color: 'red', message: apiErrorText(failure, 'Failed to request a revision') });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Request a Revision"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fz="sm" c="gray.7">
          This is revision {roundsUsed + 1} of {FREE_REVISION_ROUNDS} free rounds. The order goes back to your editor,
          who re-delivers the photos.
        </Text>
        <Textarea
          label="What should change?"
          placeholder="For example: the windows in the living room are still too dark"
          required
          autosize
          minRows={3}
          maxRows={8}
          maxLength={REVISION_NOTE_MAX}
          value={note}
          error={noteError}
          onChange={(event) => {
            setNote(event.currentTarget.value);
            if (noteError) setNoteError(null);
          }}
          data-autofocus
        />
        <Stack gap="xs" component="section" aria-labelledby="revision-photo-notes-heading">
          <Title order={3} fz="md" id="revision-photo-notes-heading">
            Notes on individual photos (optional)
          </Title>
          {isLoading && <SectionLoader label="Loading the edited photos" />}
          {error && <Alert color="red">The edited photos could not be loaded.</Alert>}
          {!isLoading && !error && edited.length === 0 && (
            <Text fz="sm" c="gray.7">
              No edited photos to comment on.
            </Text>
          )}
          {edited.map((image) => (
            <Group key={image.key} gap="sm" align="flex-start" wrap="nowrap">
              <SmallThumbnail url={image.thumbnailUrl} />
              <Textarea
                style={{ flex: 1, minWidth: 0 }}
                label={image.filename}
                labelProps={{ style: { overflowWrap: 'anywhere' } }}
                aria-label={`Note on ${image.filename}`}
                placeholder="What to change in this photo"
                autosize
                minRows={1}
                maxRows={4}
                maxLength={REVISION_NOTE_MAX}
                value={photoNotes[image.key] ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setPhotoNotes((current) => ({ ...current, [image.key]: value }));
                }}
              />
            </Group>
          ))}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="#9a3c00" onClick={submit} loading={isMutating}>
            Send Revision Request
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
