import { acceptedPhotoExtensions, extensionOf, type OrderSummaryView, type RevisionView } from './orders';
import { turnaroundTier } from './turnaround';
import * as z from './zod';

/** The editor's side of an order: what is offered, what they deliver, what they earn. */
export const AVAILABLE_ORDERS_DEFAULT_LIMIT = 20;
export const AVAILABLE_ORDERS_MAX_LIMIT = 50;
/** Used when neither the editor nor the job type has a rate (spec section 9). */
export const FALLBACK_EDITOR_RATE_CENTS = 50;

export const availableOrderFilters = ['all', 'with-requirements', 'no-requirements'] as const;
/** 'due': least time left first (the tier's due time; overdue orders lead). */
export const availableOrderSorts = ['newest', 'oldest', 'highest-price', 'due'] as const;

/** The tier filter lists by time left: the due-time index is the one that holds the tier. */
export const TIER_FILTER_NEEDS_DUE_SORT = 'The turnaround filter lists orders by time left: use sort=due with tier';

/**
 * A page asked for by its number, without a cursor, must start within this many orders: the server
 * reads every order before it, so deeper pages are reached with Next (a cursor), whose cost does
 * not grow with depth (docs/decisions/0052-open-pool-in-four-shards.md).
 */
export const AVAILABLE_ORDERS_MAX_SKIPPED = 200;

/**
 * GET /api/orders/available?page&limit&filter&sort&tier&cursor. `cursor` is the previous page's
 * `nextCursor` (then `page` is only the number the screen shows); without one, page N is found by
 * reading the orders before it, up to AVAILABLE_ORDERS_MAX_SKIPPED of them. `tier` (Standard,
 * Express or Rush) narrows the list to one turnaround tier and goes with `sort=due` only
 * (docs/decisions/0110-turnaround-tiers.md).
 */
export const availableOrdersQuery = /* @__PURE__ */ z.schema(() =>
  z
    .object({
      page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
      limit: z._default(
        z.coerce.number().check(z.int(), z.minimum(1), z.maximum(AVAILABLE_ORDERS_MAX_LIMIT)),
        AVAILABLE_ORDERS_DEFAULT_LIMIT,
      ),
      filter: z._default(z.enum(availableOrderFilters), 'all'),
      sort: z._default(z.enum(availableOrderSorts), 'newest'),
      tier: z.optional(turnaroundTier),
      cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    })
    .check(
      z.refine((q) => q.tier === undefined || q.sort === 'due', {
        message: TIER_FILTER_NEEDS_DUE_SORT,
        path: ['tier'],
      }),
    ),
);
export type AvailableOrdersQuery = z.infer<typeof availableOrdersQuery>;

export interface AvailableOrderView extends OrderSummaryView {
  /** This editor's rate for the job type x the photo count; null when they have no rate ('Rate not set'). */
  potentialEarningsCents: number | null;
  /** Assigned to this editor by an admin (claimable by them only). */
  assignedToMe: boolean;
  /** The order's editing style in one line (editingStyleSummary); null on orders made before styles. */
  editingStyleSummary: string | null;
}

export interface AvailableOrdersResponse {
  orders: AvailableOrderView[];
  total: number;
  /** Pass as `cursor` (with page + 1) to read the next page; null on the last page. */
  nextCursor: string | null;
}

export interface EditorAssignmentView extends OrderSummaryView {
  potentialEarningsCents: number | null;
  photographerUploadCount: number;
  editorUploadCount: number;
  /** The open revision round when the photographer sent the order back; null while first in progress. */
  revision: RevisionView | null;
}

export const MY_ASSIGNMENTS_PAGE_SIZE = 20;

/** GET /api/orders/my-assignments: the editor's orders to work on, newest first, a page at a time. */
export const myAssignmentsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(AVAILABLE_ORDERS_MAX_LIMIT)),
      MY_ASSIGNMENTS_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type MyAssignmentsQuery = z.infer<typeof myAssignmentsQuery>;

export interface MyAssignmentsResponse {
  orders: EditorAssignmentView[];
  /** Orders in progress or back for a revision, from the editor's counter. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export interface EditorStatsView {
  activeOrders: number;
  completedOrders: number;
  totalEarnings: number;
  pendingPayouts: number;
}

export interface OrderEventView {
  id: string;
  eventType: string;
  description: string;
  createdAt: string;
  metadata: Record<string, unknown>;
}

export const EDITOR_NOTES_MAX = 5000;
export const completeOrderInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    editorNotes: z.optional(
      z
        .string()
        .check(z.trim(), z.maxLength(EDITOR_NOTES_MAX, `Editor notes must be at most ${EDITOR_NOTES_MAX} characters`)),
    ),
  }),
);

/** Edited deliveries: images and archives (spec section 5, 'Editor upload'). */
export const acceptedArchiveExtensions = ['zip', 'rar', '7z'] as const;
export const acceptedEditedExtensions = [...acceptedPhotoExtensions, ...acceptedArchiveExtensions] as const;
export const isAcceptedEditedFile = (filename: string) =>
  (acceptedEditedExtensions as readonly string[]).includes(extensionOf(filename));
/** One edited file or archive may be at most this large (an archive of a whole order's edits). */
export const MAX_EDITED_BYTES = 2 * 1024 * 1024 * 1024;

export const editorUploadMessages = {
  noFile: 'Please select a file to upload',
  hint: 'Supported formats: Images (JPEG, PNG, TIFF, RAW) and Archives (ZIP, RAR, 7Z)',
  failed: 'Failed to upload image',
  uploaded: (filename: string) => `Uploaded: ${filename}`,
  manyUploaded: (n: number) => `${n} file(s) uploaded successfully`,
  manyFailed: (n: number) => `${n} file(s) failed to upload`,
} as const;

/** POST /api/orders/{id}/images/upload answers the stored file's name (spec section 3, 'Upload result'). */
export interface UploadResultView {
  filename: string;
}

/** '{order name or number}_images.zip' (spec section 9). */
export const originalsZipFilename = (order: { name?: string | null; orderNumber: number }) =>
  `${order.name?.trim() || `Order #${order.orderNumber}`}_images.zip`;
