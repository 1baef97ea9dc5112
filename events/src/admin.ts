import { type FeedbackView, feedbackStatuses, feedbackTypes } from './feedback';
import { jobTypeRateInput } from './invitations';
import type { OrderSummaryView } from './orders';
import type { PayoutAccountView } from './payouts';
import { type Role, role, type UserStatus, userStatuses } from './roles';
import * as z from './zod';

/**
 * The admin console's contracts: the order list and assignment, refunds, users and roles,
 * editors, their rates and payouts, job types and feedback triage (spec sections 2, 3, 5, 7).
 */

// ---------------------------------------------------------------- orders

export const ADMIN_ORDERS_PAGE_SIZE = 25;
export const ADMIN_ORDERS_MAX_LIMIT = 100;
export const BULK_ASSIGN_MAX = 100;
export const SEARCH_TERM_MAX = 100;
/** Search-index items one search reads at most: a term that begins more words lists the orders of these only. */
export const SEARCH_WORDS_READ_MAX = 1_000;

export const assignmentFilters = ['unassigned', 'assigned', 'all'] as const;
export type AssignmentFilter = (typeof assignmentFilters)[number];
export const adminOrderSorts = ['newest', 'oldest', 'most-photos', 'photographer'] as const;
export type AdminOrderSort = (typeof adminOrderSorts)[number];

/**
 * GET /api/orders/admin/all. `cursor` is the previous page's `nextCursor`: with it a page costs
 * one page of reads however deep it is; without it page N is found by reading the N pages
 * before it (see docs/decisions/0048-admin-order-list.md).
 */
export const adminOrdersQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_ORDERS_MAX_LIMIT)),
      ADMIN_ORDERS_PAGE_SIZE,
    ),
    assignmentFilter: z._default(z.enum(assignmentFilters), 'unassigned'),
    searchTerm: z.pipe(
      z.optional(
        z
          .string()
          .check(z.trim(), z.maxLength(SEARCH_TERM_MAX, `Search terms must be at most ${SEARCH_TERM_MAX} characters`)),
      ),
      z.transform((term) => term || undefined),
    ),
    sortBy: z._default(z.enum(adminOrderSorts), 'newest'),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(2000))),
  }),
);
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuery>;

/**
 * The words an order is found by: its photographer's name, its own name and its number, lower-
 * cased and split on anything that is not a letter or digit; the first MAX_SEARCH_WORDS distinct
 * ones. A search term matches an order when each of the term's words begins one of these.
 */
export const MAX_SEARCH_WORDS = 20;
export const searchWordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
export const orderSearchWords = (order: { photographerName: string; name?: string | null; orderNumber: number }) =>
  [...new Set(searchWordsOf(`${order.photographerName} ${order.name ?? ''} ${order.orderNumber}`))].slice(
    0,
    MAX_SEARCH_WORDS,
  );

/**
 * The photographer name as the A-Z sort compares it: lower-cased, with characters below '$'
 * (space, '!', '"', '#') written as '$' so a key separator can never reorder two names.
 */
export const photographerSortName = (name: string) =>
  Array.from(name.trim().toLowerCase(), (char) => (char.charCodeAt(0) < 0x24 ? '$' : char)).join('');

/** One row of the admin's order table (spec section 3, Order admin list). */
export interface AdminOrderView extends OrderSummaryView {
  photographerId: string;
  photographer: { id: string; display_name: string; photographer_name: string };
  editorId: string | null;
  editor: { id: string; display_name: string; editor_name: string } | null;
  assignment: 'assigned' | 'unassigned';
  assignedAt: string | null;
  cancelledAt: string | null;
  refundedAmountCents: number | null;
  /** What the server will allow now, so the table offers only that. */
  canAssign: boolean;
  canUnassign: boolean;
  canCancel: boolean;
}

export interface AdminOrderListResponse {
  orders: AdminOrderView[];
  total: number;
  totalPages: number;
  page: number;
  /** Pass as `cursor` with page + 1 to read the next page in one step; null on the last page. */
  nextCursor: string | null;
  /**
   * A search term that begins more words than one search reads (SEARCH_WORDS_READ_MAX): the list
   * and its total cover the orders of the words read, and a longer term narrows it.
   */
  moreMatches: boolean;
}

export const assignOrderInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    editorId: z.string().check(z.trim(), z.minLength(1, 'Please select an editor'), z.maxLength(128)),
  }),
);

export const bulkAssignInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    orderIds: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))).check(
      z.minLength(1, 'Select at least one order'),
      z.maxLength(BULK_ASSIGN_MAX, `At most ${BULK_ASSIGN_MAX} orders at a time`),
      z.refine((ids) => new Set(ids).size === ids.length, { message: 'Each order can be listed only once' }),
    ),
    editorId: z.string().check(z.trim(), z.minLength(1, 'Please select an editor'), z.maxLength(128)),
  }),
);

