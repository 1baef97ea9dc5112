import { marshall } from '@aws-sdk/util-dynamodb';
import type { OrderEventType } from '@marketplace/events/order-events';
import { publish } from '../adapters/queue-publisher';
import { marketplace } from '../data/entities';
import { ENTITY_ATTRIBUTE, OUTBOX_ENTITY } from '../pipes';
import { workers } from '../workers';
import { OpsError } from './roles';

/**
 * `npm run ops -- notifications <order id>` and `resend-notification <order id> <event type>`:
 * the emails of an order's steps as the notification worker marked them, and one sent again.
 * Each email goes out once per order event: the worker takes a mark for the event before sending
 * and sets it `done` once SES has accepted the email (data/notification-marks.ts). An email SES
 * accepted but that never arrived (a bounce, a spam folder) is `done` and no redelivery sends it
 * again; resending clears that mark and gives the worker the event once more.
 */
const NOTIFICATION_SOURCE = 'notification';

/** The events the notification worker emails about (its forwarded events in the worker table). */
export const notifyingEvents = (workers.find((w) => w.queue === 'notifications')?.forwardedEvents ??
  []) as readonly OrderEventType[];

export interface NotificationState {
  eventId: string;
  eventType: string;
  occurredAt: string;
  /** sent: SES accepted it; sending: a delivery holds the mark now; none: not sent (yet). */
  mark: 'sent' | 'sending' | 'none';
  markedAt: string | null;
}

const marks = () => marketplace().entities.processedMessage;

export const orderNotifications = async (orderId: string): Promise<NotificationState[]> => {
  const { data: events } = await marketplace().entities.orderEvent.query.byOrder({ orderId }).go({ pages: 'all' });
  if (!events.length) throw new OpsError(`No order ${orderId}, or it has no events yet`);
  const notifying = events.filter((e) => notifyingEvents.includes(e.eventType as OrderEventType));
  return Promise.all(
    notifying.map(async (event) => {
      const { data } = await marks()
        .get({ source: NOTIFICATION_SOURCE, messageId: event.eventId })
        .go({ consistent: true });
      const mark = data as { state?: string; updatedAt?: string } | null;
      return {
        eventId: event.eventId,
        eventType: event.eventType,
        occurredAt: event.occurredAt,
        mark: !mark ? 'none' : mark.state === 'in-progress' ? 'sending' : 'sent',
        markedAt: mark?.updatedAt ?? null,
      };
    }),
  );
};

/**
 * Sends the email of an order's newest event of this type again: its mark is cleared and the
 * event goes to the notification worker's queue as the outbox's stream record, the message the
 * event-log worker forwards. Refused while a delivery holds the mark (it is being sent now).
 */
export const resendNotification = async (orderId: string, eventType: string) => {
  if (!notifyingEvents.includes(eventType as OrderEventType)) {
    throw new OpsError(`No email is sent for ${eventType}: the notifying events are ${notifyingEvents.join(', ')}`);
  }
  const { data: events } = await marketplace().entities.orderEvent.query.byOrder({ orderId }).go({ pages: 'all' });
  // Event ids are ULIDs: the last is the newest.
  const event = events.filter((e) => e.eventType === eventType).at(-1);
  if (!event) throw new OpsError(`Order ${orderId} has no ${eventType} event`);
  const { data: mark } = await marks()
    .get({ source: NOTIFICATION_SOURCE, messageId: event.eventId })
    .go({ consistent: true });
  if ((mark as { state?: string } | null)?.state === 'in-progress') {
    throw new OpsError(`The ${eventType} email of order ${orderId} is being sent right now: look again in a minute`);
  }
  await marks().delete({ source: NOTIFICATION_SOURCE, messageId: event.eventId }).go();
  const streamRecord = {
    eventName: 'INSERT',
    dynamodb: {
      NewImage: marshall(
        {
          [ENTITY_ATTRIBUTE]: OUTBOX_ENTITY,
          eventId: event.eventId,
          orderId: event.orderId,
          eventType: event.eventType,
          description: event.description,
          actorId: event.actorId,
          metadata: event.metadata ?? {},
          occurredAt: event.occurredAt,
        },
        { removeUndefinedValues: true },
      ),
    },
  };
  await publish('notifications', [streamRecord]);
  return { eventId: event.eventId, eventType: event.eventType, wasMarked: Boolean(mark) };
};
