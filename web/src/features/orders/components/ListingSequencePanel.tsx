import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Alert, Badge, Button, Group, Modal, Paper, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type SequenceView, sequenceChangedMessage } from '@marketplace/events/delivery';
import { useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { SectionLoader } from '../../../components/PageLoader';
import { PhotoGrid } from '../../../components/photos/PhotoGrid';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useListingSequence, useSaveSequence } from '../api/use-listing-sequence';
import { ListingPhotoTile } from './ListingPhotoTile';

/** The photographer's arrangement not saved yet, with the version of the saved order it started from. */
interface Draft {
  keys: string[];
  version: number;
}

/** Another tab saved since this one loaded: the server's words, and the version to save over. */
interface SequenceConflict {
  message: string;
  version: number;
}

const placeText = (place: number) => (place === 1 ? 'place 1, the cover' : `place ${place}`);

export const movedText = (from: number, to: number, total: number) =>
  from === to
    ? `Photo ${from} of ${total} dropped back at ${placeText(to)}.`
    : `Photo ${from} of ${total} moved to ${placeText(to)}.`;

const keyboardInstructions =
  'To move this photo, press Space. Use the arrow keys to move it, Space again to drop it in its new place, or Escape to cancel.';

const sameOrder = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((key, index) => key === b[index]);

/** The version a SEQUENCE_CHANGED conflict says is saved now; the draft's own when it says none. */
const savedVersionOf = (error: ApiError, fallback: number) => {
  const details = error.details as { version?: unknown } | undefined;
  return typeof details?.version === 'number' ? details.version : fallback;
};

const statusText = (view: SequenceView, dirty: boolean) => {
  if (dirty) return 'Not saved yet';
  if (view.isDefault || !view.updatedAt) return 'In capture order';
  return `Saved ${formatDate(view.updatedAt)}`;
};

/**
 * The listing order of a completed order's edited photos, the first being the cover: arranged by
 * drag and drop or the keyboard, or 'Make cover'; kept as a draft until Save. A save over a newer
 * one from another tab is refused by the server; the photographer then loads that one or keeps theirs.
 */
