import type { OrderEventType } from '@marketplace/events/order-events';
import type { UserEventType } from '@marketplace/events/user-events';
import { ulid } from 'ulid';
import { writers } from './direct-writes';
import type { marketplace } from './entities';
import { documentRequests } from './table-requests';

/**
 * Writes that must happen together. ElectroDB reports a cancelled transaction in its result rather
 * than throwing; `commitAll` turns that into an error carrying each item's reason, so a caller
 * can tell "a condition did not hold" (a race lost, a rule broken) from a real failure.
 */
export class TransactionCancelled extends Error {
  /** `reasons` are the codes of the items that failed; `codes` has one per item, 'None' where it held. */
  constructor(
    readonly reasons: readonly string[],
    readonly codes: readonly string[] = reasons,
  ) {
    super(`Transaction cancelled: ${reasons.join(', ')}`);
    this.name = 'TransactionCancelled';
  }

  get conditionFailed() {
    return this.reasons.includes('ConditionalCheckFailed');
  }
}

/**
 * The entities as a transaction's builder sees them, typed as ElectroDB types a transaction's
 * entities; each is its writer (direct-writes.ts), which has every method such a builder calls.
 */
type WriteBuilder = Parameters<ReturnType<typeof marketplace>['transaction']['write']>[0];
type Entities = Parameters<WriteBuilder>[0];

/** Attempts for a transaction that only collided with another one in flight (nothing was applied). */
const COLLISION_ATTEMPTS = 5;

/**
 * Sends the items (each an entity's `commit()`) as one TransactWriteItems, as ElectroDB's Service
 * sends them: nothing when there are none; the code of every item ('None' where it held) when
 * DynamoDB cancelled the transaction, null when it was applied. Sent here rather than through a
 * Service, whose construction over the entities the items use cost every cold write several ms.
 */
const sendTransaction = async (items: readonly unknown[]): Promise<string[] | null> => {
  if (!items.length) return null;
  try {
    await documentRequests.transactWriteItems({ TransactItems: items as Record<string, unknown>[] });
    return null;
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (Array.isArray(reasons)) return reasons.map((reason) => reason.Code ?? 'None');
    throw error;
  }
};

/**
 * Commits the writes as one transaction. DynamoDB cancels a transaction that touches an item
 * another transaction is writing at that moment (TransactionConflict) although no condition
 * failed: the shared counters make that possible between unrelated orders, so such a collision
 * is tried again after a short random pause. A failed condition is final and is reported.
 */
export const commitAll = async (build: WriteBuilder) => {
  for (let attempt = 1; ; attempt += 1) {
    const codes = await sendTransaction(build(writers() as unknown as Entities) as unknown[]);
    if (!codes) return;
    const cancelled = new TransactionCancelled(
      codes.filter((code) => code !== 'None'),
      codes,
    );
    const collidedOnly = cancelled.reasons.length > 0 && cancelled.reasons.every((r) => r === 'TransactionConflict');
    if (!collidedOnly || attempt >= COLLISION_ATTEMPTS) throw cancelled;
    await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
  }
};

/** Outbox records live a day: the stream delivers within seconds; TTL keeps the table small. */
const OUTBOX_TTL_SECONDS = 24 * 60 * 60;

export interface OrderEventInput {
  orderId: string;
  eventType: OrderEventType;
  description: string;
  actorId?: string;
  metadata?: Record<string, unknown>;
}

/** The outbox record of one order event, to commit in the same transaction as the change it describes. */
export const outboxRecord = (event: OrderEventInput, occurredAt = new Date()) => ({
  eventId: ulid(occurredAt.getTime()),
  orderId: event.orderId,
  eventType: event.eventType,
  description: event.description,
  ...(event.actorId ? { actorId: event.actorId } : {}),
  metadata: event.metadata ?? {},
  occurredAt: occurredAt.toISOString(),
  expiresAt: Math.floor(occurredAt.getTime() / 1000) + OUTBOX_TTL_SECONDS,
});

export const outboxWrite = (entities: Entities, event: OrderEventInput) =>
  entities.outboxEvent.create(outboxRecord(event)).commit();

export interface UserEventInput {
  userId: string;
  eventType: UserEventType;
  description: string;
  actorId?: string;
}

/** The outbox record of one change of a user's standing, to commit with the change (see user-events.ts). */
export const userOutboxWrite = (entities: Entities, event: UserEventInput, occurredAt = new Date()) =>
  entities.outboxEvent
    .create({
      eventId: ulid(occurredAt.getTime()),
      userId: event.userId,
      eventType: event.eventType,
      description: event.description,
      ...(event.actorId ? { actorId: event.actorId } : {}),
      occurredAt: occurredAt.toISOString(),
      expiresAt: Math.floor(occurredAt.getTime() / 1000) + OUTBOX_TTL_SECONDS,
    })
    .commit();

/** A counter bumped by `by` in the same transaction as the write it counts. */
export const counterAdd = (entities: Entities, scope: string, name: string, by: number) =>
  entities.counter.update({ scope, name }).add({ value: by }).commit();
