import {
  FREE_REVISION_ROUNDS,
  type OrderDetailView,
  REVISION_WINDOW_DAYS,
  type RequestRevisionInput,
  type RevisionView,
} from '@marketplace/events/orders';
import { tierOf } from '@marketplace/events/turnaround';
import { revisionDueAtFor } from '../domain/orders';
import { utcDateText } from '../domain/utc-date-text';
import { BadRequest, Conflict } from '../http/errors';
import { getRecord, models, queryAll } from './direct-reads';
import { EARNING_ALREADY_RELEASED, earningHeldForRevisionWrites, getEarning } from './earnings';
import {
  editorScope,
  getOrder,
  lateCreditViewOf,
  listAllImages,
  listImages,
  type OrderImageRecord,
  type OrderRecord,
  toDetailView,
} from './orders';
import { commitAll, counterAdd, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Revision rounds: within REVISION_WINDOW_DAYS of delivery the photographer may send a completed
 * order back to its editor, at most FREE_REVISION_ROUNDS times. completed -> revision_requested
 * here; the editor's re-delivery (completeOrder) takes it back to completed.
 */
export interface RevisionRecord {
  orderId: string;
  round: number;
  note: string;
  photoNotes: { key: string; note: string }[];
  requestedBy: string;
  requestedAt: string;
  editorUploadsAtRequest?: number;
  completedAt?: string;
  dueAt?: string;
  lateMinutes?: number;
  lateCreditCents?: number;
  lateCreditRefundId?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const revisionWindowCutoff = (now: Date) => new Date(now.getTime() - REVISION_WINDOW_DAYS * DAY_MS);

const deliveredOn = (iso: string) => utcDateText(new Date(iso));

export const revisionMessages = {
  inProgress: 'A revision is in progress.',
  roundsUsed: `This order has used its ${FREE_REVISION_ROUNDS} free revision rounds.`,
  windowClosed: (completedAt: string) =>
    `Revisions can be requested within ${REVISION_WINDOW_DAYS} days of delivery. This order was delivered on ${deliveredOn(completedAt)}.`,
  notCompleted: 'Only a completed order can be sent back for a revision.',
  unknownPhoto: 'A photo note names a file that is not one of this order’s edited photos',
  duplicatePhoto: 'Each edited photo can have one note',
} as const;

/**
 * When the photographer last received the order: the last round's re-delivery, or the first
 * delivery (the order's completedAt, which stays the first one's) when no round was asked yet.
 */
export const lastDeliveredAt = (
  order: OrderRecord,
  revisions: readonly { round: number; completedAt?: string | null }[],
) => {
  const rounds = order.revisionCount ?? 0;
  if (rounds === 0) return order.completedAt ?? null;
  return revisions.find((r) => r.round === rounds)?.completedAt ?? null;
};

/** Why this order cannot be sent back now (in words for the photographer), or null when it can. */
export const revisionRefusal = (order: OrderRecord, deliveredAt: string | null, now = new Date()): string | null => {
  if (order.status === 'revision_requested') return revisionMessages.inProgress;
  if (order.status !== 'completed' || !deliveredAt) return revisionMessages.notCompleted;
  if ((order.revisionCount ?? 0) >= FREE_REVISION_ROUNDS) return revisionMessages.roundsUsed;
  if (Date.parse(deliveredAt) <= revisionWindowCutoff(now).getTime()) return revisionMessages.windowClosed(deliveredAt);
  return null;
};

export const listRevisions = async (orderId: string) => {
  const revisions = await queryAll<RevisionRecord>(models.orderRevision, 'byOrder', { orderId });
  return revisions.sort((a, b) => a.round - b.round);
};

export const getRevision = async (orderId: string, round: number) => {
  return getRecord<RevisionRecord>(models.orderRevision, { orderId, round });
};

export const toRevisionView = (r: RevisionRecord, images: readonly OrderImageRecord[]): RevisionView => {
  const names = new Map(images.map((i) => [i.key, i.filename]));
  return {
    round: r.round,
    note: r.note,
    photoNotes: r.photoNotes.map((p) => ({ key: p.key, filename: names.get(p.key) ?? null, note: p.note })),
    requestedAt: r.requestedAt,
    completedAt: r.completedAt ?? null,
    dueAt: r.dueAt ?? null,
  };
};

/** The order's revision rounds as views, naming each noted file (replaced files included). */
export const revisionViews = async (orderId: string): Promise<RevisionView[]> =>
  revisionViewsOf(orderId, await listRevisions(orderId));

const revisionViewsOf = async (orderId: string, revisions: RevisionRecord[]): Promise<RevisionView[]> => {
  if (revisions.length === 0) return [];
  const noted = revisions.some((r) => r.photoNotes.length > 0);
  const images = noted ? await listAllImages(orderId, 'edited') : [];
  return revisions.map((r) => toRevisionView(r, images));
};

/** Why no revision can be asked now, reading the last round when there is one. */
export const currentRevisionRefusal = async (order: OrderRecord, now = new Date()) => {
  const rounds = order.revisionCount ?? 0;
  const last = rounds > 0 ? await getRevision(order.orderId, rounds) : null;
  return revisionRefusal(order, lastDeliveredAt(order, last ? [last] : []), now);
};

/**
 * The detail view with its revision rounds and whether the viewer may ask for another: only the
 * order's photographer may, and the reason is theirs to read. Others see the rounds alone.
 */
export const detailViewFor = async (
  order: OrderRecord,
  viewer: { userId: string },
  now = new Date(),
): Promise<OrderDetailView> => {
  const records = (order.revisionCount ?? 0) > 0 ? await listRevisions(order.orderId) : [];
  const revisions = await revisionViewsOf(order.orderId, records);
  const isPhotographer = viewer.userId === order.photographerId;
  const refusal = revisionRefusal(order, lastDeliveredAt(order, revisions), now);
  const shown = order.status === 'completed' || order.status === 'revision_requested';
  return {
    ...toDetailView(order),
    lateCredits: [...lateCreditViewOf(0, order), ...records.flatMap((r) => lateCreditViewOf(r.round, r))],
    revisions,
    canRequestRevision: isPhotographer && refusal === null,
    revisionUnavailableReason: isPhotographer && shown && refusal ? refusal : null,
  };
};

const excerpt = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * completed -> revision_requested, once per round: the order (status, round count, request time),
 * the round's record, its event and the active counts in one transaction. The condition pins the
 * status, the round count and the edited-file count as read, and the delivery date inside the
 * window, so of two requests at once one wins and the other gets a 409.
 */
export const requestRevision = async ({
  order,
  input,
  now = new Date(),
}: {
  order: OrderRecord;
  input: RequestRevisionInput;
  now?: Date;
}) => {
  const last = order.revisionCount ? await getRevision(order.orderId, order.revisionCount) : null;
  const refusal = revisionRefusal(order, lastDeliveredAt(order, last ? [last] : []), now);
  if (refusal) throw new Conflict(refusal);
  const keys = input.photoNotes.map((p) => p.key);
  if (new Set(keys).size !== keys.length) throw new BadRequest(revisionMessages.duplicatePhoto);
  if (keys.length > 0) {
    const edited = new Set((await listImages(order.orderId, 'edited')).map((i) => i.key));
    if (keys.some((key) => !edited.has(key))) throw new BadRequest(revisionMessages.unknownPhoto);
  }
  const { orderId, editorId } = order;
  if (!editorId) throw new Conflict(revisionMessages.notCompleted);
  const previous = order.revisionCount ?? 0;
  const round = previous + 1;
  const requestedAt = now.toISOString();
  const cutoff = revisionWindowCutoff(now).toISOString();
  // The earning is held while the revision is open; once it has gone to the editor, the window has closed.
  const earning = await getEarning(orderId, { consistent: true });
  if (earning && earning.state !== 'held' && earning.state !== 'due') throw new Conflict(EARNING_ALREADY_RELEASED);
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({ status: 'revision_requested', revisionCount: round, revisionRequestedAt: requestedAt })
        .composite({ createdAt: order.createdAt, editorId })
        .where(({ status, revisionCount, editorUploadCount, completedAt, photographerId }, { eq, gt, notExists }) =>
          [
            eq(status, 'completed'),
            eq(photographerId, order.photographerId),
            previous === 0 ? `(${notExists(revisionCount)} OR ${eq(revisionCount, 0)})` : eq(revisionCount, previous),
            eq(editorUploadCount, order.editorUploadCount),
            // The window runs from the first delivery, or from the last round's re-delivery (checked below).
            ...(previous === 0 ? [gt(completedAt, cutoff)] : []),
          ].join(' AND '),
        )
        .commit(),
      ...(previous > 0
        ? [
            e.orderRevision
              .check({ orderId, round: previous })
              .where(({ completedAt }, { gt }) => gt(completedAt, cutoff))
              .commit(),
          ]
        : []),
      e.orderRevision
        .create({
          orderId,
          round,
          note: input.note,
          photoNotes: input.photoNotes,
          requestedBy: order.photographerId,
          requestedAt,
          dueAt: revisionDueAtFor(now, tierOf(order.turnaroundTier)).toISOString(),
          editorUploadsAtRequest: order.editorUploadCount,
        })
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'revision_requested',
        description: `The photographer asked for a revision (round ${round} of ${FREE_REVISION_ROUNDS})`,
        actorId: order.photographerId,
        metadata: {
          round,
          editorId,
          note: excerpt(input.note),
          photoNoteCount: input.photoNotes.length,
        },
      }),
      counterAdd(e, `photographer#${order.photographerId}`, 'activeOrders', 1),
      counterAdd(e, editorScope(editorId), 'activeOrders', 1),
      ...earningHeldForRevisionWrites(e, earning),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      const latest = await getOrder(orderId);
      const reason = latest ? await currentRevisionRefusal(latest, now) : null;
      throw new Conflict(reason ?? 'This order changed meanwhile; please try again');
    }
    throw error;
  }
  return (await getOrder(orderId))!;
};
