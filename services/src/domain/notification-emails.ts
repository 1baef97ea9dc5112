import type { EmailKind } from '@marketplace/events/notifications';
import type { OrderEventType } from '@marketplace/events/order-events';
import { lateCreditText } from '@marketplace/events/turnaround';
import { MARKETPLACE_NAME } from './invitation-email';
import { utcDateTimeText } from './utc-date-text';

/**
 * The emails the notification worker sends at each step of an order, as pure functions: each
 * returns a subject, a plain-text body and an HTML body saying the same thing, with the order
 * number in the subject and a last line saying why the person receives it.
 */

/**
 * Which kind of email each order event sends (events/src/notifications.ts): the receipt always
 * goes out; the others are switched by their recipient and carry an unsubscribe link.
 */
export const emailKindOfEvent = {
  order_paid: 'payment_receipt',
  order_claimed: 'editor_started',
  order_completed: 'photos_ready',
  order_assigned: 'order_assigned',
  revision_requested: 'revision_requested',
} as const satisfies Partial<Record<OrderEventType, EmailKind>>;

/** The web page an unsubscribe link opens: it says which email and turns it off with one press. */
export const unsubscribePageLink = (siteUrl: string, token: string) =>
  siteLink(siteUrl, `unsubscribe?token=${encodeURIComponent(token)}`);

/** RFC 8058's one-click endpoint: the mailbox provider POSTs `List-Unsubscribe=One-Click` to it. */
export const oneClickUnsubscribeLink = (siteUrl: string, token: string) =>
  siteLink(siteUrl, `api/unsubscribe?token=${encodeURIComponent(token)}`);

/** A switchable email's footer link: the page that turns this kind off. */
export interface UnsubscribeFooter {
  href: string;
  kindLabel: string;
}

