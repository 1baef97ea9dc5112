import { orderStatuses } from '@marketplace/events/orders';
import type { Schema } from 'electrodb';

/**
 * Every record of the marketplace, in one table: each entity's definition, as ElectroDB reads it.
 * The key layout of each entity is the list of questions it must answer; access-patterns.ts names
 * them all in one place. Plain data: entities.ts builds ElectroDB's entities from it, and the
 * writes sent beside ElectroDB (direct-writes.ts) read the same attributes and indexes, so the two
 * cannot disagree.
 */

/** ElectroDB's own typing of a definition (its `createSchema`, without the check it runs at load). */
const defineEntity = <A extends string, F extends string, C extends string, S extends Schema<A, F, C>>(schema: S): S =>
  schema;

const service = 'marketplace';
const now = () => new Date().toISOString();

const timestamps = {
  createdAt: { type: 'string', required: true, readOnly: true, default: now },
  updatedAt: { type: 'string', required: true, default: now, set: now, watch: '*' },
} as const;

const User = defineEntity({
  model: { entity: 'user', version: '1', service },
  attributes: {
    userId: { type: 'string', required: true, readOnly: true },
    email: { type: 'string', required: true, set: (v?: string) => v?.trim().toLowerCase() },
    displayName: { type: 'string' },
    profileImageUrl: { type: 'string' },
    roles: { type: 'list', items: { type: 'string' }, required: true, default: () => [] },
    status: { type: ['verified', 'invited', 'suspended'] as const, required: true, default: 'verified' },
    isActive: { type: 'boolean', required: true, default: true },
    deletedAt: { type: 'string' },
    invitedAt: { type: 'string' },
    /** Denormalized for the admin's editor list; kept in step with `roles` by every role write. */
    isEditor: { type: 'string' },
    /** Likewise for the admins among the users ('admin', or absent): the admin list's role filter. */
    isAdmin: { type: 'string' },
    /**
     * When a standing change asked the identity provider to follow (sign-in off or on again);
     * removed by the identity worker once the provider holds the standing the record has.
     */
    signInRequestedAt: { type: 'string' },
    /** An editor's Stripe connected account (payouts), written once, on the condition that none is set yet. */
    stripeAccountId: { type: 'string' },
    /** The connected account as last read from Stripe (see events/payouts.ts PayoutAccountStatus). */
    payoutStatus: { type: 'string' },
    /** Stripe's requirements.currently_due of that account. */
    payoutRequirements: { type: 'list', items: { type: 'string' } },
    payoutDisabledReason: { type: 'string' },
    payoutCheckedAt: { type: 'string' },
    /** A photographer's Stripe Customer (saved cards), made on the first payment that saves a card; written once. */
    stripeCustomerId: { type: 'string' },
    /**
     * Profile (data/users.ts updateProfile, handlers/profile). `phone` in E.164; `businessName`
     * a photographer's, shown on their share pages. Each picture (the profile image, a
     * photographer's logo) is the key of the upload that S3 holds and its state: 'processing'
     * until the thumbnail worker has made its sizes (keys derived from the upload's key), then
     * 'ready', or 'failed' when it was no picture.
     */
    phone: { type: 'string' },
    businessName: { type: 'string' },
    profileImageKey: { type: 'string' },
    profileImageState: { type: ['processing', 'ready', 'failed'] as const },
    logoKey: { type: 'string' },
    logoState: { type: ['processing', 'ready', 'failed'] as const },
    /**
     * Account security (data/security-activity.ts, handlers/account). `signedOutBefore`: epoch
     * seconds set by 'Sign out of all other devices'; every ID token whose auth_time is earlier is
     * refused. `pendingEmailChangeId`: the one email change waiting for its link (a newer request
     * replaces it).
     */
    signedOutBefore: { type: 'number' },
    pendingEmailChangeId: { type: 'string' },
    /**
     * Email preferences (data/email-preferences.ts): the switchable email kinds this user turned
     * off, a string set so a switch is one ADD or DELETE. Absent: every email goes out.
     */
    mutedEmails: { type: 'set', items: 'string' },
    /** A photographer's saved editing style (events/editing-style.ts EditingStyle), checked by its schema on every save. */
    editingStyle: { type: 'any' },
    ...timestamps,
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
    byEmail: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['email'] }, sk: { field: 'gsi1sk', composite: [] } },
    /** Admin list: every user, newest first; status/role/deleted are filters on this bounded partition. */
    all: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: [] },
      sk: { field: 'gsi2sk', composite: ['createdAt', 'userId'] },
    },
    /** Sparse: only users holding the editor role carry isEditor. */
    editors: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['isEditor'] },
      sk: { field: 'gsi3sk', composite: ['createdAt', 'userId'] },
    },
    /** Sparse: only admins carry isAdmin, so the few admins are a page's read, however many users there are. */
    admins: {
      index: 'gsi4',
      pk: { field: 'gsi4pk', composite: ['isAdmin'] },
      sk: { field: 'gsi4sk', composite: ['createdAt', 'userId'] },
    },
    /** A partition per status (the invited and suspended are few): a status filter reads a page. */
    byStatus: {
      index: 'gsi5',
      pk: { field: 'gsi5pk', composite: ['status'] },
      sk: { field: 'gsi5sk', composite: ['createdAt', 'userId'] },
    },
  },
});

/**
 * The one live account an email belongs to, keyed by the email lower-cased. Every write that
 * creates an account or moves an email writes it in the same transaction, on the condition that
 * the email is free (or held by an invited editor's placeholder, or by the same account), so two
 * accounts can never share an email however they race.
 */
const UserEmail = defineEntity({
  model: { entity: 'userEmail', version: '1', service },
  attributes: {
    email: { type: 'string', required: true, readOnly: true, set: (v?: string) => v?.trim().toLowerCase() },
    userId: { type: 'string', required: true },
  },
  indexes: {
    byEmail: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } },
  },
});