export interface BulkAssignResponse {
  /** e.g. 'Assigned 98 of 100 orders. Not assigned: #1042 (already in progress), ...' */
  message: string;
  assigned: string[];
  notAssigned: { orderId: string; orderNumber: number | null; reason: string }[];
}

/** POST /api/orders/admin/{id}/cancel: the order, and what was refunded. */
export interface CancelOrderResponse {
  order: AdminOrderView;
  refundedAmountCents: number;
}

// ---------------------------------------------------------------- users and roles

export interface AdminUserView {
  id: string;
  email: string;
  displayName: string | null;
  status: UserStatus;
  roles: Role[];
  /** false: deleted (a soft delete; orders and history stay). */
  isActive: boolean;
  createdAt: string;
  deletedAt: string | null;
  invitedAt: string | null;
  /**
   * The identity provider is being told to follow a standing change ('disabling': sign-in is
   * being turned off, 'enabling': on again); null once it has. The API refuses a suspended or
   * deleted user at once either way.
   */
  signInPending: 'disabling' | 'enabling' | null;
}

export const ADMIN_USERS_PAGE_SIZE = 25;
export const ADMIN_USERS_MAX_LIMIT = 100;

const flag = /* @__PURE__ */ z.schema(() =>
  z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((v) => v === 'true'),
  ),
);

/**
 * GET /api/admin/users: one page, newest first. Invited editors (no account yet) are listed only
 * with includeInvited=true. `cursor` is the previous page's `nextCursor`.
 */
export const adminUsersQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    includeInactive: flag,
    includeInvited: flag,
    status: z.optional(z.enum(userStatuses)),
    role: z.optional(role),
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1),
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_USERS_MAX_LIMIT)),
      ADMIN_USERS_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

/** A page of a list the admin pages through (users, editors, feedback). */
export interface AdminPage {
  total: number;
  totalPages: number;
  page: number;
  /**
   * Pass as `cursor` with page + 1 to read the next page in one step; null on the last page. A
   * filtered list reads a bounded number of rows per page, so a page may hold fewer than `limit`
   * rows and still have a next one.
   */
  nextCursor: string | null;
}

export interface AdminUserListResponse extends AdminPage {
  users: AdminUserView[];
}

/** GET /api/admin/invited-users: editors invited and not signed up yet, newest first, a page at a time. */
export const invitedUsersQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_USERS_MAX_LIMIT)),
      ADMIN_USERS_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type InvitedUsersQuery = z.infer<typeof invitedUsersQuery>;

export interface InvitedUsersResponse {
  users: AdminUserView[];
  total: number;
  /** Pass as `cursor` for the next page; null on the last one. A page may hold fewer than `limit` when more follow. */
  nextCursor: string | null;
}

/** PATCH /users/{id}/role sets the user's only role; POST /users/{id}/roles adds one. */
export const roleInput = /* @__PURE__ */ z.schema(() => z.object({ role }));
export const roleParams = /* @__PURE__ */ z.schema(() =>
  z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)), role }),
);

export interface CheckEmailResponse {
  email: string;
  available: boolean;
  /** Why not: an account exists, or an invitation is pending. */
  reason: 'registered' | 'invited' | null;
}

/** DELETE /users/{id}, deactivate and reactivate answer the user (the spec reads user.email). */
export interface AdminUserResponse {
  user: AdminUserView;
}

// ---------------------------------------------------------------- editors, rates, payouts

export interface EditorRateView {
  id: string;
  jobTypeId: string;
  jobTypeName: string;
  jobTypeDescription: string | null;
  ratePerPhotoCents: number;
}

export interface AdminEditorView {
  id: string;
  email: string;
  displayName: string | null;
  status: UserStatus;
  invitedAt: string | null;
  createdAt: string;
  isActive: boolean;
  rates: EditorRateView[];
  pendingPayoutCents: number;
  paidOutCents: number;
  /** The editor's Stripe payout account as Stripe last described it (events/payouts.ts). */
  payoutAccount: PayoutAccountView;
}

export const ADMIN_EDITORS_PAGE_SIZE = 20;

/** GET /api/admin/editors: one page of editors, invited ones included, newest first. */
export const adminEditorsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1),
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_USERS_MAX_LIMIT)),
      ADMIN_EDITORS_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type AdminEditorsQuery = z.infer<typeof adminEditorsQuery>;

export interface AdminEditorListResponse extends AdminPage {
  editors: AdminEditorView[];
}

