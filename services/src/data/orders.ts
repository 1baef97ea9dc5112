import { photographerSortName } from '@marketplace/events/admin';
import type { EditingStyle } from '@marketplace/events/editing-style';
import type { OrderEventView } from '@marketplace/events/editor-orders';
import type {
  OrderDetailView,
  OrderImageView,
  OrderStatus,
  OrderSummaryView,
  PhotographerStatsView,
} from '@marketplace/events/orders';
import { orderDisplayName } from '@marketplace/events/orders';
import type { Role } from '@marketplace/events/roles';
import {
  type LateCreditView,
  lateCreditCents,
  lateCreditText,
  minutesLate,
  type TurnaroundTier,
  tierOf,
} from '@marketplace/events/turnaround';
import { recordMetrics } from '../adapters/metrics';
import { canViewOrder } from '../domain/order-access';
import { type AddOnLine, dueAtFor, editorEarningCents, isLate } from '../domain/orders';
import { Conflict, Forbidden, NotFound } from '../http/errors';
import { billingEntryWrite, type CardFacts, newEntryId } from './billing';
import { getRecord, models, query, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { earningBookingWrites, earningWindowRestartWrites, getEarning } from './earnings';
import { adminIndexComposite, assignmentMoveWrites, newOrderListWrites } from './order-assignment';
import { OPEN_POOL, openPlace, poolAsRead, poolDueKeyOf, poolMoveWrites } from './order-pool';
import { commitAll, counterAdd, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Orders and their state changes. Every change is one transaction: the conditional write that
 * makes it (so a race has exactly one winner), its outbox event and the counters it moves.
 */
export interface OrderRecord {
  orderId: string;
  orderNumber: number;
  name?: string;
  photographerId: string;
  photographerName: string;
  /** Absent on orders written before the admin list existed. */
  photographerSortName?: string;
  jobTypeId: string;
  jobTypeName: string;
  pricePerPhotoCents: number;
  /** Absent on orders made before tiers: standard (tierOf). */
  turnaroundTier?: TurnaroundTier;
  surchargePerPhotoCents?: number;
  photoCount: number;
  totalAmountCents: number;
  editingRequirements?: string;
  hasRequirements: 'yes' | 'no';
  status: OrderStatus;
  stripePaymentIntentId?: string;
  paidAt?: string;
  dueAt?: string;
  poolDueKey?: string;
  /** The first delivery's lateness and credit (decision 0111); absent when it was on time. */
  lateMinutes?: number;
  lateCreditCents?: number;
  lateCreditRefundId?: string;
  pool?: string;
  /** The pool indexes' partition (order-pool.ts); absent on orders opened before the shards. */
  poolPartition?: string;
  assignment: 'assigned' | 'unassigned';
  editorId?: string;
  editorName?: string;
  editorEmail?: string;
  editorRateCents?: number;
  assignedAt?: string;
  claimedAt?: string;
  completedAt?: string;
  cancelledAt?: string;
  cancelledBy?: string;
  refundedAmountCents?: number;
  refundId?: string;
  editorNotes?: string;
  photographerRating?: number;
  photographerUploadCount: number;
  editorUploadCount: number;
  /** Absent on orders written before revisions existed: read as 0. */
  revisionCount?: number;
  revisionRequestedAt?: string;
  searchText?: string;
  /** The style kept when the order was made (decision 0107); absent on orders made before styles. */
  editingStyle?: EditingStyle;
  /** The add-ons chosen, as priced when chosen (decision 0109); absent when none were ever chosen. */
  addOns?: AddOnLine[];
  addOnsCents?: number;
  addOnsRevision?: number;
  createdAt: string;
  updatedAt: string;
}

export interface OrderImageRecord {
  orderId: string;
  kind: 'original' | 'edited';
  key: string;
  filename: string;
  size: number;
  contentType?: string;
  uploadedBy: string;
  lastModified: string;
  thumbnail?: 'ready' | 'placeholder';
  thumbnailKey?: string;
  previewKey?: string;
  scene?: number;
  pairedOriginalKey?: string;
  pairedBy?: 'rule' | 'editor';
  /** A later edited file of the same name replaced this one (a revision's re-delivery). */
  supersededBy?: string;
  createdAt: string;
}

const entities = () => writers();
const photographerScope = (photographerId: string) => `photographer#${photographerId}`;
export const editorScope = (editorId: string) => `editor#${editorId}`;

/**
 * The key parts every write that sets or removes `pool` (and `poolPartition`, always with it) or
 * changes `assignment` must pass to `.composite(...)`, so the pool indexes (gsi2, gsi3, gsi8) and the
 * admin's (gsi5-7) are re-formed with the order's date, price, requirements flag, photo count and
 * photographer. Such a write also moves the pool counters (`poolMoveWrites`).
 */
export const poolIndexComposite = (o: OrderRecord) => ({
  ...adminIndexComposite(o),
  totalAmountCents: o.totalAmountCents,
  hasRequirements: o.hasRequirements ?? 'no',
  // poolByDue (gsi8): an unpaid order has no due time yet (the payment's write sets the key); an
  // order paid before the index gets its key when it next moves.
  ...(o.dueAt ? { poolDueKey: o.poolDueKey ?? poolDueKeyOf({ ...o, dueAt: o.dueAt }) } : {}),
});

export const toSummaryView = (o: OrderRecord, now = new Date()): OrderSummaryView => ({
  id: o.orderId,
  orderNumber: o.orderNumber,
  name: o.name ?? null,
  status: o.status,
  photoCount: o.photoCount,
  totalAmountCents: o.totalAmountCents,
  createdAt: o.createdAt,
  editingRequirements: o.editingRequirements ?? null,
  jobTypeName: o.jobTypeName,
  claimedAt: o.claimedAt ?? null,
  paidAt: o.paidAt ?? null,
  completedAt: o.completedAt ?? null,
  dueAt: o.dueAt ?? null,
  turnaroundTier: tierOf(o.turnaroundTier),
  isLate: isLate(o, now),
  photographerRating: o.photographerRating ?? null,
  addOns: (o.addOns ?? []).map((line) => ({
    addOnId: line.addOnId,
    name: line.name,
    pricePerPhotoCents: line.pricePerPhotoCents,
    photoCount: line.photoCount,
    amountCents: line.photoCount * line.pricePerPhotoCents,
  })),
});

export const toDetailView = (o: OrderRecord): OrderDetailView => ({
  ...toSummaryView(o),
  jobTypeId: o.jobTypeId,
  pricePerPhotoCents: o.pricePerPhotoCents,
  surchargePerPhotoCents: o.surchargePerPhotoCents ?? 0,
  // The first delivery's; detailViewFor adds the revision rounds'.
  lateCredits: lateCreditViewOf(0, o),
  assignedAt: o.assignedAt ?? null,
  editor: o.editorId ? { displayName: o.editorName ?? null, email: o.editorEmail ?? null } : null,
  editorNotes: o.editorNotes ?? null,
  photographerUploadCount: o.photographerUploadCount,
  editorUploadCount: o.editorUploadCount,
  stripePaymentIntentId: o.stripePaymentIntentId ?? null,
  // Filled in from the order's revision rounds where the detail route answers (see data/revisions).
  revisions: [],
  canRequestRevision: false,
  revisionUnavailableReason: null,
  editingStyle: o.editingStyle ?? null,
});

/** A delivery round's credit as the views show it: none when the round was on time. */
export const lateCreditViewOf = (
  round: number,
  r: { lateMinutes?: number; lateCreditCents?: number; lateCreditRefundId?: string },
): LateCreditView[] =>
  r.lateMinutes && r.lateMinutes > 0
    ? [
        {
          round,
          minutesLate: r.lateMinutes,
          creditCents: r.lateCreditCents ?? 0,
          refundId: r.lateCreditRefundId ?? null,
          text: lateCreditText({ minutesLate: r.lateMinutes, creditCents: r.lateCreditCents ?? 0 }),
        },
      ]
    : [];

/**
 * A delivery's lateness against its due time: the attributes the delivery's transaction writes
 * (none when on time) and the figures its event carries for the credit worker and the email.
 */
export const latenessOf = (dueAt: string | undefined, totalCents: number, deliveredAt: Date) => {
  const late = minutesLate(dueAt, deliveredAt);
  const credit = lateCreditCents(totalCents, late);
  return {
    late,
    credit,
    attributes: late > 0 ? { lateMinutes: late, lateCreditCents: credit } : {},
    metadata: late > 0 ? { minutesLate: late, lateCreditCents: credit } : {},
  };
};

/** An image as the API shows it, without URLs (list-order-images presigns the thumbnail and preview). */
export const toImageView = (i: OrderImageRecord): OrderImageView => ({
  key: i.key,
  filename: i.filename,
  size: i.size,
  lastModified: i.lastModified,
  kind: i.kind,
  thumbnail: i.thumbnail ?? 'pending',
  thumbnailUrl: null,
  previewUrl: null,
  scene: i.scene ?? null,
  pairedOriginalKey: i.pairedOriginalKey ?? null,
  pairedBy: i.pairedBy ?? null,
});

/** Order numbers count up from 1001 across the marketplace (an atomic counter, so never twice). */
export const nextOrderNumber = async () => {
  const { data } = await entities()
    .counter.update({ scope: 'orders', name: 'orderNumber' })
    .add({ value: 1 })
    .go({ response: 'all_new' });
  return 1000 + (data as { value: number }).value;
};

export const getOrder = async (orderId: string) => getRecord<OrderRecord>(models.order, { orderId });

/** The order a photographer owns, or 404 for anyone else: others must not learn it exists. */
export const getOwnOrder = async (orderId: string, photographerId: string) => {
  const order = await getOrder(orderId);
  if (!order || order.photographerId !== photographerId) throw new NotFound('Order not found');
  return order;
};

/**
 * The order an editor works on: 404 to whoever may not see it, 403 to one who may see it but did
 * not claim it (an editor it is offered to, an admin).
 */
export const getClaimedOrder = async (orderId: string, viewer: { userId: string; roles: readonly Role[] }) => {
  const order = await getOrder(orderId);
  if (!order || !canViewOrder(viewer, order)) throw new NotFound('Order not found');
  if (order.editorId !== viewer.userId) throw new Forbidden('Only the editor working on this order can do this');
  return order;
};

export const createOrder = async (order: {
  orderId: string;
  orderNumber: number;
  photographer: { userId: string; name: string };
  jobType: { jobTypeId: string; name: string; pricePerPhotoCents: number };
  /** The tier and its surcharge per photo, as priceOrder priced them; absent: standard. */
  turnaround?: { tier: TurnaroundTier; surchargePerPhotoCents: number };
  input: { photoCount: number; name?: string | undefined; editingRequirements?: string | undefined };
  totalAmountCents: number;
  stripePaymentIntentId: string;
  editingStyle?: EditingStyle;
}) => {
  const record = {
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    ...(order.input.name ? { name: order.input.name } : {}),
    photographerId: order.photographer.userId,
    photographerName: order.photographer.name,
    photographerSortName: photographerSortName(order.photographer.name),
    jobTypeId: order.jobType.jobTypeId,
    jobTypeName: order.jobType.name,
    pricePerPhotoCents: order.jobType.pricePerPhotoCents,
    turnaroundTier: order.turnaround?.tier ?? ('standard' as const),
    surchargePerPhotoCents: order.turnaround?.surchargePerPhotoCents ?? 0,
    photoCount: order.input.photoCount,
    totalAmountCents: order.totalAmountCents,
    ...(order.input.editingRequirements ? { editingRequirements: order.input.editingRequirements } : {}),
    hasRequirements: order.input.editingRequirements?.trim() ? ('yes' as const) : ('no' as const),
    status: 'pending_payment' as const,
    assignment: 'unassigned' as const,
    stripePaymentIntentId: order.stripePaymentIntentId,
    photographerUploadCount: 0,
    editorUploadCount: 0,
    searchText: `${order.photographer.name}\u0000${order.input.name ?? ''}`.toLowerCase(),
    ...(order.editingStyle ? { editingStyle: order.editingStyle } : {}),
  };
  const scope = photographerScope(order.photographer.userId);
  // createdAt is fixed here (not defaulted by ElectroDB) so the search words carry the same one.
  const createdAt = new Date().toISOString();
  await commitAll((e) => [
    ...newOrderListWrites(e, { ...record, createdAt }),
    e.order.create({ ...record, createdAt }).commit(),
    e.payment
      .create({
        paymentIntentId: order.stripePaymentIntentId,
        orderId: order.orderId,
        amountCents: order.totalAmountCents,
        currency: 'usd',
        status: 'requires_payment',
      })
      .commit(),
    outboxWrite(e, {
      orderId: order.orderId,
      eventType: 'order_created',
      description: `Order ${orderDisplayName(record)} created for ${record.photoCount} photo(s)`,
      actorId: order.photographer.userId,
      metadata: {
        photoCount: record.photoCount,
        totalAmountCents: record.totalAmountCents,
        turnaroundTier: record.turnaroundTier,
      },
    }),
    counterAdd(e, scope, 'totalOrders', 1),
    counterAdd(e, scope, 'totalPhotos', record.photoCount),
  ]);
  const created = await getOrder(order.orderId);
  if (!created) throw new Error('order vanished after creation');
  return created;
};

/**
 * Marks an order paid, once. The webhook and the browser's confirmation may both arrive, in any
 * order and any number of times: the conditional write lets exactly one through; the others see
 * 'already-paid' and change nothing.
 */
export const markOrderPaid = async ({
  orderId,
  paymentIntentId,
  amountCents,
  via,
  card,
}: {
  orderId: string;
  paymentIntentId: string;
  amountCents: number;
  via: 'webhook' | 'client';
  /** The card paid with, for the receipt; absent when Stripe could not say. */
  card?: CardFacts | null;
}): Promise<'paid' | 'already-paid'> => {
  const order = await getOrder(orderId);
  if (!order) throw new NotFound('Order not found');
  if (order.stripePaymentIntentId !== paymentIntentId) throw new Conflict('This payment does not belong to this order');
  if (order.status !== 'pending_payment') return 'already-paid';
  const paidAt = new Date();
  const dueAt = dueAtFor(paidAt, tierOf(order.turnaroundTier)).toISOString();
  const place = openPlace(orderId);
  const entryId = newEntryId(paidAt);
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({
          status: 'paid',
          paidAt: paidAt.toISOString(),
          dueAt,
          poolDueKey: poolDueKeyOf({ ...order, dueAt }),
          ...place,
        })
        .composite(poolIndexComposite(order))
        .where(
          // The amount paid is the order's total as written: add-ons changed meanwhile fail this.
          ({ status, stripePaymentIntentId, totalAmountCents }, { eq }) =>
            `${eq(status, 'pending_payment')} AND ${eq(stripePaymentIntentId, paymentIntentId)} AND ${eq(totalAmountCents, amountCents)}`,
        )
        .commit(),
      e.payment.patch({ paymentIntentId }).set({ status: 'succeeded' }).commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'order_paid',
        description: `Payment of ${(amountCents / 100).toFixed(2)} USD received`,
        actorId: order.photographerId,
        metadata: {
          paymentIntentId,
          amountCents,
          via,
          entryId,
          ...(card ? { cardBrand: card.brand, cardLast4: card.last4 } : {}),
        },
      }),
      // The billing history's entry, whose receipt the receipt worker makes from this event.
      billingEntryWrite(e, order, { entryId, kind: 'payment', amountCents, paymentIntentId, card, occurredAt: paidAt }),
      counterAdd(e, photographerScope(order.photographerId), 'totalSpent', amountCents),
      counterAdd(e, photographerScope(order.photographerId), 'activeOrders', 1),
      ...poolMoveWrites(e, order, place),
    ]);
    recordMetrics({ OrdersPaid: 1, Revenue: amountCents });
    return 'paid';
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) return 'already-paid';
    throw error;
  }
};