const Invitation = defineEntity({
  model: { entity: 'invitation', version: '1', service },
  attributes: {
    tokenHash: { type: 'string', required: true, readOnly: true },
    email: { type: 'string', required: true, set: (v?: string) => v?.trim().toLowerCase() },
    displayName: { type: 'string', required: true },
    invitedBy: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    status: { type: ['pending', 'accepted', 'revoked'] as const, required: true, default: 'pending' },
    acceptedAt: { type: 'string' },
    expiresAt: { type: 'number', required: true },
    ...timestamps,
  },
  indexes: {
    byToken: { pk: { field: 'pk', composite: ['tokenHash'] }, sk: { field: 'sk', composite: [] } },
    byEmail: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['email'] },
      sk: { field: 'gsi1sk', composite: ['createdAt'] },
    },
  },
});

const JobType = defineEntity({
  model: { entity: 'jobType', version: '1', service },
  attributes: {
    jobTypeId: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true },
    description: { type: 'string' },
    pricePerPhotoCents: { type: 'number', required: true },
    defaultEditorPriceCents: { type: 'number', required: true },
    /** { express, rush }: cents added per photo for the faster tiers; absent on older types (none). */
    tierSurchargeCents: { type: 'any' },
    isActive: { type: 'boolean', required: true, default: true },
    ...timestamps,
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['jobTypeId'] }, sk: { field: 'sk', composite: [] } },
    /** A handful of items: one partition, by name; "active" is a filter. */
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [] },
      sk: { field: 'gsi1sk', composite: ['name', 'jobTypeId'] },
    },
  },
});

/**
 * A job type's name, lower-cased with its spaces collapsed: creating or renaming a job type claims
 * it in the same transaction, so two job types can never share a name, however close the race.
 */
const JobTypeName = defineEntity({
  model: { entity: 'jobTypeName', version: '1', service },
  attributes: {
    nameKey: { type: 'string', required: true, readOnly: true },
    jobTypeId: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byName: { pk: { field: 'pk', composite: ['nameKey'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * An add-on (decision 0109): a service priced per photo, ticked on chosen photos of an order. A
 * catalogue of a handful, in one partition like the job types, by sort order then name.
 */
const AddOn = defineEntity({
  model: { entity: 'addOn', version: '1', service },
  attributes: {
    addOnId: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true },
    description: { type: 'string' },
    pricePerPhotoCents: { type: 'number', required: true },
    editorRatePerPhotoCents: { type: 'number', required: true },
    isActive: { type: 'boolean', required: true, default: true },
    sortOrder: { type: 'number', required: true, default: 0, padding: { length: 4, char: '0' } },
    ...timestamps,
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['addOnId'] }, sk: { field: 'sk', composite: [] } },
    /** A handful of items: one partition, by sort order then id; "active" is a filter. */
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [] },
      sk: { field: 'gsi1sk', composite: ['sortOrder', 'addOnId'] },
    },
  },
});

/**
 * Which add-ons each photo of an order has (decision 0109): one item per order, at most
 * PHOTO_COUNT_MAX photos, replaced whole by the photographer while the order awaits payment. The
 * priced lines (names and prices as chosen) live on the order itself, beside its total.
 */
const OrderAddOns = defineEntity({
  model: { entity: 'orderAddOns', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    /** [{ key, addOnIds }] for the photos that have at least one add-on. */
    photos: { type: 'any', required: true },
    updatedBy: { type: 'string', required: true },
    ...timestamps,
  },
  indexes: {
    byOrder: { pk: { field: 'pk', composite: ['orderId'] }, sk: { field: 'sk', composite: [] } },
  },
});

const EditorRate = defineEntity({
  model: { entity: 'editorRate', version: '1', service },
  attributes: {
    editorId: { type: 'string', required: true, readOnly: true },
    jobTypeId: { type: 'string', required: true, readOnly: true },
    ratePerPhotoCents: { type: 'number', required: true },
    ...timestamps,
  },
  indexes: {
    /** In the editor's user partition: one Query returns all of an editor's rates. */
    byEditor: {
      pk: { field: 'pk', composite: ['editorId'] },
      sk: { field: 'sk', composite: ['jobTypeId'] },
    },
  },
});

/**
 * A payout to an editor, in the editor's partition beside their rates; ids are ULIDs from the
 * route (older ops-command ids may be any text), so the partition reads in time order.
 */
const Payout = defineEntity({
  model: { entity: 'payout', version: '1', service },
  attributes: {
    editorId: { type: 'string', required: true, readOnly: true },
    payoutId: { type: 'string', required: true, readOnly: true },
    amountCents: { type: 'number', required: true, readOnly: true },
    paidAt: { type: 'string', required: true, readOnly: true },
    note: { type: 'string' },
    /** Who recorded it (the admin's name, else email); absent when it came from the ops command. */
    recordedBy: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byEditor: {
      pk: { field: 'pk', composite: ['editorId'] },
      sk: { field: 'sk', composite: ['payoutId'] },
    },
  },
});

/**
 * The earning of one completed order, in the order's partition: booked in the transaction that
 * completes the order, held through the revision window, then transferred to the editor's Stripe
 * account and paid out (data/earnings.ts). Sparse indexes list only what a reader needs: the
 * release queue (what is due, by the time it is due), the earnings waiting for their editor's
 * payout account, those in the editor's Stripe balance, and every transfer (for the ops check).
 */
const Earning = defineEntity({
  model: { entity: 'earning', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    editorId: { type: 'string', required: true, readOnly: true },
    amountCents: { type: 'number', required: true, readOnly: true },
    orderNumber: { type: 'number' },
    orderName: { type: 'string' },
    /** What the photographer paid for the order: the platform keeps the rest. */
    orderAmountCents: { type: 'number' },
    state: { type: ['held', 'due', 'transferred', 'paid_out', 'reversed'] as const, required: true },
    holdReason: { type: ['revision', 'no_payout_account', 'payouts_not_enabled'] as const },
    bookedAt: { type: 'string', required: true, readOnly: true },
    /** When the revision window closes; absent while a revision is open. */
    releaseAt: { type: 'string' },
    /** 'due' while the release queue holds it (gsi2, by nextAttemptAt). */
    releaseQueue: { type: 'string' },
    nextAttemptAt: { type: 'string' },
    attempts: { type: 'number', required: true, default: 0 },
    /** A release at work on it until then (epoch ms): another one leaves it alone. */
    releasingUntil: { type: 'number' },
    lastError: { type: 'string' },
    /** The editor's id while it waits for their payout account (gsi3). */
    awaitingAccountOf: { type: 'string' },
    /** Part of it paid by hand before the editor had Stripe payouts (taken from the hand-paid credit). */
    paidByHandCents: { type: 'number' },
    creditApplied: { type: 'boolean' },
    transferId: { type: 'string' },
    transferAmountCents: { type: 'number' },
    transferredAt: { type: 'string' },
    /** The editor's id while the money is in their Stripe balance (gsi4, oldest booking first). */
    inTransitOf: { type: 'string' },
    /** 'transfers' once transferred (gsi5, by booking): every transfer, for the ops check. */
    transferLedger: { type: 'string' },
    payoutId: { type: 'string' },
    paidOutAt: { type: 'string' },
    reversalId: { type: 'string' },
    reversedAt: { type: 'string' },
    reversalError: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byOrder: { pk: { field: 'pk', composite: ['orderId'] }, sk: { field: 'sk', composite: [] } },
    byEditor: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['editorId'] },
      sk: { field: 'gsi1sk', composite: ['bookedAt', 'orderId'] },
    },
    releaseQueue: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['releaseQueue'] },
      sk: { field: 'gsi2sk', composite: ['nextAttemptAt', 'orderId'] },
    },
    awaitingAccount: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['awaitingAccountOf'] },
      sk: { field: 'gsi3sk', composite: ['orderId'] },
    },
    inTransit: {
      index: 'gsi4',
      pk: { field: 'gsi4pk', composite: ['inTransitOf'] },
      sk: { field: 'gsi4sk', composite: ['bookedAt', 'orderId'] },
    },
    transfers: {
      index: 'gsi5',
      pk: { field: 'gsi5pk', composite: ['transferLedger'] },
      sk: { field: 'gsi5sk', composite: ['bookedAt', 'orderId'] },
    },
  },
});

