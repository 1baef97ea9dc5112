import { emailKindLabels, isSwitchableEmailKind, type SwitchableEmailKind } from '@marketplace/events/notifications';
import type { OrderEventMessage } from '@marketplace/events/order-events';
import { type EmailMessage, oneClickUnsubscribeHeaders, sendEmail } from '../adapters/email';
import { logger } from '../adapters/logger';
import { unsubscribeKey } from '../adapters/unsubscribe-key';
import { config } from '../config';
import { getRecord, models } from '../data/direct-reads';
import { claimRateCents } from '../data/editor-rates';
import { mutedEmailKinds } from '../data/email-preferences';
import { markSent, releaseMark, takeMark } from '../data/notification-marks';
import { getOrder, type OrderRecord } from '../data/orders';
import { getUser } from '../data/users';
import {
  emailKindOfEvent,
  type NotifiedOrder,
  oneClickUnsubscribeLink,
  orderAssignedEmail,
  orderClaimedEmail,
  photosReadyEmail,
  receiptEmail,
  revisionRequestedEmail,
  type UnsubscribeFooter,
  unsubscribePageLink,
} from '../domain/notification-emails';
import { editorEarningCents } from '../domain/orders';
import { signUnsubscribeToken } from '../domain/unsubscribe-token';
import { orderEventConsumer } from './outbox-message';

/**
 * Emails the photographer and the editor at each step of an order: the outbox records of
 * order_paid, order_claimed, order_completed, order_assigned and revision_requested, forwarded by
 * the event-log worker (see the worker table). Each event's email goes out once however often the
 * record is delivered (data/notification-marks). A message that can never be sent (no order, no
 * recipient) is logged and dropped; a send SES refused is reported so SQS delivers it again.
 */
export const notifyOnce = async (event: OrderEventMessage) => {
  const email = await notificationFor(event);
  if (!email) return 'nothing-to-send' as const;
  if (email === SWITCHED_OFF) return 'switched-off' as const;
  const mark = await takeMark(event.eventId);
  if (!mark.taken) return mark.reason === 'done' ? ('sent-before' as const) : ('being-sent' as const);
  try {
    await sendEmail(email);
  } catch (error) {
    await releaseMark(event.eventId, mark.leaseUntil);
    throw error;
  }
  try {
    await markSent(event.eventId);
  } catch (error) {
    // The email is out: retrying would send it again. Until the lease runs out, no delivery sends.
    logger.error('notification sent but not marked', { eventId: event.eventId, error: error as Error });
  }
  return 'sent' as const;
};

const notifiedOrder = (o: OrderRecord): NotifiedOrder => ({
  orderId: o.orderId,
  orderNumber: o.orderNumber,
  name: o.name ?? null,
  photoCount: o.photoCount,
  jobTypeName: o.jobTypeName,
  totalAmountCents: o.totalAmountCents,
  pricePerPhotoCents: o.pricePerPhotoCents,
  addOns: o.addOns ?? [],
  dueAt: o.dueAt ?? null,
  editingRequirements: o.editingRequirements ?? null,
});

