import type { OrderImageView, OrderStatus } from '@marketplace/events/orders';
import { pairByName } from '@marketplace/events/pairing';
import { compareText } from '../domain/text-order';
import { BadRequest, Conflict, NotFound } from '../http/errors';
import { listImages, type OrderRecord } from './orders';
import { commitAll, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Which original each edited file belongs to (the before/after view). The file-name rule
 * (events/pairing.ts) decides unless the editor has said otherwise: a record with pairedBy
 * 'editor' keeps the editor's choice, and one with no pairedOriginalKey means "no original".
 */
export const withPairings = (images: OrderImageView[]): OrderImageView[] => {
  const originals = images.filter((image) => image.kind === 'original').sort((a, b) => compareText(a.key, b.key));
  return images.map((image) => {
    if (image.kind !== 'edited') return image;
    if (image.pairedBy === 'editor') return { ...image, pairedOriginalKey: image.pairedOriginalKey ?? null };
    const original = pairByName(image.filename, originals);
    return { ...image, pairedOriginalKey: original?.key ?? null, pairedBy: original ? 'rule' : null };
  });
};

/** The statuses in which edited files exist and the editor may still fix a pairing. */
export const pairableStatuses: readonly OrderStatus[] = ['in_progress', 'completed', 'revision_requested'];

/**
 * The editor points an edited file at one of the order's originals, or at none (`originalKey`
 * null). One transaction: the edited image's record (it must exist), a check that the original
 * exists and that the order is still this editor's in a pairable status, and the outbox event.
 */
export const pairEditedImage = async ({
  order,
  editorId,
  editedKey,
  originalKey,
}: {
  order: OrderRecord;
  editorId: string;
  editedKey: string;
  originalKey: string | null;
}) => {
  const { orderId } = order;
  if (order.editorId !== editorId) throw new NotFound('Order not found');
  if (!pairableStatuses.includes(order.status)) {
    throw new Conflict('Pairings can only be changed once the order is in progress');
  }
  const images = await listImages(orderId);
  const edited = images.find((image) => image.kind === 'edited' && image.key === editedKey);
  if (!edited) throw new BadRequest('This is not an edited file of this order', undefined, 'UNKNOWN_EDITED_FILE');
  const original =
    originalKey === null ? null : images.find((image) => image.kind === 'original' && image.key === originalKey);
  if (original === undefined) {
    throw new BadRequest('This is not an original of this order', undefined, 'UNKNOWN_ORIGINAL');
  }
  const statuses = pairableStatuses;
  try {
    await commitAll((e) => [
      e.order
        .check({ orderId })
        .where(
          ({ status, editorId: assigned }, { eq }) =>
            `${eq(assigned, editorId)} AND (${statuses.map((s) => eq(status, s)).join(' OR ')})`,
        )
        .commit(),
      ...(original
        ? [
            e.orderImage
              .check({ orderId, kind: 'original', key: original.key })
              .where(({ key }, { exists }) => exists(key))
              .commit(),
            e.orderImage
              .patch({ orderId, kind: 'edited', key: editedKey })
              .set({ pairedBy: 'editor', pairedOriginalKey: original.key })
              .commit(),
          ]
        : [
            e.orderImage
              .patch({ orderId, kind: 'edited', key: editedKey })
              .set({ pairedBy: 'editor' })
              .remove(['pairedOriginalKey'])
              .commit(),
          ]),
      outboxWrite(e, {
        orderId,
        eventType: 'edited_image_paired',
        description: original
          ? `${edited.filename} paired with the original ${original.filename}`
          : `${edited.filename} marked as having no original`,
        actorId: editorId,
        metadata: {
          editedKey,
          editedFilename: edited.filename,
          originalKey: original?.key ?? null,
          originalFilename: original?.filename ?? null,
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      throw new Conflict('The order changed meanwhile. Please reload it and try again.');
    }
    throw error;
  }
};