interface VerifiedUpload {
  order: OrderRecord;
  key: string;
  filename: string;
  size: number;
  contentType?: string;
  lastModified: string;
  /** Originals: the HDR scene the browser grouped the file into. */
  scene?: number;
}

/** The image record of a verified upload, to create in the transaction that counts it. */
const imageRecord = (kind: 'original' | 'edited', image: VerifiedUpload, uploadedBy: string) => ({
  orderId: image.order.orderId,
  kind,
  key: image.key,
  filename: image.filename,
  size: image.size,
  ...(image.contentType ? { contentType: image.contentType } : {}),
  uploadedBy,
  lastModified: image.lastModified,
  ...(image.scene ? { scene: image.scene } : {}),
});

/**
 * Commits a registration. A failed condition means either the key was registered before (the
 * image record exists: counted once, fine) or the order's rule refused it (`refusal`, a 409).
 */
const registerOnce = async (
  kind: 'original' | 'edited',
  image: VerifiedUpload,
  writes: Parameters<typeof commitAll>[0],
  refusal: string,
): Promise<'registered' | 'already-registered'> => {
  try {
    await commitAll(writes);
    return 'registered';
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    const existing = await getRecord(models.orderImage, { orderId: image.order.orderId, kind, key: image.key });
    if (existing) return 'already-registered';
    throw new Conflict(refusal);
  }
};