/** A payout Stripe made from an editor's connected account to their bank, in the editor's partition. */
const BankPayout = defineEntity({
  model: { entity: 'bankPayout', version: '1', service },
  attributes: {
    editorId: { type: 'string', required: true, readOnly: true },
    payoutId: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true },
    amountCents: { type: 'number', required: true },
    status: { type: ['in_transit', 'paid', 'failed'] as const, required: true },
    /** Stripe's `created` as an ISO time: the partition reads newest first by it. */
    createdAt: { type: 'string', required: true, readOnly: true },
    arrivalDate: { type: 'string' },
    failureMessage: { type: 'string' },
    /** What of it has been matched to transferred earnings (oldest first) when it was paid. */
    settledCents: { type: 'number', required: true, default: 0 },
    orders: { type: 'any' },
    updatedAt: { type: 'string', required: true, default: now, set: now, watch: '*' },
  },
  indexes: {
    byEditor: {
      pk: { field: 'pk', composite: ['editorId'] },
      sk: { field: 'sk', composite: ['createdAt', 'payoutId'] },
    },
  },
});

/**
 * The pool indexes' partition key: the key the `pool` composite wrote before the open pool was
 * sharded ('$marketplace#pool_<value>'), so orders written then are still found in their partition.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: an ElectroDB key template, filled in by ElectroDB
const POOL_PARTITION_KEY = '$marketplace#pool_${poolPartition}';

const Order = defineEntity({
  model: { entity: 'order', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    orderNumber: { type: 'number', required: true, readOnly: true },
    name: { type: 'string' },
    photographerId: { type: 'string', required: true, readOnly: true },
    photographerName: { type: 'string', required: true },
    /** photographerSortName(photographerName): the admin's "Photographer A-Z" index key. */
    photographerSortName: { type: 'string', required: true, readOnly: true },
    jobTypeId: { type: 'string', required: true, readOnly: true },
    jobTypeName: { type: 'string', required: true },
    pricePerPhotoCents: { type: 'number', required: true, readOnly: true },
    /** Standard, Express or Rush (events/turnaround.ts), fixed when the order is made; absent on older orders: standard. */
    turnaroundTier: { type: ['standard', 'express', 'rush'] as const },
    /** The tier's surcharge per photo the order was priced with; absent on older orders: 0. */
    surchargePerPhotoCents: { type: 'number', readOnly: true },
    photoCount: { type: 'number', required: true, padding: { length: 4, char: '0' } },
    totalAmountCents: { type: 'number', required: true, padding: { length: 12, char: '0' } },
    editingRequirements: { type: 'string' },
    /** 'yes' when the order has editing requirements: the pool indexes' sort keys begin with it, for the filter. */
    hasRequirements: { type: ['yes', 'no'] as const, required: true, default: 'no', readOnly: true },
    status: { type: orderStatuses, required: true, default: 'pending_payment' },
    stripePaymentIntentId: { type: 'string' },
    paidAt: { type: 'string' },
    /** paidAt + the tier's hours: the dashboard marks an order late after this. */
    dueAt: { type: 'string' },
    /**
     * The first delivery's lateness (decision 0111), written by the delivery's transaction when it
     * came after dueAt; the credit's Stripe refund id is added once by the late-credit worker.
     */
    lateMinutes: { type: 'number' },
    lateCreditCents: { type: 'number' },
    lateCreditRefundId: { type: 'string' },
    /** 'open' while paid and unassigned, the editor's id while paid and assigned to them; absent otherwise. */
    pool: { type: 'string' },
    /**
     * poolByDue's sort key, 'yes#express#<dueAt>#<orderId>' (order-pool.ts poolDueKeyOf), written
     * with dueAt by the payment. One attribute, not four composites: an order is created without a
     * due time, and a key of parts some of which are there would not be written.
     */
    poolDueKey: { type: 'string' },
    /**
     * The pool indexes' partition, set and removed with `pool`: the open pool's shard ('open#0'..,
     * fixed by the order id; see order-pool.ts) or the assigned editor's id. Absent on orders
     * opened before the shards, which the key template keeps in the legacy 'open' partition.
     */
    poolPartition: { type: 'string' },
    /** 'assigned' or 'unassigned': the admin's assignment filter. */
    assignment: { type: ['assigned', 'unassigned'] as const, required: true, default: 'unassigned' },
    editorId: { type: 'string' },
    editorName: { type: 'string' },
    editorEmail: { type: 'string' },
    editorRateCents: { type: 'number' },
    assignedAt: { type: 'string' },
    claimedAt: { type: 'string' },
    completedAt: { type: 'string' },
    cancelledAt: { type: 'string' },
    cancelledBy: { type: 'string' },
    /** What was given back through Stripe when the order was cancelled (0 when it was never paid). */
    refundedAmountCents: { type: 'number' },
    refundId: { type: 'string' },
    editorNotes: { type: 'string' },
    photographerRating: { type: 'number' },
    photographerUploadCount: { type: 'number', required: true, default: 0 },
    editorUploadCount: { type: 'number', required: true, default: 0 },
    /** Revision rounds the photographer has requested (at most FREE_REVISION_ROUNDS). */
    revisionCount: { type: 'number', required: true, default: 0 },
    /** When the open revision round was requested; absent when none is open. */
    revisionRequestedAt: { type: 'string' },
    /** Lower-cased "photographer name \u0000 order name" for the admin's search. */
    searchText: { type: 'string' },
    /**
     * The order's editing style (events/editing-style.ts EditingStyle) as it was when the order
     * was created: written once, never changed, so it is the style paid for (decision 0107).
     */
    editingStyle: { type: 'any', readOnly: true },
    /**
     * The add-ons chosen (decision 0109) as priced when chosen: [{ addOnId, name,
     * pricePerPhotoCents, editorRatePerPhotoCents, photoCount }]; changed only while
     * pending_payment, so it is what was paid for whatever the admin changes later.
     */
    addOns: { type: 'any' },
    addOnsCents: { type: 'number' },
    /** Counts the changes of add-ons: the payment intent's update key and the write's condition. */
    addOnsRevision: { type: 'number' },
    ...timestamps,
  },
  indexes: {
    byId: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: [] },
    },
    byPhotographer: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['photographerId'] },
      sk: { field: 'gsi1sk', composite: ['createdAt', 'orderId'] },
    },
    /** Available orders, newest/oldest first, with or without requirements (sparse on poolPartition). */
    poolByDate: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['poolPartition'], template: POOL_PARTITION_KEY },
      sk: { field: 'gsi2sk', composite: ['hasRequirements', 'createdAt', 'orderId'] },
    },
    /** Available orders, highest price first, with or without requirements (sparse on poolPartition). */
    poolByPrice: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['poolPartition'], template: POOL_PARTITION_KEY },
      sk: { field: 'gsi3sk', composite: ['hasRequirements', 'totalAmountCents', 'orderId'] },
    },
    /**
     * Available orders by time left, per tier, with or without requirements (sparse on
     * poolPartition; decision 0110): a lane per partition, flag and tier, soonest due first.
     */
    poolByDue: {
      index: 'gsi8',
      pk: { field: 'gsi8pk', composite: ['poolPartition'], template: POOL_PARTITION_KEY },
      sk: { field: 'gsi8sk', composite: ['poolDueKey'] },
    },
    /** An editor's assignments by status, most recently claimed first (sparse on editorId). */
    byEditor: {
      index: 'gsi4',
      pk: { field: 'gsi4pk', composite: ['editorId'] },
      sk: { field: 'gsi4sk', composite: ['status', 'createdAt', 'orderId'] },
    },
    /** Admin list by assignment, newest/oldest first. */
    byAssignment: {
      index: 'gsi5',
      pk: { field: 'gsi5pk', composite: ['assignment'] },
      sk: { field: 'gsi5sk', composite: ['createdAt', 'orderId'] },
    },
    /** Admin list by assignment, most photos first (photo count zero-padded; ties newest first). */
    byAssignmentPhotos: {
      index: 'gsi6',
      pk: { field: 'gsi6pk', composite: ['assignment'] },
      sk: { field: 'gsi6sk', composite: ['photoCount', 'createdAt', 'orderId'] },
    },
    /** Admin list by assignment, photographer A-Z (ties oldest first). */
    byAssignmentPhotographer: {
      index: 'gsi7',
      pk: { field: 'gsi7pk', composite: ['assignment'] },
      sk: { field: 'gsi7sk', composite: ['photographerSortName', 'createdAt', 'orderId'] },
    },
  },
});

