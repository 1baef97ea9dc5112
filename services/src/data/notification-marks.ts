import { workers } from '../workers';
import { isConditionFailure } from './conditional-write';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';

/**
 * Emails go out once per order event, however often the event is delivered. SES takes no
 * idempotency key, so the table remembers: a delivery takes a mark for the event with a
 * conditional write before it sends ('in-progress' with a lease), and sets it 'done' once SES has
 * accepted the email. A delivery that finds 'done', or another delivery's live lease, sends
 * nothing; one that finds an expired lease (its holder crashed between mark and send) takes the
 * mark over, conditional on the lease it read, so only one taker sends.
 */
const SOURCE = 'notification';

const worker = workers.find((w) => w.queue === 'notifications');
/**
 * The lease outlives any holder (the worker's timeout, plus a margin) and runs out before SQS
 * shows the message again (its visibility timeout): a redelivery of a crashed send finds the
 * lease expired and sends, instead of trusting a holder that is gone.
 */
export const NOTIFICATION_LEASE_MS = ((worker?.timeoutSeconds ?? 60) + 30) * 1000;

/** Marks outlive every redelivery: SQS keeps a message at most 14 days. */
const MARK_MEMORY_SECONDS = 15 * 24 * 60 * 60;

const marks = () => writers().processedMessage;

interface MarkRecord {
  state?: 'in-progress' | 'done';
  leaseUntil?: number;
}

export type MarkOutcome =
  /** This delivery holds the mark until `leaseUntil`: send, then `markSent` (or `releaseMark`). */
  | { taken: true; leaseUntil: number }
  /** Sent already, or another delivery is sending it now. */
  | { taken: false; reason: 'done' | 'held' };

const readMark = async (eventId: string) => {
  return getRecord<MarkRecord>(models.processedMessage, { source: SOURCE, messageId: eventId }, { consistent: true });
};

/** Tries to take the mark of this event for one delivery (see above). */
export const takeMark = async (eventId: string, now = Date.now()): Promise<MarkOutcome> => {
  const leaseUntil = now + NOTIFICATION_LEASE_MS;
  const existing = await readMark(eventId);
  if (!existing) {
    try {
      await marks()
        .create({
          source: SOURCE,
          messageId: eventId,
          state: 'in-progress',
          leaseUntil,
          expiresAt: Math.floor(now / 1000) + MARK_MEMORY_SECONDS,
        })
        .go();
      return { taken: true, leaseUntil };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another delivery took it between the read and the write.
      return { taken: false, reason: 'held' };
    }
  }
  // A mark without a state was written by nothing that sends: treat it as done.
  if (existing.state !== 'in-progress') return { taken: false, reason: 'done' };
  if ((existing.leaseUntil ?? 0) > now) return { taken: false, reason: 'held' };
  try {
    await marks()
      .patch({ source: SOURCE, messageId: eventId })
      .set({ leaseUntil })
      .where(
        ({ state, leaseUntil: held }, { eq }) =>
          `${eq(state, 'in-progress')} AND ${eq(held, existing.leaseUntil ?? 0)}`,
      )
      .go();
    return { taken: true, leaseUntil };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { taken: false, reason: 'held' };
  }
};

/** SES accepted the email: no later delivery sends it again. */
export const markSent = async (eventId: string) => {
  await marks().patch({ source: SOURCE, messageId: eventId }).set({ state: 'done' }).go();
};

/** The send failed: give the mark up so the retry SQS makes can take it at once. */
export const releaseMark = async (eventId: string, leaseUntil: number) => {
  try {
    await marks()
      .delete({ source: SOURCE, messageId: eventId })
      .where(({ state, leaseUntil: held }, { eq }) => `${eq(state, 'in-progress')} AND ${eq(held, leaseUntil)}`)
      .go();
  } catch (error) {
    // Someone else holds it now (our lease ran out meanwhile): theirs to finish.
    if (!isConditionFailure(error)) throw error;
  }
};

/** The mark of an event as it stands, for tests and operators. */
export const notificationMark = readMark;
