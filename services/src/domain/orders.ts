import type { OrderStatus } from '@marketplace/events/orders';
import {
  type TierSurcharges,
  type TurnaroundTier,
  tierSurchargeCents,
  turnaroundHours,
  turnaroundTierLabel,
} from '@marketplace/events/turnaround';

/** What a photographer pays: distinct photos times the job type's price, in cents. Never the browser's figure. */
export const orderTotalCents = (photoCount: number, jobType: { pricePerPhotoCents: number }) =>
  photoCount * jobType.pricePerPhotoCents;

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
  totalCents: number;
  lines: PriceLine[];
}

/**
 * THE price of an order, in integer cents, from the job type's prices and the chosen options; the
 * server's figure, never the browser's. Each option adds its lines and its cents here, so the total
 * is always the sum of the lines.
 */
export const priceOrder = ({
  photoCount,
  jobType,
  tier,
}: {
  photoCount: number;
  jobType: { name: string; pricePerPhotoCents: number; tierSurchargeCents?: Partial<TierSurcharges> | null };
  tier: TurnaroundTier;
}): OrderPrice => {
  const baseCents = orderTotalCents(photoCount, jobType);
  const lines: PriceLine[] = [
    {
      kind: 'base',
      label: jobType.name,
      quantity: photoCount,
      unitCents: jobType.pricePerPhotoCents,
      amountCents: baseCents,
    },
  ];
  const surchargePerPhoto = tierSurchargeCents(jobType.tierSurchargeCents, tier);
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
  return { baseCents, surchargeCents, totalCents: baseCents + surchargeCents, lines };
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