/**
 * The admin's order search: one item per word an order is found by (orderSearchWords), in a
 * partition per first letter, sorted by word, so a term is a begins_with Query. Each carries what
 * the list filters and sorts on; `assignment` is kept in step by the writes that change it.
 */
const OrderSearchWord = defineEntity({
  model: { entity: 'orderSearchWord', version: '1', service },
  attributes: {
    initial: { type: 'string', required: true, readOnly: true },
    word: { type: 'string', required: true, readOnly: true },
    orderId: { type: 'string', required: true, readOnly: true },
    /** All of the order's search words, space-separated: a term's other words are checked against it. */
    words: { type: 'string', required: true, readOnly: true },
    assignment: { type: ['assigned', 'unassigned'] as const, required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    photoCount: { type: 'number', required: true, readOnly: true },
    photographerSortName: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byWord: {
      pk: { field: 'pk', composite: ['initial'] },
      sk: { field: 'sk', composite: ['word', 'orderId'] },
    },
  },
});

const OrderImage = defineEntity({
  model: { entity: 'orderImage', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    kind: { type: ['original', 'edited'] as const, required: true, readOnly: true },
    key: { type: 'string', required: true, readOnly: true },
    filename: { type: 'string', required: true },
    size: { type: 'number', required: true },
    contentType: { type: 'string' },
    uploadedBy: { type: 'string', required: true },
    lastModified: { type: 'string', required: true },
    /** Set by the thumbnail worker: 'ready' with both keys, or 'placeholder' for files with no picture. Absent = pending. */
    thumbnail: { type: ['ready', 'placeholder'] as const },
    thumbnailKey: { type: 'string' },
    previewKey: { type: 'string' },
    /** Originals: the HDR scene the browser grouped the file into (1-based). */
    scene: { type: 'number' },
    /** Edited files: the original this edit belongs to, and whether the name rule or the editor said so. */
    pairedOriginalKey: { type: 'string' },
    pairedBy: { type: ['rule', 'editor'] as const },
    /** Edited files: the key of a later file of the same name that replaced this one in a revision (left out of the delivery). */
    supersededBy: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['kind', 'key'] },
    },
  },
});