type Entities = Parameters<Parameters<typeof commitAll>[0]>[0];

/** The writes that record originals of one order: their image records and events, the order's count up by them, while it awaits payment. */
const originalsWrites = (e: Entities, images: [VerifiedUpload, ...VerifiedUpload[]]) => {
  const { order } = images[0];
  return [
    ...images.map((image) => e.orderImage.create(imageRecord('original', image, order.photographerId)).commit()),
    e.order
      .update({ orderId: order.orderId })
      .add({ photographerUploadCount: images.length })
      .where(({ status }, { eq }) => eq(status, 'pending_payment'))
      .commit(),
    ...images.map((image) =>
      outboxWrite(e, {
        orderId: order.orderId,
        eventType: 'image_uploaded',
        description: `Original uploaded: ${image.filename}`,
        actorId: order.photographerId,
        metadata: { key: image.key, filename: image.filename, size: image.size },
      }),
    ),
  ];
};

/** Records an original the server has seen in S3; counted once however often it is registered. */
export const registerOriginal = async (image: VerifiedUpload) =>
  registerOnce(
    'original',
    image,
    (e) => originalsWrites(e, [image]),
    'Photos can only be added while the order awaits payment',
  );

/**
 * Records several originals of one order in one transaction. When any was registered before (a
 * retry) or the order moved on, each goes on its own, so each is counted once or refused.
 */
