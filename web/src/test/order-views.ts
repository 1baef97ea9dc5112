import type { OrderDetailView, OrderSummaryView } from '@marketplace/events/orders';

/** An order as the photographer's lists show it: paid three photos, not yet picked up. */
export const anOrderSummary = (fields: Partial<OrderSummaryView> = {}): OrderSummaryView => ({
  id: 'order-1',
  orderNumber: 1,
  name: null,
  status: 'paid',
  photoCount: 3,
  totalAmountCents: 1500,
  createdAt: '2025-03-05T10:00:00.000Z',
  editingRequirements: null,
  jobTypeName: 'Photo Enhancement',
  claimedAt: null,
  paidAt: '2025-03-05T10:05:00.000Z',
  completedAt: null,
  dueAt: '2025-03-07T10:05:00.000Z',
  turnaroundTier: 'standard',
  isLate: false,
  photographerRating: null,
  addOns: [],
  ...fields,
});

/** An order as its detail page shows it. */
export const anOrderDetail = (fields: Partial<OrderDetailView> = {}): OrderDetailView => ({
  ...anOrderSummary(),
  jobTypeId: 'job-type-1',
  pricePerPhotoCents: 500,
  surchargePerPhotoCents: 0,
  lateCredits: [],
  assignedAt: null,
  editor: null,
  editorNotes: null,
  photographerUploadCount: 3,
  editorUploadCount: 0,
  stripePaymentIntentId: 'pi_1',
  revisions: [],
  canRequestRevision: false,
  revisionUnavailableReason: null,
  editingStyle: null,
  ...fields,
});

/** A completed order: claimed, edited and delivered by Erin. */
export const aCompletedOrderDetail = (fields: Partial<OrderDetailView> = {}): OrderDetailView =>
  anOrderDetail({
    status: 'completed',
    assignedAt: '2025-03-05T12:00:00.000Z',
    claimedAt: '2025-03-05T12:00:00.000Z',
    completedAt: '2025-03-06T09:00:00.000Z',
    editor: { displayName: 'Erin Editor', email: 'erin@example.com' },
    editorNotes: 'Brightened the interiors and straightened the verticals.',
    editorUploadCount: 3,
    ...fields,
  });
