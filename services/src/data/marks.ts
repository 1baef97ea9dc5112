import {
  MARKS_PER_ORDER_MAX,
  type MarkInput,
  type MarkView,
  markableStatuses,
  markMessages,
  type OrderMarksView,
  tickableStatuses,
} from '@marketplace/events/marks';
import { compareText } from '../domain/text-order';
import { BadRequest, Conflict, NotFound } from '../http/errors';
import { getRecord, models, queryAll } from './direct-reads';
import type { OrderImageRecord, OrderRecord } from './orders';
import { commitAll, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Marks on an order's originals (events/src/marks.ts): one item per photo. The photographer
 * replaces a photo's marks while no editor works on the order (before it is claimed, or once it is
 * delivered, to ask for a revision); the order's editor ticks them done while editing.
 */
export interface ImageMarksRecord {
  orderId: string;
  key: string;
  filename?: string;
  marks: MarkView[];
  markCount: number;
  updatedBy: string;
  updatedAt: string;
}

/**
 * The order's mark total, a counter kept in the same transaction as each photo's marks: two saves
 * on different photos at once cannot both pass the per-order limit, since each write is
 * conditioned on the total it leaves and on the photo's count it replaced.
 */
export const orderMarksScope = (orderId: string) => `marks#${orderId}`;
const ORDER_MARKS_COUNTER = 'marks';

export const listOrderMarks = async (orderId: string) => {
  // At most one item per original (PHOTO_COUNT_MAX), so the whole order is a few pages at most.
  return queryAll<ImageMarksRecord>(models.orderImageMarks, 'byOrder', { orderId });
};

export const toOrderMarksView = (records: readonly ImageMarksRecord[]): OrderMarksView => ({
  photos: records
    .filter((record) => record.marks.length > 0)
    .map((record) => ({ key: record.key, marks: record.marks }))
    .sort((a, b) => compareText(a.key, b.key)),
});

const sameShape = (a: MarkInput, b: MarkInput) =>
  a.kind === b.kind &&
  a.note === b.note &&
  a.points.length === b.points.length &&
  a.points.every((p, i) => p.x === b.points[i]!.x && p.y === b.points[i]!.y);

/**
 * Replaces the marks on one original. A mark kept exactly as it was keeps its done tick and round;
 * a new or changed one starts not done, in round 0 before the order is edited and in the next
 * revision round on a delivered order. Refused (and nothing written) for a photo that is not one
 * of the order's originals, past the order's mark limit, or while an editor works on the order.
 */