export const registerOriginals = async (images: VerifiedUpload[]) => {
  const [first, ...rest] = images;
  if (!first) return [];
  if (rest.length === 0) return [await registerOriginal(first)];
  try {
    await commitAll((e) => originalsWrites(e, [first, ...rest]));
    return images.map((): 'registered' | 'already-registered' => 'registered');
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    const outcomes: ('registered' | 'already-registered')[] = [];
    for (const image of images) outcomes.push(await registerOriginal(image));
    return outcomes;
  }
};

/** Every image record of the order, replaced ones included (for naming the files a revision note was about). */
export const listAllImages = async (orderId: string, kind?: 'original' | 'edited') => {
  return queryAll<OrderImageRecord>(models.orderImage, 'byOrder', kind ? { orderId, kind } : { orderId });
};

/** The order's images as delivered: an edited file replaced by a later one of the same name is left out. */
export const listImages = async (orderId: string, kind?: 'original' | 'edited') =>
  (await listAllImages(orderId, kind)).filter((image) => !image.supersededBy);

export const ORDERS_PAGE_SIZE_MAX = 50;

/** A photographer's orders, newest first, a page at a time; the total comes from their counter. */
export const listPhotographerOrders = async (
  photographerId: string,
  { limit, cursor }: { limit: number; cursor?: string },
) => {
  const [{ data, cursor: next }, stats] = await Promise.all([
    query<OrderRecord>(models.order, 'byPhotographer', { photographerId }).go({
      order: 'desc',
      limit,
      cursor: cursor ?? null,
    }),
    photographerStats(photographerId),
  ]);
  const now = new Date();
  return {
    orders: (data as OrderRecord[]).map((o) => toSummaryView(o, now)),
    total: stats.totalOrders,
    nextCursor: next ?? null,
  };
};

