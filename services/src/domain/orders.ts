import { type OrderStatus, TURNAROUND_HOURS } from '@marketplace/events/orders';

/** What a photographer pays: distinct photos times the job type's price, in cents. Never the browser's figure. */
export const orderTotalCents = (photoCount: number, jobType: { pricePerPhotoCents: number }) =>
  priceOrder({ photoCount, pricePerPhotoCents: jobType.pricePerPhotoCents }).totalCents;

/** An add-on as the order keeps it: its name and prices when chosen, and how many photos have it. */
export interface AddOnLine {
  addOnId: string;
  name: string;
  pricePerPhotoCents: number;
  editorRatePerPhotoCents: number;
  photoCount: number;
}

/**
 * The price of an order, in cents, from the server's own figures: the job type's price times the
 * order's photos, plus each add-on's price times the photos it was ticked on. The one place an
 * order is priced (creation, a change of add-ons); the browser's figures are never read.
 */
export const priceOrder = ({
  photoCount,
  pricePerPhotoCents,
  addOns = [],
}: {
  photoCount: number;
  pricePerPhotoCents: number;
  addOns?: readonly AddOnLine[];
}) => {
  const baseCents = photoCount * pricePerPhotoCents;
  const lines = addOns
    .filter((line) => line.photoCount > 0)
    .map((line) => ({ ...line, amountCents: line.photoCount * line.pricePerPhotoCents }));
  const addOnsCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  return { baseCents, addOnsCents, totalCents: baseCents + addOnsCents, lines };
};

/** What the editor earns on delivery: their rate per photo, plus each add-on's editor rate per photo it was on. */
export const editorEarningCents = (order: {
  photoCount: number;
  editorRateCents?: number | undefined;
  addOns?: readonly AddOnLine[] | undefined;
}) =>
  order.photoCount * (order.editorRateCents ?? 0) +
  (order.addOns ?? []).reduce((sum, line) => sum + line.photoCount * line.editorRatePerPhotoCents, 0);

/** The promised turnaround runs from payment. */
export const dueAtFor = (paidAt: Date) => new Date(paidAt.getTime() + TURNAROUND_HOURS * 60 * 60 * 1000);

/** Delivered, cancelled, or delivered and sent back: the first due time no longer applies. */
const finished: readonly OrderStatus[] = ['completed', 'cancelled', 'revision_requested'];

/**
 * Past its due time and not yet delivered (an unpaid order has no due time, so is never late). An
 * order in revision was delivered on time or not already; it is not late by its first due time.
 */
export const isLate = (order: { status: OrderStatus; dueAt?: string | null }, now = new Date()) =>
  !!order.dueAt && !finished.includes(order.status) && new Date(order.dueAt).getTime() < now.getTime();

/** Orders an editor is expected to be working towards: counted as 'active' on the photographer's dashboard. */
export const activeStatuses: readonly OrderStatus[] = ['paid', 'in_progress', 'revision_requested'];