/** The order as the emails show it. */
export interface NotifiedOrder {
  orderId: string;
  orderNumber: number;
  name?: string | null;
  photoCount: number;
  jobTypeName: string;
  totalAmountCents: number;
  pricePerPhotoCents: number;
  /** The add-ons as priced on the order (decision 0109). */
  addOns?: readonly { name: string; photoCount: number; pricePerPhotoCents: number }[];
  dueAt?: string | null;
  editingRequirements?: string | null;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// UTC, so the time in the email is the same wherever the function runs.
export const emailTime = (iso: string) => utcDateTimeText(new Date(iso));

const siteLink = (siteUrl: string, path: string) =>
  new URL(path, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).toString();

/** The photographer's order page (where the edited photos are downloaded). */
export const photographerOrderLink = (siteUrl: string, orderId: string) =>
  siteLink(siteUrl, `orders/${encodeURIComponent(orderId)}`);

/** The editor's dashboard: an order assigned to them waits there to be claimed. */
export const editorDashboardLink = (siteUrl: string) => siteLink(siteUrl, 'editor');

/** The editor's page of an order they work on (claimed, or back for a revision). */
export const editorOrderLink = (siteUrl: string, orderId: string) =>
  siteLink(siteUrl, `editor/orders/${encodeURIComponent(orderId)}`);

const REQUIREMENTS_EXCERPT = 300;

/** The first few hundred characters of a long text, cut at a word where possible. */
export const excerpt = (text: string, max = REQUIREMENTS_EXCERPT) => {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
};

/** A block of an email's body: a paragraph, a list of facts, or a quoted text someone wrote. */
type Block =
  | { paragraph: string }
  | { facts: readonly (readonly [label: string, value: string])[] }
  | { quote: string };

interface Email {
  subject: string;
  greeting: string;
  blocks: readonly Block[];
  link: { href: string; label: string };
  reason: string;
  /** Only on emails the recipient may switch off. */
  unsubscribe?: UnsubscribeFooter | undefined;
}

const textOf = (block: Block) => {
  if ('paragraph' in block) return block.paragraph;
  if ('facts' in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n');
  return block.quote
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
};

const htmlOf = (block: Block) => {
  if ('paragraph' in block) return `    <p>${escapeHtml(block.paragraph)}</p>`;
  if ('facts' in block) {
    const rows = block.facts.map(
      ([label, value]) =>
        `      <tr><th align="left" style="padding: 2px 16px 2px 0; font-weight: normal; color: #666">${escapeHtml(label)}</th><td style="padding: 2px 0">${escapeHtml(value)}</td></tr>`,
    );
    return `    <table role="presentation" style="border-collapse: collapse">\n${rows.join('\n')}\n    </table>`;
  }
  return `    <blockquote style="margin: 0 0 1em; padding: 4px 12px; border-left: 3px solid #ccc; white-space: pre-wrap">${escapeHtml(block.quote)}</blockquote>`;
};

const render = (email: Email) => {
  const text = [
    email.greeting,
    '',
    ...email.blocks.flatMap((block) => [textOf(block), '']),
    `${email.link.label}:`,
    email.link.href,
    '',
    '--',
    email.reason,
    ...(email.unsubscribe
      ? [`Unsubscribe from “${email.unsubscribe.kindLabel}” emails: ${email.unsubscribe.href}`]
      : []),
  ].join('\n');

  const html = `<!doctype html>
<html>
  <body style="font-family: Arial, sans-serif; color: #222; line-height: 1.5">
    <p>${escapeHtml(email.greeting)}</p>
${email.blocks.map(htmlOf).join('\n')}
    <p><a href="${escapeHtml(email.link.href)}">${escapeHtml(email.link.label)}</a></p>
    <p>Or paste this link into your browser:<br>${escapeHtml(email.link.href)}</p>
    <hr style="border: none; border-top: 1px solid #ddd">
    <p style="color: #666; font-size: 13px">${escapeHtml(email.reason)}</p>
${
  email.unsubscribe
    ? `    <p style="color: #666; font-size: 13px">Don't want “${escapeHtml(email.unsubscribe.kindLabel)}” emails? <a href="${escapeHtml(email.unsubscribe.href)}">Unsubscribe</a></p>\n`
    : ''
}  </body>
</html>`;

  return { subject: email.subject, text, html };
};

const hello = (name: string | null | undefined) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,');

/** "Order #1042" or "Order #1042 (Smith kitchen)": the number always, the name when there is one. */
const orderTitle = (order: NotifiedOrder) =>
  order.name?.trim() ? `Order #${order.orderNumber} (${order.name.trim()})` : `Order #${order.orderNumber}`;

const photos = (count: number) => `${count} photo${count === 1 ? '' : 's'}`;

const photographerReason = (order: NotifiedOrder) =>
  `You are receiving this because you placed order #${order.orderNumber} on ${MARKETPLACE_NAME}.`;

const editorReason = (order: NotifiedOrder) =>
  `You are receiving this because you are the editor of order #${order.orderNumber} on ${MARKETPLACE_NAME}.`;

const dueFact = (order: NotifiedOrder) => (order.dueAt ? [['Due', emailTime(order.dueAt)] as const] : []);

interface ToPhotographer {
  order: NotifiedOrder;
  photographerName?: string | null;
  siteUrl: string;
  /** The footer's unsubscribe link; never on the receipt, which always goes out. */
  unsubscribe?: UnsubscribeFooter | undefined;
}

/** order_paid: the photographer's receipt. */
export const receiptEmail = ({ order, photographerName, siteUrl }: ToPhotographer) =>
  render({
    subject: `Receipt for order #${order.orderNumber}: ${dollars(order.totalAmountCents)} paid`,
    greeting: hello(photographerName),
    blocks: [
      { paragraph: `Thank you: we received your payment for ${orderTitle(order)}.` },
      {
        facts: [
          ['Order', `#${order.orderNumber}`],
          ...(order.name?.trim() ? [['Name', order.name.trim()] as const] : []),
          ['Job type', order.jobTypeName],
          ['Photos', String(order.photoCount)],
          ['Price per photo', dollars(order.pricePerPhotoCents)],
          ...(order.addOns ?? []).map(
            (line) =>
              [
                line.name,
                `${dollars(line.pricePerPhotoCents)} × ${photos(line.photoCount)} = ${dollars(line.pricePerPhotoCents * line.photoCount)}`,
              ] as const,
          ),
          ['Total paid', dollars(order.totalAmountCents)],
          ...dueFact(order),
        ],
      },
      {
        paragraph: order.dueAt
          ? `An editor will deliver your edited photos by ${emailTime(order.dueAt)}. We will email you when an editor starts and when your photos are ready.`
          : 'We will email you when an editor starts and when your photos are ready.',
      },
      { paragraph: "Your PDF receipt is on the order's page: open the order and choose 'Download receipt'." },
    ],
    link: { href: photographerOrderLink(siteUrl, order.orderId), label: 'View your order' },
    reason: photographerReason(order),
  });

/** order_claimed: an editor started on the photographer's order. */
export const orderClaimedEmail = ({
  order,
  photographerName,
  siteUrl,
  editorName,
  unsubscribe,
}: ToPhotographer & { editorName: string }) =>
  render({
    subject: `Order #${order.orderNumber}: ${editorName} has started editing`,
    greeting: hello(photographerName),
    blocks: [
      {
        paragraph: `${editorName} has started editing the ${photos(order.photoCount)} of ${orderTitle(order)}.`,
      },
      {
        facts: [
          ['Editor', editorName],
          ['Job type', order.jobTypeName],
          ['Photos', String(order.photoCount)],
          ...dueFact(order),
        ],
      },
      { paragraph: 'We will email you again as soon as your edited photos are ready.' },
    ],
    link: { href: photographerOrderLink(siteUrl, order.orderId), label: 'Follow your order' },
    reason: photographerReason(order),
    unsubscribe,
  });

/** order_completed: the edited photos are ready to download; again after each revision round. */
export const photosReadyEmail = ({
  order,
  photographerName,
  siteUrl,
  editedCount,
  revisionRound,
  lateCredit,
  unsubscribe,
}: ToPhotographer & {
  editedCount?: number | null;
  revisionRound?: number | null;
  /** The delivery came after its due time: its credit (decision 0111). */
  lateCredit?: { minutesLate: number; creditCents: number } | null;
}) => {
  const revised = !!revisionRound && revisionRound > 0;
  return render({
    subject: revised
      ? `Order #${order.orderNumber}: your revised photos are ready (revision ${revisionRound})`
      : `Order #${order.orderNumber}: your edited photos are ready`,
    greeting: hello(photographerName),
    blocks: [
      {
        paragraph: revised
          ? `Your editor has re-delivered ${orderTitle(order)} after revision round ${revisionRound}. Your revised photos are ready.`
          : `Your edited photos for ${orderTitle(order)} are ready.`,
      },
      {
        facts: [
          ['Order', `#${order.orderNumber}`],
          ...(editedCount ? [['Edited files', String(editedCount)] as const] : []),
          ['Job type', order.jobTypeName],
          ...(lateCredit && lateCredit.creditCents > 0 ? [['Late delivery', lateCreditText(lateCredit)] as const] : []),
        ],
      },
      {
        paragraph: 'Open your order to see them, compare each one with its original, and download them all as one zip.',
      },
    ],
    link: { href: photographerOrderLink(siteUrl, order.orderId), label: 'Download your edited photos' },
    reason: photographerReason(order),
    unsubscribe,
  });
};

interface ToEditor {
  order: NotifiedOrder;
  editorName?: string | null;
  siteUrl: string;
  unsubscribe?: UnsubscribeFooter | undefined;
}

/** order_assigned: an admin gave the order to this editor. */
export const orderAssignedEmail = ({
  order,
  editorName,
  siteUrl,
  earningsCents,
  unsubscribe,
}: ToEditor & { earningsCents?: number | null }) =>
  render({
    subject: `Order #${order.orderNumber} has been assigned to you`,
    greeting: hello(editorName),
    blocks: [
      {
        paragraph: `An admin assigned order #${order.orderNumber} to you. It waits for you among the available orders on your dashboard: claim it there to start editing.`,
      },
      {
        facts: [
          ['Order', `#${order.orderNumber}`],
          ['Job type', order.jobTypeName],
          ['Photos', String(order.photoCount)],
          ...(earningsCents !== null && earningsCents !== undefined
            ? [['Potential earnings', dollars(earningsCents)] as const]
            : []),
          ...dueFact(order),
        ],
      },
      ...(order.editingRequirements?.trim()
        ? [{ paragraph: 'Requirements:' }, { quote: excerpt(order.editingRequirements) }]
        : [{ paragraph: 'The photographer gave no special requirements.' }]),
    ],
    link: { href: editorDashboardLink(siteUrl), label: 'Open your dashboard' },
    reason: editorReason(order),
    unsubscribe,
  });

/** revision_requested: the photographer sent the order back to its editor. */
export const revisionRequestedEmail = ({
  order,
  editorName,
  siteUrl,
  round,
  note,
  photoNoteCount,
  unsubscribe,
}: ToEditor & { round: number; note: string; photoNoteCount: number }) =>
  render({
    subject: `Order #${order.orderNumber}: revision ${round} requested`,
    greeting: hello(editorName),
    blocks: [
      { paragraph: `The photographer asked for revision round ${round} of order #${order.orderNumber}. Their note:` },
      { quote: note.trim() || '(no note)' },
      {
        paragraph:
          photoNoteCount > 0
            ? `They also left notes on ${photos(photoNoteCount)}. You will find them beside each photo on the order page.`
            : 'They left no notes on individual photos.',
      },
      { paragraph: 'Upload the corrected files and complete the order again when you are done.' },
    ],
    link: { href: editorOrderLink(siteUrl, order.orderId), label: 'Open the order' },
    reason: editorReason(order),
    unsubscribe,
  });