export const readCounters = async (scope: string) => {
  const counters = await queryAll<{ name: string; value: number }>(models.counter, 'byScope', { scope });
  return Object.fromEntries(counters.map((c) => [c.name, c.value]));
};

export const photographerStats = async (photographerId: string): Promise<PhotographerStatsView> => {
  const counters = await readCounters(photographerScope(photographerId));
  return {
    totalOrders: counters.totalOrders ?? 0,
    totalPhotos: counters.totalPhotos ?? 0,
    totalSpent: counters.totalSpent ?? 0,
    activeOrders: counters.activeOrders ?? 0,
  };
};

export const rateOrder = async ({ order, rating }: { order: OrderRecord; rating: number }) => {
  if (order.status !== 'completed') throw new Conflict('Only completed orders can be rated');
  if (order.photographerRating !== undefined) throw new Conflict('This order has already been rated');
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId: order.orderId })
        .set({ photographerRating: rating })
        .where(
          ({ status, photographerRating, photographerId }, { eq, notExists }) =>
            `${eq(status, 'completed')} AND ${notExists(photographerRating)} AND ${eq(photographerId, order.photographerId)}`,
        )
        .commit(),
      outboxWrite(e, {
        orderId: order.orderId,
        eventType: 'order_rated',
        description: `The photographer rated the editor ${rating}/10`,
        actorId: order.photographerId,
        metadata: { rating, editorId: order.editorId ?? null },
      }),
      ...(order.editorId
        ? [
            counterAdd(e, editorScope(order.editorId), 'ratingSum', rating),
            counterAdd(e, editorScope(order.editorId), 'ratingCount', 1),
          ]
        : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      throw new Conflict('This order has already been rated');
    }
    throw error;
  }
  return (await getOrder(order.orderId))!;
};

