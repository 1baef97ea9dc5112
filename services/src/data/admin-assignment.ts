import type { BulkAssignResponse, CancelOrderResponse } from '@marketplace/events/admin';
import type { OrderStatus } from '@marketplace/events/orders';
import { logger } from '../adapters/logger';
import { cancelPaymentIntent, refundPayment } from '../adapters/stripe';
import { BadRequest, Conflict, HttpError, NotFound } from '../http/errors';
import { isCancellable, toAdminOrderView } from './admin-order-view';
import { billingEntryWrite, newEntryId, orderBillingEntries } from './billing';
import { assignmentMoveWrites } from './order-assignment';
import { payOrder } from './order-payments';
import { assignedPlace, OPEN_POOL, openPlace, poolAsRead, poolMoveWrites } from './order-pool';
import { getOrder, type OrderRecord, poolIndexComposite } from './orders';
import { commitAll, counterAdd, outboxWrite, TransactionCancelled } from './transactions';
import { getUser, type UserRecord } from './users';

/**
 * The admin's moves on an order: assign it to a verified editor, give it back to the open pool,
 * cancel it (refunding a paid one in full). Each is a conditional write pinning the status and
 * pool it read, in one transaction with its outbox event and counters, so an editor's claim
 * racing it leaves exactly one owner.
 */
export const NOT_A_VERIFIED_EDITOR = 'Only a verified editor can be assigned orders';

const photographerScope = (photographerId: string) => `photographer#${photographerId}`;

/** Simultaneous transactions on one item can cancel each other; the retry reads who won. */
const isCollision = (error: unknown) =>
  error instanceof TransactionCancelled && error.reasons.includes('TransactionConflict');
const isConditionFailed = (error: unknown) => error instanceof TransactionCancelled && error.conditionFailed;

/** Attempts at a write whose condition failed because the order changed between read and write. */
const WRITE_ATTEMPTS = 4;
/** Parallel writes share the assignment counters, so they collide more often than orders change. */
const COLLISION_ATTEMPTS = 10;
const mayRetry = (error: unknown, attempt: number) =>
  (isConditionFailed(error) && attempt < WRITE_ATTEMPTS) || (isCollision(error) && attempt < COLLISION_ATTEMPTS);
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, attempt * 20 + Math.random() * 40));

/** The editor an admin may give orders to: active, holding the editor role, verified. Else a 400. */
export const verifiedEditor = async (editorId: string) => {
  const user = await getUser(editorId);
  if (!user || !user.isActive || !user.roles.includes('editor') || user.status !== 'verified') {
    throw new BadRequest(NOT_A_VERIFIED_EDITOR);
  }
  return user;
};

/** Why an order cannot be assigned now: a short reason for the bulk message and the 409's sentence. */
interface Refusal {
  statusCode: 404 | 409;
  reason: string;
  message: string;
}

const refusedStatus: Record<Exclude<OrderStatus, 'paid'>, Refusal> = {
  in_progress: { statusCode: 409, reason: 'already in progress', message: 'This order is already in progress' },
  pending_payment: {
    statusCode: 409,
    reason: 'awaits payment',
    message: 'Only a paid order can be assigned: this one awaits payment',
  },
  completed: {
    statusCode: 409,
    reason: 'already completed',
    message: 'Only a paid order can be assigned: this one is already completed',
  },
  cancelled: {
    statusCode: 409,
    reason: 'cancelled',
    message: 'Only a paid order can be assigned: this one is cancelled',
  },
  revision_requested: {
    statusCode: 409,
    reason: 'in revision',
    message: 'Only a paid order can be assigned: this one is back with its editor for a revision',
  },
};
const notFound: Refusal = { statusCode: 404, reason: 'not found', message: 'Order not found' };

const refusalError = (refusal: Refusal) =>
  refusal.statusCode === 404 ? new NotFound(refusal.message) : new Conflict(refusal.message);

type AssignOutcome = { assigned: true } | { refusal: Refusal; orderNumber: number | null };

/**
 * Assigns one order to a verified editor, or says why not. Re-assigning a paid order to another
 * editor is allowed; to the same editor it changes nothing.
 */
