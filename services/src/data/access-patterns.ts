/**
 * Every question the marketplace asks of its table, and the key that answers it. All are Queries
 * or GetItems on a key or index (never a Scan); entities.ts defines the indexes named here, and a
 * test checks that each one exists so this list cannot drift from the code.
 */
export interface AccessPattern {
  question: string;
  entity: string;
  index: string;
  /** The key shape, in words: partition key -> sort key (and any filter on the bounded result). */
  key: string;
}

export const accessPatterns: readonly AccessPattern[] = [
  // Users and sign-in
  { question: 'A user by id (every signed-in request)', entity: 'user', index: 'byId', key: 'userId' },
  {
    question: 'A user by email (ops, invitations, sign-up)',
    entity: 'user',
    index: 'byEmail',
    key: 'email (lower-cased)',
  },
  {
    question: 'The one account an email belongs to (the uniqueness guard of every account creation)',
    entity: 'userEmail',
    index: 'byEmail',
    key: 'email (lower-cased)',
  },
  {
    question: 'Users for the admin, newest first, by status and role, deleted ones optionally',
    entity: 'user',
    index: 'all',
    key: "one partition -> createdAt, userId; a page after a cursor is a key condition; the photographer role, isActive and placeholders are filters that drop few rows (a page looks at no more than a fixed number of rows; a short page then carries the cursor where it stopped); totals from the 'userTotals' counters",
  },
  {
    question: 'The admins among the users, newest first (the role filter)',
    entity: 'user',
    index: 'admins',
    key: "isAdmin ('admin', sparse) -> createdAt, userId; kept in step with roles by every role write",
  },
  {
    question: 'Users of one status, newest first (the status filter; invited editors not signed up yet)',
    entity: 'user',
    index: 'byStatus',
    key: 'status -> createdAt, userId; invited editors are the placeholders in the invited partition',
  },
  {
    question: 'Editors for the admin and for assignment (the editor role filter)',
    entity: 'user',
    index: 'editors',
    key: "isEditor ('editor', sparse) -> createdAt, userId; paged by cursor; totals from the 'userTotals' counters",
  },
  { question: 'An invitation by its token hash', entity: 'invitation', index: 'byToken', key: 'sha-256 of the token' },
  { question: 'Invitations sent to an email', entity: 'invitation', index: 'byEmail', key: 'email -> createdAt' },
  // Prices and pay
  { question: 'Active job types', entity: 'jobType', index: 'all', key: 'one partition -> name; isActive is a filter' },
  {
    question: 'A job type by id (prices come from here, never the browser)',
    entity: 'jobType',
    index: 'byId',
    key: 'jobTypeId',
  },
  {
    question: 'Is this job type name taken? (create and rename, race-safe)',
    entity: 'jobTypeName',
    index: 'byName',
    key: 'name lower-cased, spaces collapsed; claimed in the same transaction as the job type',
  },
  {
    question: 'The add-ons catalogue (admin: all; photographers: active ones)',
    entity: 'addOn',
    index: 'all',
    key: 'one partition -> sortOrder, addOnId; isActive is a filter',
  },
  {
    question: 'An add-on by id',
    entity: 'addOn',
    index: 'byId',
    key: "addOnId (the admin's change; an order is priced from the catalogue, read whole)",
  },
  { question: "An editor's rates", entity: 'editorRate', index: 'byEditor', key: 'editorId -> jobTypeId' },
  {
    question: "An editor's payouts, newest first, a page at a time",
    entity: 'payout',
    index: 'byEditor',
    key: "editorId -> payoutId (a ULID: time order); after a cursor, a key range from the first payout to it; the ops command's older entries (counter scope 'payouts#<id>') merged in by id",
  },
  // Orders
  {
    question: "A photographer's orders, newest first",
    entity: 'order',
    index: 'byPhotographer',
    key: 'photographerId -> createdAt',
  },
  {
    question: 'One order with its images, events and downloads in one Query',
    entity: 'order',
    index: 'byId',
    key: 'orderId (collection orderDetail: order, orderImage, orderRevision, orderEvent, download, orderDelivery, rendition)',
  },
  {
    question:
      'Available orders newest or oldest first (paid, unclaimed; unassigned or assigned to me), all or with/without requirements',
    entity: 'order',
    index: 'poolByDate',
    key: "poolPartition (the open pool's shards 'open#0'..'open#3' by order id, the legacy 'open' partition, or the assigned editor's id; sparse) -> hasRequirements ('yes' | 'no'), createdAt, orderId; one Query per partition and flag, a few rows each, merged; after a cursor each is a BETWEEN from the cursor's key to the end of the flag, so every page reads about one page; page N without a cursor reads the rows before it, at most 200; total = the pool counters of 'open' and of the editor (two Queries)",
  },
  {
    question: 'Available orders, highest price first, with the same filters',
    entity: 'order',
    index: 'poolByPrice',
    key: 'poolPartition -> hasRequirements, totalAmountCents (zero-padded), orderId; merged, paged and totalled like poolByDate',
  },
  {
    question:
      'Available orders by time left (soonest due first), all tiers or one (Standard, Express, Rush), with the same filters',
    entity: 'order',
    index: 'poolByDue',
    key: "poolPartition -> hasRequirements, turnaroundTier, dueAt, orderId; one Query per partition, flag and tier (one tier when filtered), merged and paged like poolByDate; total = the pools' tier counters ('tier#<tier>#<flag>[#shard]' in the same scopes, moved with the flag counters)",
  },
  {
    question: "An editor's in-progress assignments and completed orders",
    entity: 'order',
    index: 'byEditor',
    key: "editorId (sparse) -> status, createdAt, orderId; begins_with status; My Assignments merges the in_progress and revision_requested prefixes a page at a time (after a cursor, a key range from the status to it); total from the editor's activeOrders counter",
  },
  {
    question: "The admin's orders: assigned, unassigned or all, newest or oldest first, 25 a page",
    entity: 'order',
    index: 'byAssignment',
    key: "assignment ('assigned' | 'unassigned') -> createdAt, orderId; 'all' merges both partitions; a page after a cursor is a key condition (> or < the cursor's sort key), so every page reads one page per partition; totals from the 'orders' counters",
  },
  {
    question: "The admin's orders, most photos first, with the same filters",
    entity: 'order',
    index: 'byAssignmentPhotos',
    key: 'assignment -> photoCount (zero-padded), createdAt, orderId; merged and paged like byAssignment',
  },
  {
    question: "The admin's orders, photographer A-Z, with the same filters",
    entity: 'order',
    index: 'byAssignmentPhotographer',
    key: 'assignment -> photographerSortName, createdAt, orderId; merged and paged like byAssignment',
  },
  {
    question: "The admin's order search by photographer name, order name or number",
    entity: 'orderSearchWord',
    index: 'byWord',
    key: "first character of the word -> word, orderId; begins_with the term's longest word reads only the matching words (at most 1,000: moreMatches says when there are more), which carry assignment, createdAt, photoCount and photographerSortName to filter and sort on; the page's orders are then read by id",
  },
  {
    question: "An order's images by kind (originals, edited)",
    entity: 'orderImage',
    index: 'byOrder',
    key: 'orderId -> kind, key',
  },
  {
    question: "An order's revision rounds, first to last (read with the order's detail)",
    entity: 'orderRevision',
    index: 'byOrder',
    key: 'orderId -> round (zero-padded)',
  },
  {
    question: "The marks drawn on an order's photos (one item per original, at most one per photo)",
    entity: 'orderImageMarks',
    index: 'byOrder',
    key: 'orderId -> key (the original); GetItem for one photo',
  },
  {
    question: 'Which add-ons each photo of an order has (one item per order)',
    entity: 'orderAddOns',
    index: 'byOrder',
    key: 'orderId',
  },
  {
    question: "An order's activity log in time order",
    entity: 'orderEvent',
    index: 'byOrder',
    key: 'orderId -> eventId (ULID)',
  },
  { question: "An order's zip downloads", entity: 'download', index: 'byOrder', key: 'orderId -> kind' },
  // Listing-ready delivery
  {
    question: "An order's listing order, cover and MLS size (one item)",
    entity: 'orderDelivery',
    index: 'byOrder',
    key: 'orderId',
  },
  {
    question: "An order's MLS-ready copies at one long edge",
    entity: 'rendition',
    index: 'byOrder',
    key: 'orderId -> longEdge (begins with), editedKey',
  },
  {
    question: 'A share link by its token (the public gallery)',
    entity: 'shareLink',
    index: 'byToken',
    key: 'SHA-256 of the token',
  },
  {
    question: "An order's share links, oldest first",
    entity: 'shareLink',
    index: 'byOrder',
    key: 'orderId -> linkId (ULID)',
  },
  // Payments and idempotency
  {
    question: 'A payment by its Stripe payment intent (webhook)',
    entity: 'payment',
    index: 'byIntent',
    key: 'paymentIntentId',
  },
  { question: "An order's payments", entity: 'payment', index: 'byOrder', key: 'orderId -> createdAt' },
  {
    question: "A photographer's billing history, newest first, and a month of it (the CSV)",
    entity: 'billingEntry',
    index: 'byPhotographer',
    key: "photographerId -> entryId (a ULID of the payment or refund: descending, a page after a cursor; a month is a BETWEEN of its first and last instant's ULIDs)",
  },
  {
    question: "An order's payments and refunds with their receipts (the order page)",
    entity: 'billingEntry',
    index: 'byOrder',
    key: 'orderId -> entryId',
  },
  {
    question: 'Was this webhook event or message already handled?',
    entity: 'processedMessage',
    index: 'byMessage',
    key: 'source, messageId (expires by TTL)',
  },
  {
    question: 'New order events waiting for the stream to carry them (the outbox)',
    entity: 'outboxEvent',
    index: 'byEvent',
    key: 'eventId (read only by the stream, expires by TTL)',
  },
  // Feedback
  { question: "A user's own feedback, newest first", entity: 'feedback', index: 'byUser', key: 'userId -> createdAt' },
  {
    question: 'All feedback by status, newest first',
    entity: 'feedback',
    index: 'byStatus',
    key: "status -> createdAt, feedbackId; 'all' merges the four partitions a page at a time after a cursor; totals from the 'feedback' counters",
  },
  {
    question: 'Feedback of one type, by status or all, newest first',
    entity: 'feedback',
    index: 'byTypeAndStatus',
    key: "type, status -> createdAt, feedbackId; a type with 'all' statuses merges its four partitions like byStatus",
  },
  { question: 'One feedback item (admin update)', entity: 'feedback', index: 'byId', key: 'feedbackId' },
  // Dashboards without reading every order
  {
    question: 'Dashboard stats and feedback counts (photographer, editor, admin)',
    entity: 'counter',
    index: 'byScope',
    key: "scope ('feedback', 'photographer#<id>', 'editor#<id>', 'orders', 'pool#<pool partition>') -> name; kept by the writes in the same transaction",
  },
  {
    question: "The admin's user and editor totals, for any filter",
    entity: 'counter',
    index: 'byScope',
    key: "scope 'userTotals' -> 'role#<role|any>#<account|invited>#<active|deleted>#<status>' (48 cells); a filter's total is the sum of up to 12; moved in the transaction of every user write",
  },
  // Editors paid through Stripe (data/earnings.ts, data/bank-payouts.ts)
  {
    question: "An order's earning (completion, revision, refund, release)",
    entity: 'earning',
    index: 'byOrder',
    key: "orderId (in the order's partition)",
  },
  {
    question: "An editor's earnings, newest first (their Payouts list, the admin's view of their transfers)",
    entity: 'earning',
    index: 'byEditor',
    key: 'editorId -> bookedAt, orderId; a page after a cursor',
  },
  {
    question: 'The earnings due for release now (the scheduled release)',
    entity: 'earning',
    index: 'releaseQueue',
    key: "releaseQueue ('due', sparse: only earnings waiting for their transfer) -> nextAttemptAt <= now, orderId; a page at a time",
  },
  {
    question: "An editor's earnings waiting for their payout account (its account.updated)",
    entity: 'earning',
    index: 'awaitingAccount',
    key: 'awaitingAccountOf (editorId, sparse) -> orderId',
  },
  {
    question: "An editor's earnings in their Stripe balance, oldest first (a payout.paid pays them)",
    entity: 'earning',
    index: 'inTransit',
    key: 'inTransitOf (editorId, sparse) -> bookedAt, orderId (releases follow bookings)',
  },
  {
    question: 'Every transfer made, oldest first (npm run ops -- check-transfers)',
    entity: 'earning',
    index: 'transfers',
    key: "transferLedger ('transfers', sparse) -> bookedAt, orderId; paged",
  },
  {
    question: "An editor's bank payouts, newest first, and one by its Stripe id and time",
    entity: 'bankPayout',
    index: 'byEditor',
    key: "editorId (the user's partition) -> createdAt, payoutId",
  },
  // The admin's Insights
  {
    question: "The admin's Insights: the hourly rollups of a range of days in the admin's time zone",
    entity: 'insightHour',
    index: 'byHour',
    key: "one partition ('insights') -> hour (UTC, 'YYYY-MM-DDTHH'); a BETWEEN of the range's first and last hour (at most 24 x 91 + a few, paged); the open pool's last sample before the range: the hours before it, newest first, with a sample, a day at a time for at most a week",
  },
  // Live updates
  {
    question: 'A live-update connection by id (its disconnect, or a 410 from API Gateway)',
    entity: 'liveConnection',
    index: 'byConnection',
    key: 'connectionId',
  },
  {
    question: "A user's open tabs (the photographer and editor of a changed order; a suspended user's sockets)",
    entity: 'liveConnection',
    index: 'byUser',
    key: 'userId -> connectionId',
  },
  {
    question: 'The connected editors (a change of the open pool)',
    entity: 'liveConnection',
    index: 'editors',
    key: "isEditor ('editor', sparse) -> connectionId; a page at a time, expired ones filtered",
  },
  {
    question: 'The connected admins (every order change)',
    entity: 'liveConnection',
    index: 'admins',
    key: "isAdmin ('admin', sparse) -> connectionId; a page at a time, expired ones filtered",
  },
  // Account security
  {
    question: "A user's own security activity, newest first ('Recent security activity')",
    entity: 'securityActivity',
    index: 'byUser',
    key: 'userId (the user partition) -> at, activityId; a page before a cursor is a key condition; TTL after a year',
  },
  {
    question: 'An email change by the token of its verification link',
    entity: 'emailChange',
    index: 'byToken',
    key: 'sha-256 of the token',
  },
  // 'Download my data' and 'Delete my account' (docs/decisions/0106)
  {
    question: "An account's latest data download (one at a time: the request is a conditional put)",
    entity: 'dataExport',
    index: 'byUser',
    key: 'userId',
  },
  {
    question: "An account's records for its data download, a page at a time",
    entity: 'order',
    index: 'byPhotographer',
    key: "photographerId -> createdAt, orderId (and the editor's byEditor); each order's events, images, payments and share links by the order's own keys; billing entries, feedback, earnings and security activity by the user's",
  },
  {
    question: 'An account deleted by its owner: its purge',
    entity: 'accountDeletion',
    index: 'byUser',
    key: 'userId',
  },
  {
    question: 'The deleted accounts whose retention has passed (the scheduled purge)',
    entity: 'accountDeletion',
    index: 'purgeQueue',
    key: "purgeQueue ('due', sparse: removed by the purge) -> purgeAfter, userId; a key range up to now, a batch a run",
  },
];