/** Why a claim lost: the order left the pool because another editor took it, or an admin cancelled it. */
export const claimConflict = (status: OrderStatus | undefined) =>
  new Conflict(status === 'cancelled' ? 'This order has been cancelled' : 'This order has already been claimed');

/**
 * An editor takes a paid order that is open, or assigned to them. One of any number of claims
 * wins; the rest get 409. (The editor's claim route builds on this.)
 */
export const claimOrder = async ({
  orderId,
  editor,
  rateCents,
  current,
}: {
  orderId: string;
  editor: { userId: string; name: string; email: string };
  rateCents: number;
  /** The order as the caller just read it, to spare a read; the transaction's condition still decides. */
  current?: OrderRecord;
}) => {
  let order = current ?? (await getOrder(orderId));
  if (!order) throw new NotFound('Order not found');
  // An open order moves to 'assigned' (counters and search words with it); one an admin gave
  // this editor is assigned already. The condition pins the pool read, so both stay exact.
  for (let attempt = 1; ; attempt += 1) {
    const claimed = await tryClaim(order, editor, rateCents);
    if (claimed) return claimed;
    const now = await getOrder(orderId);
    const stillClaimable = now?.status === 'paid' && (now.pool === OPEN_POOL || now.pool === editor.userId);
    // The pool changed between the read and the write (an admin assigned it to this editor): try again once.
    if (
      attempt >= 2 ||
      !now ||
      !stillClaimable ||
      (now.pool === order.pool && now.poolPartition === order.poolPartition)
    ) {
      throw claimConflict(now?.status);
    }
    order = now;
  }
};

const tryClaim = async (
  order: OrderRecord,
  editor: { userId: string; name: string; email: string },
  rateCents: number,
) => {
  const { orderId } = order;
  // Offered to every editor, or to this one only: anything else is not theirs to claim.
  if (order.pool !== OPEN_POOL && order.pool !== editor.userId) return null;
  const claimedAt = new Date().toISOString();
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({
          status: 'in_progress',
          editorId: editor.userId,
          editorName: editor.name,
          editorEmail: editor.email,
          editorRateCents: rateCents,
          claimedAt,
          assignedAt: order.assignedAt ?? claimedAt,
          assignment: 'assigned',
        })
        .remove(['pool', 'poolPartition'])
        .composite(poolIndexComposite(order))
        .where(
          ({ status, pool, poolPartition }, { eq, notExists }) =>
            `${eq(status, 'paid')} AND ${poolAsRead(order, { pool, poolPartition }, { eq, notExists })}`,
        )
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'order_claimed',
        description: `${editor.name} started work on the order`,
        actorId: editor.userId,
        metadata: { editorId: editor.userId },
      }),
      counterAdd(e, editorScope(editor.userId), 'activeOrders', 1),
      ...assignmentMoveWrites(e, order, 'assigned'),
      ...poolMoveWrites(e, order, null),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) return null;
    throw error;
  }
  return (await getOrder(orderId))!;
};

export const NO_EDITED_UPLOAD = 'Upload at least one edited photo before completing the order';

/**
 * The assigned editor delivers: in_progress -> completed, once, with the earning booked once, and
 * only with at least one edited file registered (part of the condition, so no race slips past it).
 */
