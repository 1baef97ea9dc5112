import { type OrderStatus, TURNAROUND_HOURS } from '@marketplace/events/orders';

/** What a photographer pays: distinct photos times the job type's price, in cents. Never the browser's figure. */
export const orderTotalCents = (photoCount: number, jobType: { pricePerPhotoCents: number }) =>
  photoCount * jobType.pricePerPhotoCents;

/** The promised turnaround runs from payment. */
export const dueAtFor = (paidAt: Date) => new Date(paidAt.getTime() + TURNAROUND_HOURS * 60 * 60 * 1000);

const finished: readonly OrderStatus[] = ['completed', 'cancelled'];

/** Past its due time and not yet delivered (an unpaid order has no due time, so is never late). */
export const isLate = (order: { status: OrderStatus; dueAt?: string | null }, now = new Date()) =>
  !!order.dueAt && !finished.includes(order.status) && new Date(order.dueAt).getTime() < now.getTime();

/** Orders an editor is expected to be working towards: counted as 'active' on the photographer's dashboard. */
export const activeStatuses: readonly OrderStatus[] = ['paid', 'in_progress'];