const numberIn = (metadata: Record<string, unknown>, ...names: string[]) => {
  for (const name of names) {
    const value = metadata[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
};

const stringIn = (metadata: Record<string, unknown>, name: string) => {
  const value = metadata[name];
  return typeof value === 'string' && value ? value : undefined;
};

/** The photographer's address and name, from their user record. */
const photographerOf = async (order: OrderRecord) => {
  const user = await getUser(order.photographerId);
  if (!user?.email) return null;
  return { email: user.email, name: user.displayName ?? order.photographerName ?? null };
};

/** An editor's address and name: the order's copy when it is this editor, else their user record. */
const editorOf = async (order: OrderRecord, editorId: string | undefined) => {
  const id = editorId ?? order.editorId;
  if (!id) return null;
  if (id === order.editorId && order.editorEmail) {
    return { userId: id, email: order.editorEmail, name: order.editorName ?? null };
  }
  const user = await getUser(id);
  if (!user?.email) return null;
  return { userId: id, email: user.email, name: user.displayName ?? null };
};

/** The revision round's note and photo notes, from its record (or the event, when it carries them). */
const revisionOf = async (order: OrderRecord, metadata: Record<string, unknown>) => {
  const round = numberIn(metadata, 'round', 'revisionRound') ?? order.revisionCount ?? 0;
  const data = round
    ? await getRecord<{ photoNotes?: unknown; note?: string }>(models.orderRevision, { orderId: order.orderId, round })
    : null;
  const photoNotes = (data?.photoNotes ?? metadata.photoNotes) as unknown;
  return {
    round,
    note: data?.note ?? stringIn(metadata, 'note') ?? '',
    photoNoteCount: Array.isArray(photoNotes) ? photoNotes.length : (numberIn(metadata, 'photoNoteCount') ?? 0),
  };
};

/** The recipient turned this kind of email off. */
const SWITCHED_OFF = 'switched-off' as const;

/**
 * Whether the recipient still wants this kind of email, read now, as the email is about to go
 * out (strongly consistent: a switch turned a moment ago holds), not when the event happened.
 * When they do, the footer link and RFC 8058's one-click headers, with a token naming the
 * account and the kind.
 */
const unsubscribeFor = async (userId: string, kind: SwitchableEmailKind, siteUrl: string) => {
  const muted = await mutedEmailKinds(userId);
  if (muted?.has(kind)) return SWITCHED_OFF;
  const token = signUnsubscribeToken(await unsubscribeKey(), { userId, kind });
  const footer: UnsubscribeFooter = { href: unsubscribePageLink(siteUrl, token), kindLabel: emailKindLabels[kind] };
  return { footer, headers: oneClickUnsubscribeHeaders(oneClickUnsubscribeLink(siteUrl, token)) };
};

/**
 * The email this event sends; null (logged) when there is nobody to send it to; SWITCHED_OFF
 * when its recipient turned this kind of email off.
 */
export const notificationFor = async (event: OrderEventMessage): Promise<EmailMessage | typeof SWITCHED_OFF | null> => {
  const skip = (reason: string) => {
    logger.warn('notification skipped', { eventId: event.eventId, orderId: event.orderId, reason });
    return null;
  };
  const order = await getOrder(event.orderId);
  if (!order) return skip('no such order');
  const siteUrl = config().SITE_URL;
  const facts = notifiedOrder(order);
  const metadata = event.metadata;
  /** The switch, footer and headers of a switchable email; nothing for the receipt. */
  const optOut = async (userId: string) => {
    const kind = emailKindOfEvent[event.eventType as keyof typeof emailKindOfEvent];
    if (!kind || !isSwitchableEmailKind(kind)) return { footer: undefined, headers: undefined };
    return unsubscribeFor(userId, kind, siteUrl);
  };

  switch (event.eventType) {
    case 'order_paid':
    case 'order_claimed':
    case 'order_completed': {
      const photographer = await photographerOf(order);
      if (!photographer) return skip('the photographer has no email address');
      const common = { order: facts, photographerName: photographer.name, siteUrl };
      if (event.eventType === 'order_paid') return { to: photographer.email, ...receiptEmail(common) };
      const unsubscribe = await optOut(order.photographerId);
      if (unsubscribe === SWITCHED_OFF) return SWITCHED_OFF;
      const switchable = { ...common, unsubscribe: unsubscribe.footer };
      const headers = unsubscribe.headers ? { headers: unsubscribe.headers } : {};
      if (event.eventType === 'order_claimed') {
        const editor = await editorOf(order, stringIn(metadata, 'editorId'));
        const editorName = editor?.name ?? order.editorName ?? 'An editor';
        return { to: photographer.email, ...orderClaimedEmail({ ...switchable, editorName }), ...headers };
      }
      // The event says which delivery it was: the order's count may already be a round further.
      const revisionRound = numberIn(metadata, 'revisionRound') ?? 0;
      const editedCount = numberIn(metadata, 'editedCount') ?? order.editorUploadCount;
      return {
        to: photographer.email,
        ...photosReadyEmail({
          ...switchable,
          editedCount,
          revisionRound,
          lateCredit: {
            minutesLate: numberIn(metadata, 'minutesLate') ?? 0,
            creditCents: numberIn(metadata, 'lateCreditCents') ?? 0,
          },
        }),
        ...headers,
      };
    }
    case 'order_assigned': {
      const editor = await editorOf(order, stringIn(metadata, 'editorId'));
      if (!editor) return skip('the assigned editor has no email address');
      // What claiming it now would fix on the order: the editor's rate, else the job type's.
      const unsubscribe = await optOut(editor.userId);
      if (unsubscribe === SWITCHED_OFF) return SWITCHED_OFF;
      // The add-ons' editor rates count too (decision 0109), as delivery books them.
      const earningsCents = editorEarningCents({
        ...order,
        editorRateCents: await claimRateCents(editor.userId, order.jobTypeId),
      });
      return {
        to: editor.email,
        ...orderAssignedEmail({
          order: facts,
          editorName: editor.name,
          siteUrl,
          earningsCents,
          unsubscribe: unsubscribe.footer,
        }),
        ...(unsubscribe.headers ? { headers: unsubscribe.headers } : {}),
      };
    }
    case 'revision_requested': {
      const editor = await editorOf(order, order.editorId);
      if (!editor) return skip('the order has no editor with an email address');
      const unsubscribe = await optOut(editor.userId);
      if (unsubscribe === SWITCHED_OFF) return SWITCHED_OFF;
      const revision = await revisionOf(order, metadata);
      return {
        to: editor.email,
        ...revisionRequestedEmail({
          order: facts,
          editorName: editor.name,
          siteUrl,
          ...revision,
          unsubscribe: unsubscribe.footer,
        }),
        ...(unsubscribe.headers ? { headers: unsubscribe.headers } : {}),
      };
    }
    default:
      return skip(`no email for ${event.eventType}`);
  }
};

export const handler = orderEventConsumer('sending a notification', notifyOnce);