/** One revision round of an order: the photographer's notes, and when the editor re-delivered it. */
const OrderRevision = defineEntity({
  model: { entity: 'orderRevision', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    round: { type: 'number', required: true, readOnly: true, padding: { length: 3, char: '0' } },
    note: { type: 'string', required: true, readOnly: true },
    /** [{ key, note }] on individual edited photos. */
    photoNotes: { type: 'any', required: true, readOnly: true },
    requestedBy: { type: 'string', required: true, readOnly: true },
    requestedAt: { type: 'string', required: true, readOnly: true },
    /** The order's editorUploadCount when the round was requested: re-completion needs more than this. */
    editorUploadsAtRequest: { type: 'number', required: true, readOnly: true, default: 0 },
    completedAt: { type: 'string' },
    /** requestedAt + the order's tier hours; absent on rounds requested before tiers. */
    dueAt: { type: 'string' },
    /** The re-delivery's lateness and credit, as the order's own fields are for the first delivery. */
    lateMinutes: { type: 'number' },
    lateCreditCents: { type: 'number' },
    lateCreditRefundId: { type: 'string' },
  },
  indexes: {
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['round'] },
    },
  },
});

/**
 * The marks drawn on one original of an order (shapes in coordinates relative to the image, each
 * with a note, and whether the editor ticked it done): one item per photo, at most
 * MARKS_PER_PHOTO_MAX marks, so a photo's marks are read and replaced in one request.
 */
const OrderImageMarks = defineEntity({
  model: { entity: 'orderImageMarks', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    /** The original's key in storage. */
    key: { type: 'string', required: true, readOnly: true },
    /** The original's file name, for the activity log. */
    filename: { type: 'string' },
    /** [{ id, kind, points: [{ x, y }], note, done, round }] as events/src/marks.ts validates them. */
    marks: { type: 'any', required: true },
    markCount: { type: 'number', required: true },
    updatedBy: { type: 'string', required: true },
    ...timestamps,
  },
  indexes: {
    byOrder: {
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['key'] },
    },
  },
});

const OrderEvent = defineEntity({
  model: { entity: 'orderEvent', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    eventId: { type: 'string', required: true, readOnly: true },
    eventType: { type: 'string', required: true },
    description: { type: 'string', required: true },
    actorId: { type: 'string' },
    metadata: { type: 'any' },
    occurredAt: { type: 'string', required: true },
    ...timestamps,
  },
  indexes: {
    /** Event ids are ULIDs, so the partition reads in time order. */
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['eventId'] },
    },
  },
});

const Feedback = defineEntity({
  model: { entity: 'feedback', version: '1', service },
  attributes: {
    feedbackId: { type: 'string', required: true, readOnly: true },
    userId: { type: 'string', required: true, readOnly: true },
    userName: { type: 'string', required: true },
    userEmail: { type: 'string', required: true },
    type: { type: ['problem', 'suggestion', 'general'] as const, required: true },
    status: { type: ['open', 'in_progress', 'resolved', 'closed'] as const, required: true, default: 'open' },
    message: { type: 'string', required: true },
    adminNotes: { type: 'string' },
    reviewerName: { type: 'string' },
    reviewedAt: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['feedbackId'] }, sk: { field: 'sk', composite: [] } },
    byUser: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['userId'] },
      sk: { field: 'gsi1sk', composite: ['createdAt', 'feedbackId'] },
    },
    byStatus: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['status'] },
      sk: { field: 'gsi2sk', composite: ['createdAt', 'feedbackId'] },
    },
    /** A partition per type and status, so a type filter reads a page however rare the type. */
    byTypeAndStatus: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['type', 'status'] },
      sk: { field: 'gsi3sk', composite: ['createdAt', 'feedbackId'] },
    },
  },
});

