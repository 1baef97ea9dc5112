import type { OrderStatus } from '@marketplace/events/orders';
import {
  type TierSurcharges,
  type TurnaroundTier,
  tierSurchargeCents,
  turnaroundHours,
  turnaroundTierLabel,
} from '@marketplace/events/turnaround';

/** An add-on as the order keeps it: its name and prices when chosen, and how many photos have it. */
export interface AddOnLine {
  addOnId: string;
  name: string;
  pricePerPhotoCents: number;
  editorRatePerPhotoCents: number;
  photoCount: number;
}

/** What the editor earns on delivery: their rate per photo, plus each add-on's editor rate per photo it was on. */
export const editorEarningCents = (order: {
  photoCount: number;
  editorRateCents?: number | undefined;
  addOns?: readonly AddOnLine[] | undefined;
}) =>
  order.photoCount * (order.editorRateCents ?? 0) +
  (order.addOns ?? []).reduce((sum, line) => sum + line.photoCount * line.editorRatePerPhotoCents, 0);

/** One line of an order's price, as the summary and the receipt list them. */
export interface PriceLine {
  kind: 'base' | 'surcharge';
  label: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}

export interface OrderPrice {
  baseCents: number;
  surchargeCents: number;
  addOnsCents: number;
  totalCents: number;
  /** The base price and the tier's surcharge. */
  lines: PriceLine[];
  /** Each add-on on at least one photo: its photos times its price. */
  addOnLines: (AddOnLine & { amountCents: number })[];
}

/**
 * THE price of an order, in integer cents, from the server's own figures; never the browser's:
 * the job type's price times the distinct photos, the tier's surcharge times the photos, and each
 * add-on's price times the photos it was ticked on (decisions 0109 and 0110). At creation the
 * surcharge comes from the job type; when add-ons change later it is the one the order kept, so a
 * job type changed meanwhile does not reprice the order.
 */
export const priceOrder = ({
  photoCount,
  jobType,
  tier = 'standard',
  surchargePerPhotoCents,
  addOns = [],
}: {
  photoCount: number;
  jobType: { name: string; pricePerPhotoCents: number; tierSurchargeCents?: Partial<TierSurcharges> | null };
  tier?: TurnaroundTier;
  surchargePerPhotoCents?: number;
  addOns?: readonly AddOnLine[];
}): OrderPrice => {
  const baseCents = photoCount * jobType.pricePerPhotoCents;
  const lines: PriceLine[] = [
    {
      kind: 'base',
      label: jobType.name,
      quantity: photoCount,
      unitCents: jobType.pricePerPhotoCents,
      amountCents: baseCents,
    },
  ];
  const surchargePerPhoto = surchargePerPhotoCents ?? tierSurchargeCents(jobType.tierSurchargeCents, tier);
  const surchargeCents = photoCount * surchargePerPhoto;
  if (surchargeCents > 0) {
    lines.push({
      kind: 'surcharge',
      label: turnaroundTierLabel[tier],
      quantity: photoCount,
      unitCents: surchargePerPhoto,
      amountCents: surchargeCents,
    });
  }
  const addOnLines = addOns
    .filter((line) => line.photoCount > 0)
    .map((line) => ({ ...line, amountCents: line.photoCount * line.pricePerPhotoCents }));
  const addOnsCents = addOnLines.reduce((sum, line) => sum + line.amountCents, 0);
  return {
    baseCents,
    surchargeCents,
    addOnsCents,
    totalCents: baseCents + surchargeCents + addOnsCents,
    lines,
    addOnLines,
  };
};

const HOUR_MS = 60 * 60 * 1000;

/** The tier's turnaround runs from payment (Standard: the spec's 48 hours). */
export const dueAtFor = (paidAt: Date, tier: TurnaroundTier = 'standard') =>
  new Date(paidAt.getTime() + turnaroundHours[tier] * HOUR_MS);

/** A revision round is due the tier's hours after the photographer asked for it. */
export const revisionDueAtFor = (requestedAt: Date, tier: TurnaroundTier = 'standard') =>
  new Date(requestedAt.getTime() + turnaroundHours[tier] * HOUR_MS);

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