export function ListingSequencePanel({ orderId }: { orderId: string }) {
  const { data: view, error, isLoading, mutate } = useListingSequence(orderId);
  const { trigger: saveSequence, isMutating: saving } = useSaveSequence(orderId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [conflict, setConflict] = useState<SequenceConflict | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const leftItsPlace = useRef(false);

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const savedKeys = view?.photos.map((photo) => photo.key) ?? [];
  const keys = draft?.keys ?? savedKeys;
  const dirty = draft !== null;
  const total = keys.length;
  const placeOf = (id: UniqueIdentifier) => keys.indexOf(String(id)) + 1;

  // Leaving with unsaved changes asks first, inside the app and when the tab is closed or reloaded.
  const blocker = useBlocker(dirty);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // After 'Make cover' the tile has moved: focus follows it to its move handle.
  useEffect(() => {
    if (!focusKey) return;
    handles.current.get(focusKey)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  if (isLoading) return <SectionLoader label="Loading the listing order" />;
  if (error || !view) {
    return <Alert color="red">The listing order could not be loaded. Please try again later.</Alert>;
  }
  if (view.photos.length === 0) return null;

  const photoByKey = new Map(view.photos.map((photo) => [photo.key, photo]));

  /** A new arrangement; arranged back to the saved order, there is nothing left to save. */
  const arrange = (next: string[]) => {
    setDraft(sameOrder(next, savedKeys) ? null : { keys: next, version: draft?.version ?? view.version });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    arrange(arrayMove(keys, keys.indexOf(String(active.id)), keys.indexOf(String(over.id))));
  };

  const makeCover = (key: string) => {
    const from = keys.indexOf(key);
    arrange(arrayMove(keys, from, 0));
    setAnnouncement(movedText(from + 1, 1, total));
    setFocusKey(key);
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      leftItsPlace.current = false;
      return `Picked up photo ${placeOf(active.id)} of ${total}. Use the arrow keys to move it, Space to drop it, Escape to cancel.`;
    },
    onDragOver: ({ active, over }) => {
      // A pick-up finds the photo over its own place at once; that says nothing new.
      if (over?.id === active.id && !leftItsPlace.current) return undefined;
      leftItsPlace.current = true;
      return over
        ? `Photo ${placeOf(active.id)} of ${total} is over ${placeText(placeOf(over.id))}.`
        : `Photo ${placeOf(active.id)} of ${total} is not over a place.`;
    },
    onDragEnd: ({ active, over }) => movedText(placeOf(active.id), over ? placeOf(over.id) : placeOf(active.id), total),
    onDragCancel: ({ active }) =>
      `Moving cancelled. Photo ${placeOf(active.id)} of ${total} stays at ${placeText(placeOf(active.id))}.`,
  };

  const save = async (replace = false) => {
    if (!draft) return;
    try {
      await saveSequence({
        keys: draft.keys,
        version: replace && conflict ? conflict.version : draft.version,
        ...(replace ? { replace: true } : {}),
      });
      setDraft(null);
      setConflict(null);
      setAnnouncement('Listing order saved.');
      notifications.show({ color: 'green', message: 'Listing order saved' });
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'SEQUENCE_CHANGED') {
        setConflict({
          message: failure.serverMessage ?? sequenceChangedMessage,
          version: savedVersionOf(failure, draft.version),
        });
        return;
      }
      notifications.show({
        color: 'red',
        message: apiErrorText(failure, 'The listing order could not be saved. Please try again.'),
      });
    }
  };

  const loadSaved = async () => {
    setDraft(null);
    setConflict(null);
    await mutate();
    setAnnouncement('The saved listing order is shown.');
  };

  const discard = () => {
    setDraft(null);
    setConflict(null);
    setAnnouncement('Changes discarded. The saved listing order is shown.');
  };

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      radius="lg"
      component="section"
      aria-labelledby="listing-order-heading"
    >
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Title order={2} fz="lg" id="listing-order-heading">
          Listing Order
        </Title>
        {dirty && (
          <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
            Unsaved changes
          </Badge>
        )}
      </Group>
      <Text fz="sm" c="gray.7" mb="md">
        Arrange the photos in the order your listing shows them; the first is the cover, and both downloads follow the
        saved order. Drag a photo (on a touch screen, press and hold it first), or focus its move handle, press Space
        and use the arrow keys.
      </Text>

      {/* Above the grid, beside the cover, where most of the arranging happens. */}
      <Group
        justify="space-between"
        gap="sm"
        py="sm"
        mb="md"
        style={{ borderBlock: '1px solid var(--mantine-color-gray-3)' }}
      >
        {/* One short line in every state, so the grid does not move when the first change is made. */}
        <Text fz="sm" c={dirty ? 'gray.9' : 'gray.7'} fw={dirty ? 600 : 400} style={{ flex: '1 1 8rem' }}>
          {statusText(view, dirty)}
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={discard} disabled={!dirty || saving}>
            Discard changes
          </Button>
          <Button onClick={() => save()} disabled={!dirty} loading={saving && !conflict}>
            Save
          </Button>
        </Group>
      </Group>

      {conflict && (
        <Alert color="orange" variant="light" mb="md" title="Saved in another tab">
          <Text fz="sm" mb="sm">
            {conflict.message}
          </Text>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={loadSaved} disabled={saving}>
              Load the saved order
            </Button>
            <Button size="xs" onClick={() => save(true)} loading={saving}>
              Keep mine
            </Button>
          </Group>
        </Alert>
      )}

      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: keyboardInstructions } }}
      >
        <SortableContext items={keys} strategy={rectSortingStrategy}>
          <PhotoGrid label="Photos in listing order" min={150}>
            {keys.map((key, index) => {
              const photo = photoByKey.get(key);
              if (!photo) return null;
              return (
                <ListingPhotoTile
                  key={key}
                  photo={photo}
                  place={index + 1}
                  total={total}
                  onMakeCover={() => makeCover(key)}
                  handleRef={(handle) => {
                    if (handle) handles.current.set(key, handle);
                    else handles.current.delete(key);
                  }}
                />
              );
            })}
          </PhotoGrid>
        </SortableContext>
      </DndContext>

      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>

      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="Leave without saving?"
        centered
      >
        <Text fz="sm" mb="lg">
          Your listing order has changes that are not saved.
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button color="red.9" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