/**
 * Running totals kept by the writes that change them (in the same transaction), so dashboards
 * never read every order: scope "feedback" names "total", "type#problem", "status#open", ...;
 * scope "photographer#<id>", "editor#<id>" and "orders" likewise.
 */
const Counter = defineEntity({
  model: { entity: 'counter', version: '1', service },
  attributes: {
    scope: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true, readOnly: true },
    value: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    byScope: { pk: { field: 'pk', composite: ['scope'] }, sk: { field: 'sk', composite: ['name'] } },
  },
});

/** Payments and their Stripe intents: the webhook and the client confirmation both land here once. */
const Payment = defineEntity({
  model: { entity: 'payment', version: '1', service },
  attributes: {
    paymentIntentId: { type: 'string', required: true, readOnly: true },
    orderId: { type: 'string', required: true, readOnly: true },
    amountCents: { type: 'number', required: true },
    currency: { type: 'string', required: true, default: 'usd' },
    status: { type: ['requires_payment', 'succeeded', 'failed', 'refunded'] as const, required: true },
    refundId: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byIntent: { pk: { field: 'pk', composite: ['paymentIntentId'] }, sk: { field: 'sk', composite: [] } },
    byOrder: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['orderId'] },
      sk: { field: 'gsi1sk', composite: ['createdAt'] },
    },
  },
});

/**
 * One payment or refund of a photographer, for their billing history and its PDF receipt: written
 * in the transaction that records the money moving (once, by that transaction's condition), with
 * the facts the receipt prints; the receipt worker adds the receipt's key. `entryId` is a ULID of
 * that moment, so the photographer's partition reads newest first and a month is a key range.
 */
const BillingEntry = defineEntity({
  model: { entity: 'billingEntry', version: '1', service },
  attributes: {
    photographerId: { type: 'string', required: true, readOnly: true },
    entryId: { type: 'string', required: true, readOnly: true },
    kind: { type: ['payment', 'refund'] as const, required: true, readOnly: true },
    orderId: { type: 'string', required: true, readOnly: true },
    orderNumber: { type: 'number', required: true, readOnly: true },
    orderName: { type: 'string', readOnly: true },
    jobTypeName: { type: 'string', required: true, readOnly: true },
    photoCount: { type: 'number', required: true, readOnly: true },
    pricePerPhotoCents: { type: 'number', required: true, readOnly: true },
    orderTotalCents: { type: 'number', required: true, readOnly: true },
    /** The order's add-ons as priced (decision 0109): [{ name, photoCount, pricePerPhotoCents }], for the receipt. */
    addOns: { type: 'any', readOnly: true },
    /** What moved: paid (a payment) or given back (a refund), in cents, always positive. */
    amountCents: { type: 'number', required: true, readOnly: true },
    currency: { type: 'string', required: true, readOnly: true },
    paymentIntentId: { type: 'string', required: true, readOnly: true },
    refundId: { type: 'string', readOnly: true },
    cardBrand: { type: 'string', readOnly: true },
    cardLast4: { type: 'string', readOnly: true },
    /** A late-delivery credit's words, printed on its receipt (decision 0111). */
    creditNote: { type: 'string', readOnly: true },
    /** The order's tier surcharge per photo and its tier, printed on the payment's receipt. */
    surchargePerPhotoCents: { type: 'number', readOnly: true },
    turnaroundTier: { type: 'string', readOnly: true },
    occurredAt: { type: 'string', required: true, readOnly: true },
    /** Set once by the receipt worker: the PDF's key under receipts/. */
    receiptKey: { type: 'string' },
    receiptMadeAt: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byPhotographer: {
      pk: { field: 'pk', composite: ['photographerId'] },
      sk: { field: 'sk', composite: ['entryId'] },
    },
    byOrder: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['orderId'] },
      sk: { field: 'gsi1sk', composite: ['entryId'] },
    },
  },
});