const tryAssign = async (orderId: string, editor: UserRecord, adminId: string): Promise<AssignOutcome> => {
  for (let attempt = 1; ; attempt += 1) {
    const order = await getOrder(orderId);
    if (!order) return { refusal: notFound, orderNumber: null };
    if (order.status !== 'paid') return { refusal: refusedStatus[order.status], orderNumber: order.orderNumber };
    if (order.pool === editor.userId) return { assigned: true };
    const editorName = editor.displayName ?? editor.email;
    const place = assignedPlace(editor.userId);
    try {
      await commitAll((e) => [
        e.order
          .patch({ orderId })
          .set({
            ...place,
            assignment: 'assigned',
            editorId: editor.userId,
            editorName,
            editorEmail: editor.email,
            assignedAt: new Date().toISOString(),
          })
          // byEditor (gsi4) sorts by status: the key needs it although the status does not change.
          .composite({ ...poolIndexComposite(order), status: order.status })
          .where(
            ({ status, pool, poolPartition }, { eq, notExists }) =>
              `${eq(status, 'paid')} AND ${poolAsRead(order, { pool, poolPartition }, { eq, notExists })}`,
          )
          .commit(),
        outboxWrite(e, {
          orderId,
          eventType: 'order_assigned',
          description: `Assigned to ${editorName} by an admin`,
          actorId: adminId,
          metadata: { editorId: editor.userId, previousEditorId: order.editorId ?? null },
        }),
        ...assignmentMoveWrites(e, order, 'assigned'),
        ...poolMoveWrites(e, order, place),
      ]);
      return { assigned: true };
    } catch (error) {
      if (!mayRetry(error, attempt)) throw error;
      // Claimed, paid for or reassigned meanwhile: read again and judge the order as it is now.
      await pause(attempt);
    }
  }
};

/** PATCH /api/orders/admin/{id}/assign: 400 for a bad editor, 404 unknown order, 409 not assignable. */
export const assignOrder = async ({
  orderId,
  editorId,
  adminId,
}: {
  orderId: string;
  editorId: string;
  adminId: string;
}) => {
  const editor = await verifiedEditor(editorId);
  const outcome = await tryAssign(orderId, editor, adminId);
  if ('refusal' in outcome) throw refusalError(outcome.refusal);
  return (await getOrder(orderId))!;
};

/** How many orders of a bulk assignment are written at once: quick, without a burst of conflicts. */
const BULK_PARALLEL = 8;

const plural = (count: number) => (count === 1 ? 'order' : 'orders');

