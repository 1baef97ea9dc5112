import type { AdminOrderView } from '@marketplace/events/admin';
import { type OrderRecord, toSummaryView } from './orders';

/** Orders an admin may still cancel: nobody is working on them and nothing has been delivered. */
export const isCancellable = (o: Pick<OrderRecord, 'status'>) => o.status === 'pending_payment' || o.status === 'paid';

/** Paid and waiting for an editor to start: the only orders an admin may assign or reassign. */
export const isAssignable = (o: Pick<OrderRecord, 'status'>) => o.status === 'paid';

/** One row of the admin's order table, with what the server will allow on it now. */
export const toAdminOrderView = (o: OrderRecord, now = new Date()): AdminOrderView => ({
  ...toSummaryView(o, now),
  photographerId: o.photographerId,
  photographer: { id: o.photographerId, display_name: o.photographerName, photographer_name: o.photographerName },
  editorId: o.editorId ?? null,
  editor: o.editorId
    ? {
        id: o.editorId,
        display_name: o.editorName ?? o.editorEmail ?? '',
        editor_name: o.editorName ?? o.editorEmail ?? '',
      }
    : null,
  assignment: o.assignment,
  assignedAt: o.assignedAt ?? null,
  cancelledAt: o.cancelledAt ?? null,
  refundedAmountCents: o.refundedAmountCents ?? null,
  canAssign: isAssignable(o),
  canUnassign: isAssignable(o) && o.assignment === 'assigned',
  canCancel: isCancellable(o),
});