/** Idempotency marks: a webhook event id or a queue message id seen once, expiring after a while. */
const ProcessedMessage = defineEntity({
  model: { entity: 'processedMessage', version: '1', service },
  attributes: {
    source: { type: 'string', required: true, readOnly: true },
    messageId: { type: 'string', required: true, readOnly: true },
    expiresAt: { type: 'number', required: true },
    /** For side effects outside the table (an email): 'in-progress' while one delivery holds it until leaseUntil (epoch ms), then 'done'. */
    state: { type: ['in-progress', 'done'] as const },
    leaseUntil: { type: 'number' },
    ...timestamps,
  },
  indexes: {
    byMessage: { pk: { field: 'pk', composite: ['source', 'messageId'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * The transactional outbox: every order state change, and every change of a user's standing the
 * identity provider must follow, writes one of these in the same transaction as the change. The
 * table's stream carries new ones to the queues (an EventBridge Pipe in the cloud, the stream
 * poller locally); they expire by TTL once delivered. An order event has an orderId, a user event
 * a userId.
 */
const OutboxEvent = defineEntity({
  model: { entity: 'outboxEvent', version: '1', service },
  attributes: {
    eventId: { type: 'string', required: true, readOnly: true },
    orderId: { type: 'string', readOnly: true },
    userId: { type: 'string', readOnly: true },
    eventType: { type: 'string', required: true },
    description: { type: 'string', required: true },
    actorId: { type: 'string' },
    metadata: { type: 'any' },
    occurredAt: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    byEvent: { pk: { field: 'pk', composite: ['eventId'] }, sk: { field: 'sk', composite: [] } },
  },
});

/** Zip downloads built by the zip worker: one per order and kind, rebuilt when its sources change. */
const Download = defineEntity({
  model: { entity: 'download', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    /** 'edited' is the full-resolution delivery; 'mls' its MLS-ready copies. */
    kind: { type: ['edited', 'originals', 'mls'] as const, required: true, readOnly: true },
    status: { type: ['building', 'ready', 'failed'] as const, required: true },
    zipKey: { type: 'string' },
    sizeBytes: { type: 'number' },
    fileCount: { type: 'number' },
    sourceFingerprint: { type: 'string' },
    error: { type: 'string' },
    /** Progress while building, for the browser's progress bar. */
    filesDone: { type: 'number' },
    /** 'mls' only: when a download last asked the rendition worker for missing copies (one ask at a time). */
    copiesRequestedAt: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['kind'] },
    },
  },
});

/**
 * The photographer's delivery settings of an order: the edited photos' keys in listing order (the
 * first is the cover) and the long edge of its MLS-ready copies. Absent until the photographer
 * saves either: the listing then follows the originals' capture order. `version` goes up by one
 * with each save, which is conditional on the version the page loaded.
 */
const OrderDelivery = defineEntity({
  model: { entity: 'orderDelivery', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    sequence: { type: 'list', items: { type: 'string' } },
    version: { type: 'number', required: true, default: 0 },
    mlsLongEdge: { type: 'number' },
    updatedBy: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: [] },
    },
  },
});

/**
 * One MLS-ready copy of an edited photo at one long edge, made by the rendition worker; or a note
 * that the file was left out of the set (`skipped`, with the reason: a file sharp cannot read).
 * Keyed by the long edge and the edited file's key; `sourceSize` names the file it was made from,
 * so a redelivered event finds its copy made, and a file replaced in a revision is made again.
 */
const Rendition = defineEntity({
  model: { entity: 'rendition', version: '1', service },
  attributes: {
    orderId: { type: 'string', required: true, readOnly: true },
    longEdge: { type: 'number', required: true, readOnly: true, padding: { length: 5, char: '0' } },
    editedKey: { type: 'string', required: true, readOnly: true },
    sourceSize: { type: 'number', required: true },
    status: { type: ['ready', 'skipped'] as const, required: true },
    renditionKey: { type: 'string' },
    width: { type: 'number' },
    height: { type: 'number' },
    bytes: { type: 'number' },
    quality: { type: 'number' },
    reason: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byOrder: {
      collection: 'orderDetail',
      pk: { field: 'pk', composite: ['orderId'] },
      sk: { field: 'sk', composite: ['longEdge', 'editedKey'] },
    },
  },
});

/**
 * A link to a completed order's gallery for someone without an account. Keyed by the SHA-256 of
 * its token (the token itself is never stored); `linkId` names it to its photographer. Views and
 * downloads are counted on the item itself.
 */
const ShareLink = defineEntity({
  model: { entity: 'shareLink', version: '1', service },
  attributes: {
    tokenHash: { type: 'string', required: true, readOnly: true },
    linkId: { type: 'string', required: true, readOnly: true },
    orderId: { type: 'string', required: true, readOnly: true },
    photographerId: { type: 'string', required: true, readOnly: true },
    expiresAt: { type: 'string', required: true },
    revokedAt: { type: 'string' },
    views: { type: 'number', required: true, default: 0 },
    downloads: { type: 'number', required: true, default: 0 },
    lastViewedAt: { type: 'string' },
    ...timestamps,
  },
  indexes: {
    byToken: {
      pk: { field: 'pk', composite: ['tokenHash'] },
      sk: { field: 'sk', composite: [] },
    },
    /** An order's links, oldest first (link ids are ULIDs). */
    byOrder: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['orderId'] },
      sk: { field: 'gsi1sk', composite: ['linkId'] },
    },
  },
});

/**
 * A browser tab's live-update socket (API Gateway WebSocket connection), stored at $connect and
 * deleted at $disconnect or when API Gateway answers 410 Gone; `expiresAt` (TTL, epoch seconds)
 * removes one whose disconnect never arrived. The push worker finds a change's listeners through
 * the user partition (an order's photographer and editor) and the two sparse role partitions.
 */
const LiveConnection = defineEntity({
  model: { entity: 'liveConnection', version: '1', service },
  attributes: {
    connectionId: { type: 'string', required: true, readOnly: true },
    userId: { type: 'string', required: true, readOnly: true },
    roles: { type: 'list', items: { type: 'string' }, required: true, readOnly: true },
    /** 'editor' when the user held the role at connect: the editors' partition hears the pool. */
    isEditor: { type: 'string', readOnly: true },
    /** 'admin' likewise: the admins' partition hears every order. */
    isAdmin: { type: 'string', readOnly: true },
    connectedAt: { type: 'string', required: true, readOnly: true },
    expiresAt: { type: 'number', required: true, readOnly: true },
  },
  indexes: {
    byConnection: { pk: { field: 'pk', composite: ['connectionId'] }, sk: { field: 'sk', composite: [] } },
    byUser: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['userId'] },
      sk: { field: 'gsi1sk', composite: ['connectionId'] },
    },
    editors: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['isEditor'] },
      sk: { field: 'gsi2sk', composite: ['connectionId'] },
    },
    admins: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['isAdmin'] },
      sk: { field: 'gsi3sk', composite: ['connectionId'] },
    },
  },
});

/**
 * One UTC hour of the admin's Insights ('YYYY-MM-DDTHH'), kept by the rollup worker from the order
 * events, never by reading orders. Every hour is an item of one partition, so a range of days is
 * one bounded Query. Besides the totals named here, an item holds attributes named by what they
 * count, written by data/insights.ts: 'turnaround#<h>' (first completions whose payment-to-delivery
 * time fell in the histogram bucket ending at h hours), 'jobType#<id>' and 'editor#<id>' (maps).
 */