export const saveImageMarks = async ({
  order,
  photographerId,
  key,
  marks,
}: {
  order: OrderRecord;
  photographerId: string;
  key: string;
  marks: readonly MarkInput[];
}) => {
  const { orderId } = order;
  if (order.photographerId !== photographerId) throw new NotFound('Order not found');
  if (!markableStatuses.includes(order.status)) throw new Conflict(markMessages.notNow, undefined, 'MARKS_LOCKED');
  const [image, existing] = await Promise.all([
    getRecord<OrderImageRecord>(models.orderImage, { orderId, kind: 'original', key }),
    listOrderMarks(orderId),
  ]);
  if (!image) throw new BadRequest(markMessages.unknownPhoto, undefined, 'UNKNOWN_PHOTO');
  const others = existing.filter((record) => record.key !== key).reduce((sum, r) => sum + r.markCount, 0);
  if (others + marks.length > MARKS_PER_ORDER_MAX) {
    throw new BadRequest(markMessages.perOrder, undefined, 'TOO_MANY_MARKS');
  }
  const previous = existing.find((record) => record.key === key);
  const before = new Map((previous?.marks ?? []).map((m) => [m.id, m]));
  const delta = marks.length - (previous?.markCount ?? 0);
  const round = order.status === 'completed' ? (order.revisionCount ?? 0) + 1 : 0;
  const saved: MarkView[] = marks.map((mark) => {
    const old = before.get(mark.id);
    const kept = old && sameShape(old, mark);
    return { ...mark, done: kept ? old.done : false, round: kept ? old.round : round };
  });
  const statuses = markableStatuses;
  try {
    await commitAll((e) => [
      e.order
        .check({ orderId })
        .where(
          ({ status, photographerId: owner }, { eq }) =>
            `${eq(owner, photographerId)} AND (${statuses.map((s) => eq(status, s)).join(' OR ')})`,
        )
        .commit(),
      e.orderImageMarks
        .put({
          orderId,
          key,
          filename: image.filename,
          marks: saved,
          markCount: saved.length,
          updatedBy: photographerId,
        })
        // Over the count as read: the order total's change below is right only against it.
        .where(({ markCount }, { eq, notExists }) =>
          previous ? eq(markCount, previous.markCount) : notExists(markCount),
        )
        .commit(),
      e.counter
        .update({ scope: orderMarksScope(orderId), name: ORDER_MARKS_COUNTER })
        .add({ value: delta })
        // Fewer marks always fit; more only while the total stays within the order's limit.
        .where(({ value }, { lte, notExists }) =>
          delta <= 0 ? '' : `${notExists(value)} OR ${lte(value, MARKS_PER_ORDER_MAX - delta)}`,
        )
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'marks_saved',
        description:
          saved.length === 0
            ? `Marks removed from ${image.filename}`
            : `${saved.length} ${saved.length === 1 ? 'mark' : 'marks'} on ${image.filename}`,
        actorId: photographerId,
        metadata: { key, filename: image.filename, markCount: saved.length, round },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      // The items' order above: the order, the photo's marks, the order's total.
      if (error.codes[2] === 'ConditionalCheckFailed') {
        throw new BadRequest(markMessages.perOrder, undefined, 'TOO_MANY_MARKS');
      }
      throw new Conflict('The order changed meanwhile. Please reload it and try again.');
    }
    throw error;
  }
  return toOrderMarksView([
    ...existing.filter((record) => record.key !== key),
    { orderId, key, marks: saved, markCount: saved.length, updatedBy: photographerId, updatedAt: '' },
  ]);
};

/** The order's editor ticks one mark done or not done, while editing (a conditional write). */
export const setMarkDone = async ({
  order,
  editorId,
  key,
  markId,
  done,
}: {
  order: OrderRecord;
  editorId: string;
  key: string;
  markId: string;
  done: boolean;
}) => {
  const { orderId } = order;
  if (order.editorId !== editorId) throw new NotFound('Order not found');
  if (!tickableStatuses.includes(order.status)) throw new Conflict(markMessages.notEditing, undefined, 'NOT_EDITING');
  const record = await getRecord<ImageMarksRecord>(models.orderImageMarks, { orderId, key });
  const index = record?.marks.findIndex((mark) => mark.id === markId) ?? -1;
  if (!record || index < 0) throw new BadRequest(markMessages.unknownMark, undefined, 'UNKNOWN_MARK');
  const marks = record.marks.map((mark, i) => (i === index ? { ...mark, done } : mark));
  const statuses = tickableStatuses;
  try {
    await commitAll((e) => [
      e.order
        .check({ orderId })
        .where(
          ({ status, editorId: assigned }, { eq }) =>
            `${eq(assigned, editorId)} AND (${statuses.map((s) => eq(status, s)).join(' OR ')})`,
        )
        .commit(),
      // Only over the marks as read: a photographer's change meanwhile is not overwritten.
      e.orderImageMarks
        .patch({ orderId, key })
        .set({ marks })
        .where(({ updatedAt }, { eq }) => eq(updatedAt, record.updatedAt))
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'mark_ticked',
        description: `Mark ${index + 1}${record.filename ? ` on ${record.filename}` : ''} ${done ? 'done' : 'not done yet'}`,
        actorId: editorId,
        metadata: { key, markId, done },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      throw new Conflict('The marks changed meanwhile. Please reload the order and try again.');
    }
    throw error;
  }
  return { key, mark: marks[index]! };
};
