import { type OrderStatus, TURNAROUND_HOURS } from '@marketplace/events/orders';

/** What a photographer pays: distinct photos times the job type's price, in cents. Never the browser's figure. */
export const orderTotalCents = (photoCount: number, jobType: { pricePerPhotoCents: number }) =>
  photoCount * jobType.pricePerPhotoCents;

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
