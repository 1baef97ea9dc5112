import { type TurnaroundTier, turnaroundTierLabel } from '@marketplace/events/turnaround';
import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { MARKETPLACE_NAME } from './invitation-email';

/**
 * A payment's or a refund's receipt as a one-page PDF (A4), from the facts its billing entry
 * holds. The same facts make the same bytes: the document's dates are the payment's, so a receipt
 * made again is the receipt made before.
 */
export interface ReceiptFacts {
  kind: 'payment' | 'refund';
  receiptNumber: string;
  orderNumber: number;
  orderName?: string | null;
  jobTypeName: string;
  photoCount: number;
  pricePerPhotoCents: number;
  /** The add-ons as priced on the order (decision 0109), a line each. */
  addOns?: readonly { name: string; photoCount: number; pricePerPhotoCents: number }[];
  orderTotalCents: number;
  amountCents: number;
  /** Refunds of this order up to and including this receipt's, in cents. */
  refundedCents: number;
  occurredAt: string;
  cardBrand?: string | null;
  cardLast4?: string | null;
  /** A late-delivery credit's words ('Delivered 3 h late: $2.40 credited'); absent on other receipts. */
  creditNote?: string | null;
  /** The turnaround tier's surcharge per photo (Express, Rush); absent for Standard. */
  surcharge?: { tier: TurnaroundTier; perPhotoCents: number } | null;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const brandNames: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };
const cardText = (brand?: string | null, last4?: string | null) => {
  const name = brand ? (brandNames[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1)) : 'Card';
  return last4 ? `${name} ending in ${last4}` : name;
};

const receiptDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(iso));

/**
 * The standard PDF fonts encode WinAnsi only: an order name in another script would make pdf-lib
 * throw, so such characters print as '?' (the order number beside it still says which order).
 */
const printable = (font: PDFFont, text: string) =>
  [...text.normalize('NFC')]
    .map((char) => {
      try {
        font.encodeText(char);
        return char;
      } catch {
        return '?';
      }
    })
    .join('')
    .replace(/[\r\n\t]+/g, ' ');

export const receiptPdf = async (facts: ReceiptFacts): Promise<Uint8Array> => {
  const document = await PDFDocument.create();
  const at = new Date(facts.occurredAt);
  const title = facts.kind === 'refund' ? 'Refund receipt' : 'Receipt';
  document.setTitle(`${title} for order #${facts.orderNumber}`);
  document.setAuthor(MARKETPLACE_NAME);
  document.setProducer(MARKETPLACE_NAME);
  document.setCreator(MARKETPLACE_NAME);
  document.setCreationDate(at);
  document.setModificationDate(at);
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const page = document.addPage([595.28, 841.89]);
  const left = 56;
  const valueX = 250;
  const dark = rgb(0.12, 0.12, 0.14);
  const grey = rgb(0.4, 0.4, 0.45);
  let y = 780;

  const line = (text: string, { font = regular, size = 11, x = left, color = dark } = {}) =>
    page.drawText(printable(font, text), { x, y, size, font, color, maxWidth: 595.28 - x - left });
  const row = (label: string, value: string, strong = false) => {
    line(label, { color: grey });
    line(value, { x: valueX, font: strong ? bold : regular });
    y -= 20;
  };

  line(MARKETPLACE_NAME, { font: bold, size: 20 });
  y -= 30;
  line(title, { font: bold, size: 15 });
  y -= 18;
  line(`Receipt number ${facts.receiptNumber}`, { color: grey, size: 10 });
  y -= 32;

  row('Date', receiptDate(facts.occurredAt));
  row('Order number', `#${facts.orderNumber}`);
  if (facts.orderName?.trim()) row('Order name', facts.orderName.trim());
  row('Service', facts.jobTypeName);
  row('Distinct photos', String(facts.photoCount));
  row('Price per photo', dollars(facts.pricePerPhotoCents));
  for (const line of facts.addOns ?? []) {
    row(
      line.name,
      `${line.photoCount} × ${dollars(line.pricePerPhotoCents)} = ${dollars(line.photoCount * line.pricePerPhotoCents)}`,
    );
  }
  if (facts.surcharge) {
    row('Turnaround', turnaroundTierLabel[facts.surcharge.tier]);
    row('Surcharge per photo', dollars(facts.surcharge.perPhotoCents));
  }
  row('Order total', dollars(facts.orderTotalCents), true);
  y -= 8;
  page.drawLine({ start: { x: left, y: y + 8 }, end: { x: 595.28 - left, y: y + 8 }, thickness: 0.5, color: grey });
  y -= 12;
  if (facts.kind === 'payment') {
    row('Amount paid', dollars(facts.amountCents), true);
  } else {
    row('Amount paid', dollars(facts.orderTotalCents));
    if (facts.creditNote) row('Late delivery credit', facts.creditNote);
    row('Refunded', dollars(facts.amountCents), true);
    row('Net paid', dollars(facts.orderTotalCents - facts.refundedCents), true);
  }
  row(facts.kind === 'refund' ? 'Refunded to' : 'Paid with', cardText(facts.cardBrand, facts.cardLast4));
  row('Currency', 'USD');
  y -= 24;
  line(
    facts.kind === 'refund'
      ? 'The refund goes back to the card the order was paid with; banks usually show it within 5 to 10 days.'
      : 'Thank you for your order. Keep this receipt for your records.',
    { color: grey, size: 10 },
  );
  return document.save({ useObjectStreams: false });
};