const InsightHour = defineEntity({
  model: { entity: 'insightHour', version: '1', service },
  attributes: {
    hour: { type: 'string', required: true, readOnly: true },
    ordersPaid: { type: 'number' },
    grossCents: { type: 'number' },
    refunds: { type: 'number' },
    refundsCents: { type: 'number' },
    /** First completions only: a re-delivery after a revision is not a new completion. */
    ordersCompleted: { type: 'number' },
    /** First completions at or before the order's due time. */
    completedWithinPromise: { type: 'number' },
    revisionRequests: { type: 'number' },
    /** The open pool's depth when the hour's latest pool event (by occurredAt) was rolled up. */
    poolDepth: { type: 'number' },
    poolSampledAt: { type: 'string' },
  },
  indexes: {
    byHour: {
      pk: { field: 'pk', composite: [], template: '$marketplace#insights' },
      sk: { field: 'sk', composite: ['hour'] },
    },
  },
});

/**
 * Account security: the user's own activity list (in the user's partition, newest first, kept a
 * year by TTL) and the email changes waiting for their link (found by the sha-256 of the link's
 * token; expiring by TTL). See data/security-activity.ts and data/email-changes.ts.
 */
const SecurityActivity = defineEntity({
  model: { entity: 'securityActivity', version: '1', service },
  attributes: {
    userId: { type: 'string', required: true, readOnly: true },
    activityId: { type: 'string', required: true, readOnly: true },
    kind: { type: 'string', required: true, readOnly: true },
    at: { type: 'string', required: true, readOnly: true },
    browser: { type: 'string', required: true, readOnly: true },
    ip: { type: 'string', readOnly: true },
    expiresAt: { type: 'number', required: true, readOnly: true },
  },
  indexes: {
    byUser: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: ['at', 'activityId'] } },
  },
});

const EmailChange = defineEntity({
  model: { entity: 'emailChange', version: '1', service },
  attributes: {
    tokenHash: { type: 'string', required: true, readOnly: true },
    changeId: { type: 'string', required: true, readOnly: true },
    userId: { type: 'string', required: true, readOnly: true },
    oldEmail: { type: 'string', required: true, readOnly: true },
    newEmail: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds: the link stops working then, and TTL removes the record a little later. */
    expiresAt: { type: 'number', required: true, readOnly: true },
    usedAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true, default: now },
  },
  indexes: {
    byToken: { pk: { field: 'pk', composite: ['tokenHash'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * 'Download my data' and 'Delete my account' (data/data-exports.ts, data/account-deletion.ts;
 * docs/decisions/0106). Function declarations, so the builders above can name them.
 *
 * dataExport: the account's latest data download, one item per account: a new request replaces it
 * on the condition that none is being prepared (one at a time). The zip sits under exports/.
 */
function DataExport() {
  return defineEntity({
    model: { entity: 'dataExport', version: '1', service },
    attributes: {
      userId: { type: 'string', required: true, readOnly: true },
      /** A ULID of the request; the zip's key and the worker's claim name it. */
      exportId: { type: 'string', required: true },
      status: { type: ['preparing', 'ready', 'failed'] as const, required: true },
      requestedAt: { type: 'string', required: true },
      readyAt: { type: 'string' },
      /** When the zip and its link stop working (S3's lifecycle removes the zip a day later). */
      expiresAt: { type: 'string' },
      zipKey: { type: 'string' },
      sizeBytes: { type: 'number' },
      /** How many records of each kind the zip holds. */
      counts: { type: 'any' },
      /** When the link went out by email: a redelivered message sends it no second time. */
      emailedAt: { type: 'string' },
      error: { type: 'string' },
      ...timestamps,
    },
    indexes: {
      byUser: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
    },
  });
}

/**
 * accountDeletion: an account its owner deleted, written in the transaction of the soft delete.
 * While `purgeQueue` is set ('due') the purge index (gsi1, one partition, by purgeAfter) lists it,
 * so the scheduled purge reads only what is due; the purge removes the mark with the personal fields.
 */
function AccountDeletion() {
  return defineEntity({
    model: { entity: 'accountDeletion', version: '1', service },
    attributes: {
      userId: { type: 'string', required: true, readOnly: true },
      deletedAt: { type: 'string', required: true, readOnly: true },
      purgeAfter: { type: 'string', required: true, readOnly: true },
      purgeQueue: { type: 'string' },
      purgedAt: { type: 'string' },
      ...timestamps,
    },
    indexes: {
      byUser: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
      purgeQueue: {
        index: 'gsi1',
        pk: { field: 'gsi1pk', composite: ['purgeQueue'] },
        sk: { field: 'gsi1sk', composite: ['purgeAfter', 'userId'] },
      },
    },
  });
}

/** Every entity's definition, by the name the data layer uses. */
export const definitions = {
  user: User,
  userEmail: UserEmail,
  invitation: Invitation,
  jobType: JobType,
  jobTypeName: JobTypeName,
  addOn: AddOn,
  editorRate: EditorRate,
  payout: Payout,
  order: Order,
  orderSearchWord: OrderSearchWord,
  orderImage: OrderImage,
  orderRevision: OrderRevision,
  orderImageMarks: OrderImageMarks,
  orderAddOns: OrderAddOns,
  orderEvent: OrderEvent,
  feedback: Feedback,
  counter: Counter,
  payment: Payment,
  billingEntry: BillingEntry,
  processedMessage: ProcessedMessage,
  download: Download,
  outboxEvent: OutboxEvent,
  orderDelivery: OrderDelivery,
  rendition: Rendition,
  shareLink: ShareLink,
  liveConnection: LiveConnection,
  insightHour: InsightHour,
  earning: Earning,
  bankPayout: BankPayout,
  dataExport: DataExport(),
  accountDeletion: AccountDeletion(),
  securityActivity: SecurityActivity,
  emailChange: EmailChange,
};
