import { Alert, Badge, Button, Group, Modal, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { markableStatuses, type PhotoMarksView, tickableStatuses } from '@marketplace/events/marks';
import type { OrderImageView, OrderStatus } from '@marketplace/events/orders';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { useOrderImages } from '../../../lib/order-images';
import { useOrderMarks, useSaveMarks, useTickMark } from '../api/use-order-marks';
import { MarksDrawing } from './MarksDrawing';
import { MarksViewer, type ViewedPicture } from './MarksViewer';

const pictureOf = (image: OrderImageView) => image.previewUrl ?? image.thumbnailUrl;

/** The photo with its edit beside it once delivered (the before/after), else the photo alone. */
const picturesFor = (original: OrderImageView, images: readonly OrderImageView[], delivered: boolean) => {
  const pictures: ViewedPicture[] = [];
  const before = pictureOf(original);
  if (before) pictures.push({ label: 'Before', src: before });
  const edit = delivered
    ? images.find((image) => image.kind === 'edited' && image.pairedOriginalKey === original.key)
    : undefined;
  const after = edit && pictureOf(edit);
  if (after) pictures.push({ label: 'After', src: after });
  return pictures;
};

function DrawModal({
  orderId,
  image,
  photo,
  onClose,
}: {
  orderId: string;
  image: OrderImageView;
  photo: PhotoMarksView | undefined;
  onClose: () => void;
}) {
  const save = useSaveMarks(orderId);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const src = pictureOf(image);
  return (
    <Modal opened onClose={onClose} title={`Marks on ${image.filename}`} size="xl" centered>
      {src ? (
        <MarksDrawing
          src={src}
          filename={image.filename}
          initial={photo?.marks ?? []}
          saving={saving}
          error={error}
          onCancel={onClose}
          onSave={async (marks) => {
            setSaving(true);
            setError(null);
            try {
              await save(image.key, marks);
              onClose();
            } catch (failure) {
              setError(apiErrorText(failure, 'The marks could not be saved. Please try again.'));
            } finally {
              setSaving(false);
            }
          }}
        />
      ) : (
        <Alert color="gray">The photo's preview is still being prepared. Please try again in a moment.</Alert>
      )}
    </Modal>
  );
}

/**
 * 'Marks on the Photos' on an order: the photographer draws marks with notes on the originals
 * (before the order is claimed, and on a delivered order before asking for a revision) and sees
 * them over the before/after; the order's editor sees them over the photos, on or off, and ticks
 * each one done while editing. Loaded only on the order pages that show it.
 */
export default function OrderMarksPanel({
  order,
  viewer,
}: {
  /** The order's id and status: an order page's whole order, or the one create-order just made. */
  order: { id: string; status: OrderStatus };
  viewer: 'photographer' | 'editor';
}) {
  const images = useOrderImages(order.id);
  const marks = useOrderMarks(order.id);
  const tick = useTickMark(order.id);
  const [show, setShow] = useState(true);
  const [drawing, setDrawing] = useState<string | null>(null);

  const canDraw = viewer === 'photographer' && markableStatuses.includes(order.status);
  const canTick = viewer === 'editor' && tickableStatuses.includes(order.status);
  const delivered = order.status === 'completed' || order.status === 'revision_requested';

  if (images.isLoading || marks.isLoading) return <SectionLoader label="Loading the marks on the photos" />;
  if (images.error || marks.error || !images.data || !marks.data) {
    return <Alert color="red">The marks on the photos could not be loaded. Please try again later.</Alert>;
  }
  const all = images.data.images;
  const originals = all.filter((image) => image.kind === 'original');
  const byKey = new Map(marks.data.photos.map((photo) => [photo.key, photo]));
  const marked = originals.filter((image) => (byKey.get(image.key)?.marks.length ?? 0) > 0);
  if (originals.length === 0 || (!canDraw && marked.length === 0)) return null;
  const drawingImage = drawing ? originals.find((image) => image.key === drawing) : undefined;

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="marks-heading">
      <Group justify="space-between" mb="sm" gap="sm">
        <Title order={2} fz="lg" id="marks-heading">
          Marks on the Photos
        </Title>
        {marked.length > 0 && (
          <Switch label="Show marks" checked={show} onChange={(event) => setShow(event.currentTarget.checked)} />
        )}
      </Group>
      {canDraw && (
        <Text fz="sm" c="gray.7" mb="md">
          {order.status === 'completed'
            ? 'Before asking for a revision, draw on a photo what should change and say it in a note.'
            : 'Draw on a photo what the editor should change (a rectangle, an ellipse, an arrow or freehand) and add a note.'}
        </Text>
      )}
      <Stack gap="xl">
        {marked.map((image) => (
          <Stack key={image.key} gap="xs">
            <MarksViewer
              filename={image.filename}
              pictures={picturesFor(image, all, delivered)}
              marks={byKey.get(image.key)!.marks}
              show={show}
              onTick={canTick ? (markId, done) => tick(image.key, markId, done).then(() => undefined) : undefined}
            />
            {canDraw && (
              <Group>
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPencil size={14} aria-hidden="true" />}
                  onClick={() => setDrawing(image.key)}
                >
                  Change marks on {image.filename}
                </Button>
              </Group>
            )}
          </Stack>
        ))}
        {canDraw && (
          <Stack gap="xs">
            <Text fz="sm" fw={600}>
              {marked.length > 0 ? 'Mark another photo' : 'Choose a photo to mark'}
            </Text>
            <Group gap="xs">
              {originals
                .filter((image) => !byKey.get(image.key)?.marks.length)
                .map((image) => (
                  <Button
                    key={image.key}
                    size="xs"
                    variant="light"
                    leftSection={<IconPencil size={14} aria-hidden="true" />}
                    onClick={() => setDrawing(image.key)}
                    disabled={!pictureOf(image)}
                  >
                    {image.filename}
                    {!pictureOf(image) && (
                      <Badge ml={6} size="xs" variant="outline" color="gray.7">
                        preparing
                      </Badge>
                    )}
                  </Button>
                ))}
            </Group>
          </Stack>
        )}
      </Stack>
      {drawingImage && (
        <DrawModal
          orderId={order.id}
          image={drawingImage}
          photo={byKey.get(drawingImage.key)}
          onClose={() => setDrawing(null)}
        />
      )}
    </Paper>
  );
}