/** PUT replaces every rate (an empty list clears them); PATCH sets the listed ones and keeps the rest. */
export const editorRatesInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    jobTypeRates: z.array(jobTypeRateInput).check(
      z.maxLength(100),
      z.refine((rates) => new Set(rates.map((r) => r.jobTypeId)).size === rates.length, {
        message: 'Each job type can have only one rate',
      }),
    ),
  }),
);

export interface AdminEditorStatsView {
  averageRating: number | null;
  ratingCount: number;
  averageTurnaroundHours: number | null;
  completedOrders: number;
  activeOrders: number;
}

export const recordPayoutInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    amountCents: z
      .number()
      .check(
        z.int('Amounts are whole cents'),
        z.minimum(1, 'A payout must be more than $0.00'),
        z.maximum(100_000_000),
      ),
    note: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    /** Sent again on a retry so the payout is booked once. */
    payoutId: z.optional(z.string().check(z.trim(), z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'payoutId must be a ULID'))),
  }),
);

export interface PayoutView {
  id: string;
  amountCents: number;
  paidAt: string;
  note: string | null;
  recordedBy: string | null;
}

export const EDITOR_PAYOUTS_PAGE_SIZE = 20;

/** GET /api/admin/editors/{id}/payouts: one page of the editor's payouts, newest first. */
export const editorPayoutsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_USERS_MAX_LIMIT)),
      EDITOR_PAYOUTS_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type EditorPayoutsQuery = z.infer<typeof editorPayoutsQuery>;

export interface EditorPayoutsResponse {
  payouts: PayoutView[];
  pendingPayoutCents: number;
  paidOutCents: number;
  /** Pass as `cursor` for the older payouts; null when these are the oldest. */
  nextCursor: string | null;
}

// ---------------------------------------------------------------- job types

export const NEW_JOB_TYPE_PRICE_CENTS = 500;
export const NEW_JOB_TYPE_EDITOR_RATE_CENTS = 50;
const cents = /* @__PURE__ */ z.schema(() =>
  z.number().check(z.int('Amounts are whole cents'), z.minimum(0, 'Amounts cannot be negative'), z.maximum(1_000_000)),
);
/** Express and Rush surcharges per photo; Standard has none. */
const tierSurchargesInput = /* @__PURE__ */ z.schema(() => z.strictObject({ express: cents, rush: cents }));
const jobTypeName = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(100)),
);
const jobTypeDescription = /* @__PURE__ */ z.schema(() => z.string().check(z.trim(), z.maxLength(1000)));

export const createJobTypeInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    name: jobTypeName,
    description: z.pipe(
      z.nullish(jobTypeDescription),
      z.transform((d) => d || undefined),
    ),
    pricePerPhotoCents: z._default(cents, NEW_JOB_TYPE_PRICE_CENTS),
    defaultEditorPriceCents: z._default(cents, NEW_JOB_TYPE_EDITOR_RATE_CENTS),
    tierSurchargeCents: z._default(tierSurchargesInput, { express: 0, rush: 0 }),
  }),
);

/** PATCH /api/admin/job-types/{id}: new prices apply to new orders; existing orders keep theirs. */
export const updateJobTypeInput = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      name: z.optional(jobTypeName),
      description: z.optional(z.nullable(jobTypeDescription)),
      pricePerPhotoCents: z.optional(cents),
      defaultEditorPriceCents: z.optional(cents),
      tierSurchargeCents: z.optional(tierSurchargesInput),
      isActive: z.optional(z.boolean()),
    })
    .check(z.refine((v) => Object.values(v).some((value) => value !== undefined), { message: 'Nothing to update' })),
);

// ---------------------------------------------------------------- feedback

export const ADMIN_FEEDBACK_PAGE_SIZE = 25;

/** GET /api/feedback/all: one page of the reports matching the filters, newest first. */
export const adminFeedbackQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    status: z._default(z.enum(['all', ...feedbackStatuses]), 'all'),
    type: z._default(z.enum(['all', ...feedbackTypes]), 'all'),
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1),
    limit: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_USERS_MAX_LIMIT)),
      ADMIN_FEEDBACK_PAGE_SIZE,
    ),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuery>;

export interface AdminFeedbackListResponse extends AdminPage {
  feedback: FeedbackView[];
}

export interface FeedbackStatsView {
  total: number;
  byType: Record<(typeof feedbackTypes)[number], number>;
  byStatus: Record<(typeof feedbackStatuses)[number], number>;
}

export const ADMIN_NOTES_MAX = 5000;
export const updateFeedbackInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    status: z.enum(feedbackStatuses),
    /** Absent or null keeps the notes already there. */
    adminNotes: z.nullish(z.string().check(z.trim(), z.maxLength(ADMIN_NOTES_MAX))),
  }),
);
