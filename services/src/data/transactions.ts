import type { OrderEventType } from '@marketplace/events/order-events';
import { ulid } from 'ulid';
import { marketplace } from './entities';

/**
 * Writes that must happen together. ElectroDB reports a cancelled transaction in its result rather
 * than throwing; `commitAll` turns that into an error carrying each item's reason, so a caller
 * can tell "a condition did not hold" (a race lost, a rule broken) from a real failure.
 */
export class TransactionCancelled extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`Transaction cancelled: ${reasons.join(', ')}`);
    this.name = 'TransactionCancelled';
  }

  get conditionFailed() {
    return this.reasons.includes('ConditionalCheckFailed');
  }
}

type WriteBuilder = Parameters<ReturnType<typeof marketplace>['transaction']['write']>[0];
/** The entities as a transaction's builder sees them. */
type Entities = Parameters<WriteBuilder>[0];

export const commitAll = async (build: WriteBuilder) => {
  const result = await marketplace().transaction.write(build).go();
  if (result.canceled) {
    throw new TransactionCancelled(
      (result.data as { code?: string }[]).map((item) => item.code ?? 'None').filter((code) => code !== 'None'),
    );
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

/** A counter bumped by `by` in the same transaction as the write it counts. */
export const counterAdd = (entities: Entities, scope: string, name: string, by: number) =>
  entities.counter.update({ scope, name }).add({ value: by }).commit();