export const completeOrder = async ({
  orderId,
  editorId,
  editorNotes,
}: {
  orderId: string;
  editorId: string;
  editorNotes?: string;
}) => {
  const order = await getOrder(orderId);
  if (!order || order.editorId !== editorId) throw new NotFound('Order not found');
  if (order.status === 'revision_requested') return completeRevision({ order, editorId, editorNotes });
  // The editor's rate per photo, plus each add-on's editor rate per photo it was ticked on.
  const earning = editorEarningCents(order);
  const completedAt = new Date();
  // Delivered after the due time: the lateness and its credit are kept with the delivery (decision 0111).
  const lateness = latenessOf(order.dueAt, order.totalAmountCents, completedAt);
  // For the admin's average turnaround: claim to delivery, summed in seconds beside the count.
  const turnaroundSeconds = order.claimedAt
    ? Math.max(0, Math.round((completedAt.getTime() - Date.parse(order.claimedAt)) / 1000))
    : 0;
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({
          status: 'completed',
          completedAt: completedAt.toISOString(),
          ...(editorNotes ? { editorNotes } : {}),
          ...lateness.attributes,
        })
        .composite({ createdAt: order.createdAt, editorId })
        .where(
          ({ status, editorId: assigned, editorUploadCount }, { eq, gt }) =>
            `${eq(status, 'in_progress')} AND ${eq(assigned, editorId)} AND ${gt(editorUploadCount, 0)}`,
        )
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'order_completed',
        description: 'The editor delivered the edited photos',
        actorId: editorId,
        // The earning and the price, for the platform's take in the admin's Insights.
        metadata: {
          editorId,
          editedCount: order.editorUploadCount,
          earningCents: earning,
          orderAmountCents: order.totalAmountCents,
          turnaroundTier: tierOf(order.turnaroundTier),
          ...lateness.metadata,
        },
      }),
      ...earningBookingWrites(e, order, { editorId, amountCents: earning, completedAt }),
      counterAdd(e, photographerScope(order.photographerId), 'activeOrders', -1),
      counterAdd(e, editorScope(editorId), 'activeOrders', -1),
      counterAdd(e, editorScope(editorId), 'completedOrders', 1),
      counterAdd(e, editorScope(editorId), 'totalEarnings', earning),
      counterAdd(e, editorScope(editorId), 'pendingPayouts', earning),
      counterAdd(e, editorScope(editorId), 'turnaroundSeconds', turnaroundSeconds),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      const now = await getOrder(orderId);
      if (now?.status === 'completed') throw new Conflict('This order has already been completed');
      if (now?.status === 'in_progress' && now.editorUploadCount < 1) throw new Conflict(NO_EDITED_UPLOAD);
      if (now?.status === 'revision_requested') return completeRevision({ order: now, editorId, editorNotes });
      throw new Conflict('Only an order in progress can be completed');
    }
    throw error;
  }
  return (await getOrder(orderId))!;
};

export const NO_REVISED_UPLOAD = 'Upload at least one re-edited photo for this revision before completing the order';

/**
 * The editor re-delivers a revision round: revision_requested -> completed, with at least one
 * edited file registered since the request. The earning, the completed count and the turnaround
 * were booked on the first delivery and are not booked again; only the active counts go back.
 * The order's completedAt stays the first delivery's; the round records when it was re-delivered.
 */
const completeRevision = async ({
  order,
  editorId,
  editorNotes,
}: {
  order: OrderRecord;
  editorId: string;
  editorNotes?: string | undefined;
}) => {
  const { orderId } = order;
  const round = order.revisionCount ?? 0;
  const revision = await getRecord<{ editorUploadsAtRequest?: number; dueAt?: string }>(models.orderRevision, {
    orderId,
    round,
  });
  if (!revision) throw new Conflict('Only an order in progress can be completed');
  const baseline = revision.editorUploadsAtRequest ?? 0;
  if (order.editorUploadCount <= baseline) throw new Conflict(NO_REVISED_UPLOAD);
  const redeliveredAt = new Date();
  const completedAt = redeliveredAt.toISOString();
  // A round is due the tier's hours after it was asked for; rounds asked before tiers have no due time.
  const lateness = latenessOf(revision.dueAt, order.totalAmountCents, redeliveredAt);
  // The earning's window starts again from this delivery (an order older than earnings has none).
  const earning = await getEarning(orderId, { consistent: true });
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({ status: 'completed', ...(editorNotes ? { editorNotes } : {}) })
        .remove(['revisionRequestedAt'])
        .composite({ createdAt: order.createdAt, editorId })
        .where(
          ({ status, editorId: assigned, editorUploadCount, revisionCount }, { eq, gt }) =>
            `${eq(status, 'revision_requested')} AND ${eq(assigned, editorId)} AND ${eq(revisionCount, round)} AND ${gt(editorUploadCount, baseline)}`,
        )
        .commit(),
      e.orderRevision
        .patch({ orderId, round })
        .set({ completedAt, ...lateness.attributes })
        .where(({ completedAt: done }, { notExists }) => notExists(done))
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'order_completed',
        description: `The editor re-delivered the edited photos (revision ${round})`,
        actorId: editorId,
        metadata: {
          editorId,
          editedCount: order.editorUploadCount,
          revisionRound: round,
          turnaroundTier: tierOf(order.turnaroundTier),
          // The round's due time, for the on-time share per tier in the admin's Insights.
          ...(revision.dueAt ? { dueAt: revision.dueAt } : {}),
          ...lateness.metadata,
        },
      }),
      ...earningWindowRestartWrites(e, earning?.holdReason === 'revision' ? earning : null, redeliveredAt),
      counterAdd(e, photographerScope(order.photographerId), 'activeOrders', -1),
      counterAdd(e, editorScope(editorId), 'activeOrders', -1),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      const now = await getOrder(orderId);
      if (now?.status === 'completed') throw new Conflict('This order has already been completed');
      if (now?.status === 'revision_requested' && now.editorUploadCount <= baseline) {
        throw new Conflict(NO_REVISED_UPLOAD);
      }
      throw new Conflict('Only an order in progress can be completed');
    }
    throw error;
  }
  return (await getOrder(orderId))!;
};