/** 'Assigned 3 orders.' or 'Assigned 98 of 100 orders. Not assigned: #1042 (already in progress), ...' */
export const bulkAssignMessage = (total: number, notAssigned: BulkAssignResponse['notAssigned']) => {
  const assigned = total - notAssigned.length;
  if (!notAssigned.length) return `Assigned ${assigned} ${plural(assigned)}.`;
  const reasons = notAssigned
    .map(({ orderId, orderNumber, reason }) => `${orderNumber === null ? orderId : `#${orderNumber}`} (${reason})`)
    .join(', ');
  return `Assigned ${assigned} of ${total} ${plural(total)}. Not assigned: ${reasons}.`;
};

/**
 * Assigns each order on its own (the same write as a single assignment), a few at a time, and
 * reports which were not assigned and why. The editor is checked once: a bad one is a 400.
 */
export const bulkAssignOrders = async ({
  orderIds,
  editorId,
  adminId,
}: {
  orderIds: string[];
  editorId: string;
  adminId: string;
}): Promise<BulkAssignResponse> => {
  const editor = await verifiedEditor(editorId);
  const outcomes: { orderId: string; outcome: AssignOutcome }[] = new Array(orderIds.length);
  let next = 0;
  const worker = async () => {
    while (next < orderIds.length) {
      const index = next++;
      const orderId = orderIds[index]!;
      try {
        outcomes[index] = { orderId, outcome: await tryAssign(orderId, editor, adminId) };
      } catch (error) {
        // One order's failure must not hide what happened to the others.
        logger.error('bulk assignment of one order failed', { orderId, error: error as Error });
        outcomes[index] = {
          orderId,
          outcome: {
            refusal: { statusCode: 409, reason: 'could not be saved, please try again', message: '' },
            orderNumber: null,
          },
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_PARALLEL, orderIds.length) }, worker));
  const assigned = outcomes.filter(({ outcome }) => 'assigned' in outcome).map(({ orderId }) => orderId);
  const notAssigned = outcomes.flatMap(({ orderId, outcome }) =>
    'refusal' in outcome ? [{ orderId, orderNumber: outcome.orderNumber, reason: outcome.refusal.reason }] : [],
  );
  return { message: bulkAssignMessage(orderIds.length, notAssigned), assigned, notAssigned };
};

const unassignRefusal: Record<Exclude<OrderStatus, 'paid'>, string> = {
  in_progress: 'This order is in progress and cannot be unassigned',
  pending_payment: 'This order is not assigned',
  completed: 'This order is completed and cannot be unassigned',
  cancelled: 'This order is cancelled and cannot be unassigned',
  revision_requested: 'This order is back with its editor for a revision and cannot be unassigned',
};

/** DELETE /api/orders/admin/{id}/unassign: a paid order offered to one editor goes back to every editor. */
export const unassignOrder = async ({ orderId, adminId }: { orderId: string; adminId: string }) => {
  for (let attempt = 1; ; attempt += 1) {
    const order = await getOrder(orderId);
    if (!order) throw new NotFound('Order not found');
    if (order.status !== 'paid') throw new Conflict(unassignRefusal[order.status]);
    if (order.assignment !== 'assigned' || !order.pool || order.pool === OPEN_POOL) {
      throw new Conflict('This order is not assigned');
    }
    const pool = order.pool;
    const place = openPlace(orderId);
    try {
      await commitAll((e) => [
        e.order
          .patch({ orderId })
          .set({ ...place, assignment: 'unassigned' })
          .remove(['editorId', 'editorName', 'editorEmail', 'assignedAt'])
          .composite({ ...poolIndexComposite(order), status: order.status })
          .where(
            ({ status, pool, poolPartition }, { eq, notExists }) =>
              `${eq(status, 'paid')} AND ${poolAsRead(order, { pool, poolPartition }, { eq, notExists })}`,
          )
          .commit(),
        outboxWrite(e, {
          orderId,
          eventType: 'order_unassigned',
          description: `Unassigned from ${order.editorName ?? order.editorEmail ?? 'its editor'} by an admin`,
          actorId: adminId,
          metadata: { editorId: order.editorId ?? pool },
        }),
        ...assignmentMoveWrites(e, order, 'unassigned'),
        ...poolMoveWrites(e, order, place),
      ]);
      return (await getOrder(orderId))!;
    } catch (error) {
      if (!mayRetry(error, attempt)) throw error;
      await pause(attempt);
    }
  }
};

const cancelRefusal: Partial<Record<OrderStatus, string>> = {
  in_progress: 'This order is in progress and cannot be cancelled',
  completed: 'This order is completed and cannot be cancelled',
  revision_requested: 'This order is back with its editor for a revision and cannot be cancelled',
};

/**
 * Before an unpaid order is cancelled its payment is stopped at Stripe, so the photographer's card
 * form can no longer charge it. A charge that went through first is recorded now ('paid'), and the
 * order is then cancelled as a paid one: refunded.
 */
const stopPayment = async (order: OrderRecord): Promise<'stopped' | 'paid'> => {
  if (!order.stripePaymentIntentId) return 'stopped';
  const outcome = await cancelPaymentIntent(order.stripePaymentIntentId);
  if (outcome.status === 'missing') logger.warn('cancelled order has no payment at Stripe', { orderId: order.orderId });
  if (outcome.status !== 'succeeded') return 'stopped';
  await payOrder({ order, payment: outcome.intent, via: 'webhook' });
  return 'paid';
};

/** Step 1: the order leaves every list and stops counting as active, once. */
const markCancelled = async (order: OrderRecord, adminId: string) => {
  const wasPaid = order.status === 'paid';
  await commitAll((e) => [
    e.order
      .patch({ orderId: order.orderId })
      .set({
        status: 'cancelled',
        cancelledAt: new Date().toISOString(),
        cancelledBy: adminId,
        // Nothing was charged, so nothing is owed back.
        ...(wasPaid ? {} : { refundedAmountCents: 0 }),
      })
      .remove(['pool', 'poolPartition'])
      .composite({ ...poolIndexComposite(order), ...(order.editorId ? { editorId: order.editorId } : {}) })
      // The pool too: an assignment between the read and this write would move the counters elsewhere.
      .where(
        ({ status, pool, poolPartition }, { eq, notExists }) =>
          `${eq(status, order.status)} AND ${poolAsRead(order, { pool, poolPartition }, { eq, notExists })}`,
      )
      .commit(),
    outboxWrite(e, {
      orderId: order.orderId,
      eventType: 'order_cancelled',
      description: wasPaid
        ? `Cancelled by an admin; ${(order.totalAmountCents / 100).toFixed(2)} USD to be refunded`
        : 'Cancelled by an admin before payment',
      actorId: adminId,
      metadata: { previousStatus: order.status, refundDueCents: wasPaid ? order.totalAmountCents : 0 },
    }),
    ...(wasPaid ? [counterAdd(e, photographerScope(order.photographerId), 'activeOrders', -1)] : []),
    ...poolMoveWrites(e, order, null),
  ]);
};

/**
 * Step 2, for a cancelled order that had been paid and has no refund recorded: the whole amount
 * back through Stripe under a key of the order (a retry, or ten admins at once, refund once), then
 * the refund recorded on the order and its payment once.
 */
const refundCancelled = async (order: OrderRecord) => {
  const paymentIntentId = order.stripePaymentIntentId;
  if (!paymentIntentId) throw new Error(`paid order ${order.orderId} has no payment intent`);
  let refund: Awaited<ReturnType<typeof refundPayment>>;
  try {
    refund = await refundPayment({
      paymentIntentId,
      amountCents: order.totalAmountCents,
      idempotencyKey: `refund-${order.orderId}`,
    });
  } catch (error) {
    logger.error('refund failed', { orderId: order.orderId, error: error as Error });
    throw new HttpError(
      502,
      'REFUND_FAILED',
      'The order is cancelled but its refund did not go through. Cancel it again to retry the refund.',
    );
  }
  // The refund's receipt shows the card the payment was made with.
  const paid = (await orderBillingEntries(order.orderId)).find((entry) => entry.kind === 'payment');
  const card = paid?.cardBrand && paid.cardLast4 ? { brand: paid.cardBrand, last4: paid.cardLast4 } : null;
  for (let attempt = 1; ; attempt += 1) {
    const refundedAt = new Date();
    const entryId = newEntryId(refundedAt);
    try {
      await commitAll((e) => [
        e.order
          .patch({ orderId: order.orderId })
          .set({ refundId: refund.id, refundedAmountCents: refund.amount })
          .where(({ status, refundId }, { eq, notExists }) => `${eq(status, 'cancelled')} AND ${notExists(refundId)}`)
          .commit(),
        e.payment.patch({ paymentIntentId }).set({ status: 'refunded', refundId: refund.id }).commit(),
        counterAdd(e, photographerScope(order.photographerId), 'totalSpent', -refund.amount),
        // The billing history's entry, and the event its receipt is made from.
        billingEntryWrite(e, order, {
          entryId,
          kind: 'refund',
          amountCents: refund.amount,
          paymentIntentId,
          refundId: refund.id,
          card,
          occurredAt: refundedAt,
        }),
        outboxWrite(e, {
          orderId: order.orderId,
          eventType: 'order_refunded',
          description: `Refund of ${(refund.amount / 100).toFixed(2)} USD issued`,
          metadata: { paymentIntentId, refundId: refund.id, amountCents: refund.amount, entryId },
        }),
      ]);
      return;
    } catch (error) {
      // Another cancel of the same order recorded the same refund first.
      if (isConditionFailed(error)) return;
      if (!mayRetry(error, attempt)) throw error;
      await pause(attempt);
    }
  }
};

/**
 * POST /api/orders/admin/{id}/cancel: an order nobody is working on is cancelled and, when it had
 * been paid, refunded in full. Cancelling again answers the same; a refund that failed is retried.
 */
export const cancelOrder = async ({
  orderId,
  adminId,
}: {
  orderId: string;
  adminId: string;
}): Promise<CancelOrderResponse> => {
  for (let attempt = 1; ; attempt += 1) {
    const order = await getOrder(orderId);
    if (!order) throw new NotFound('Order not found');
    if (order.status === 'cancelled') break;
    if (!isCancellable(order)) {
      throw new Conflict(cancelRefusal[order.status] ?? 'This order cannot be cancelled');
    }
    // The charge went through before the order knew: read it again, now paid, and cancel that.
    if (order.status === 'pending_payment' && (await stopPayment(order)) === 'paid') continue;
    try {
      await markCancelled(order, adminId);
      break;
    } catch (error) {
      // Paid, claimed or cancelled by someone else meanwhile: judge the order as it is now.
      if (!mayRetry(error, attempt)) throw error;
      await pause(attempt);
    }
  }
  let order = (await getOrder(orderId))!;
  if (order.paidAt && order.refundId === undefined) {
    await refundCancelled(order);
    order = (await getOrder(orderId))!;
  }
  return { order: toAdminOrderView(order), refundedAmountCents: order.refundedAmountCents ?? 0 };
};