/**
 * An edited file the server has seen in S3, counted once. During a revision a file with the name
 * of an earlier edited file replaces it: the earlier record is marked superseded in the same
 * transaction, so the gallery and the rebuilt zip hold the new version only.
 */
export const registerEdited = async (image: VerifiedUpload & { editorId: string }) => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await registerEditedOnce(image);
    } catch (error) {
      // Another file of the same name replaced the same record first: look again.
      if (!(error instanceof ReplacedMeanwhile) || attempt >= 3) throw error;
    }
  }
};

class ReplacedMeanwhile extends Error {}

const registerEditedOnce = async (image: VerifiedUpload & { editorId: string }) => {
  const { order } = image;
  const current = await getOrder(order.orderId);
  const replaced =
    current?.status === 'revision_requested'
      ? (await listImages(order.orderId, 'edited')).filter((i) => i.filename === image.filename && i.key !== image.key)
      : [];
  const status = replaced.length > 0 ? 'revision_requested' : undefined;
  const outcome = await registerOnce(
    'edited',
    image,
    (e) => [
      e.orderImage.create(imageRecord('edited', image, image.editorId)).commit(),
      ...replaced.map((old) =>
        e.orderImage
          .patch({ orderId: order.orderId, kind: 'edited', key: old.key })
          .set({ supersededBy: image.key })
          .where(({ supersededBy }, { notExists }) => notExists(supersededBy))
          .commit(),
      ),
      e.order
        .update({ orderId: order.orderId })
        .add({ editorUploadCount: 1 })
        .where(({ status: now, editorId }, { eq }) =>
          status
            ? `${eq(now, status)} AND ${eq(editorId, image.editorId)}`
            : `(${eq(now, 'in_progress')} OR ${eq(now, 'revision_requested')}) AND ${eq(editorId, image.editorId)}`,
        )
        .commit(),
      outboxWrite(e, {
        orderId: order.orderId,
        eventType: 'edited_image_uploaded',
        description: `Edited file uploaded: ${image.filename}`,
        actorId: image.editorId,
        metadata: {
          key: image.key,
          filename: image.filename,
          size: image.size,
          ...(replaced.length > 0 ? { replaces: replaced.map((old) => old.key) } : {}),
        },
      }),
    ],
    'Edited files can only be added while the order is in progress or back for a revision',
  ).catch(async (error) => {
    // A refusal although the order still takes edits: a record this meant to replace was replaced first.
    const now = await getOrder(order.orderId);
    if (replaced.length > 0 && error instanceof Conflict && now?.status === 'revision_requested') {
      throw new ReplacedMeanwhile();
    }
    throw error;
  });
  return outcome;
};

export const toEventView = (e: {
  eventId: string;
  eventType: string;
  description: string;
  occurredAt: string;
  metadata?: unknown;
}): OrderEventView => ({
  id: e.eventId,
  eventType: e.eventType,
  description: e.description,
  createdAt: e.occurredAt,
  metadata: (e.metadata as Record<string, unknown> | undefined) ?? {},
});

/** An order's activity log in time order (event ids are ULIDs). */
export const listOrderEvents = async (orderId: string) => {
  const events = await queryAll<Parameters<typeof toEventView>[0]>(models.orderEvent, 'byOrder', { orderId });
  return events.map(toEventView);
};
