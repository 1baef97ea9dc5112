import type { QueueName } from '@marketplace/events/order-events';
import type { Role } from '@marketplace/events/roles';
import { marketplaceRoles } from './domain/permissions';

/**
 * THE route table. The CDK app makes one Lambda per entry and the local gateway serves the same
 * entries; nothing else lists routes. `handler` is a module under src/handlers exporting `handler`.
 */
export type Access = 'public' | 'signed-in' | readonly Role[];
/** 'ANY' serves every method (only the catch-all uses it). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** What a route's function may touch; the CDK app grants exactly these and nothing more. */
export type Grant =
  | 'table:read'
  | 'table:write'
  /** Sending email through SES (invitations, notifications). */
  | 'email:send'
  | 'photos:read'
  | 'photos:write'
  | `queue:${QueueName}`
  /** Reads the Stripe keys (secret key, webhook signing secret). */
  | 'stripe'
  /** PDF receipts under receipts/ in the photos bucket: read (presigned links) and write (the receipt worker). */
  | 'receipts:read'
  | 'receipts:write'
  /** Data downloads under exports/ in the photos bucket: read (presigned links) and write (the export worker, the purge). */
  | 'exports:read'
  | 'exports:write'
  /** Firebase Admin with a service account: the identity worker disabling and re-enabling sign-in. */
  | 'identity:admin'
  /** Posting to, and closing, the browsers' live-update connections (the WebSocket API's management endpoint). */
  | 'live:post'
  /** Reads the key that signs and checks the emails' unsubscribe links (a generated secret). */
  | 'unsubscribe:key';

/**
 * On whose records each allowed caller may act. 'none': the path names no record (a list of the
 * caller's own, a create, a public call). Otherwise, per role: the photographer's own order, the
 * order assigned to the editor (claimed, or given to them by an admin), an order offered to the
 * editor (paid and open, or assigned to them), any record (admin). A caller the route allows but
 * who has none of these to the record is told it does not exist (404), so ids leak nothing.
 */
export type RecordAccess =
  | 'none'
  | {
      readonly photographer?: 'own';
      readonly editor?: 'assigned' | 'offered' | 'assigned-or-offered';
      readonly admin?: 'any';
    };

export interface RouteDefinition {
  method: HttpMethod;
  path: `/api/${string}`;
  handler: string;
  allow: Access;
  /** Required: the authorization matrix test derives every expected answer from allow and records. */
  records: RecordAccess;
  grants: readonly Grant[];
  /** Keep the body as sent (webhook signatures are computed over the raw bytes). */
  rawBody?: boolean;
  /** Seconds; the default suits plain table reads and writes. */
  timeoutSeconds?: number;
}

const route = (
  method: HttpMethod,
  path: RouteDefinition['path'],
  handler: string,
  options: Omit<RouteDefinition, 'method' | 'path' | 'handler'>,
): RouteDefinition => ({ method, path, handler, ...options });

const read = ['table:read'] as const;
const readWrite = ['table:read', 'table:write'] as const;
const photographers = ['photographer'] as const satisfies readonly Role[];
const editors = ['editor'] as const satisfies readonly Role[];
const admins = ['admin'] as const satisfies readonly Role[];
const none = 'none';
const ownOrder = { photographer: 'own' } as const;
const assignedOrder = { editor: 'assigned' } as const;
const offeredOrder = { editor: 'offered' } as const;
/** canViewOrder: the photographer's own, the editor's assigned or offered, any for admins. */
const visibleOrder = { photographer: 'own', editor: 'assigned-or-offered', admin: 'any' } as const;
const anyRecord = { admin: 'any' } as const;
/** A saved card: the photographer's own when Stripe has it attached to their customer. */
const ownCard = { photographer: 'own' } as const;

export const routes: readonly RouteDefinition[] = [
  route('GET', '/api/health', 'system/health', { allow: 'public', records: none, grants: read }),
  // Every signed-in route writes: the first request of a new identity creates its user record.
  // photos:read: the avatar's and logo's URLs are presigned (in process, no call) with the function's permissions.
  route('GET', '/api/auth/me', 'auth/get-me', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'photos:read'],
  }),
  route('PATCH', '/api/auth/profile', 'auth/update-profile', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'photos:read'],
  }),
  // The profile's pictures (the caller's own): the image for everyone, the logo for photographers.
  // Uploaded straight to S3 like order photos; saving checks what arrived and deletes what it replaces.
  route('POST', '/api/profile/image/sign', 'profile/sign-image-upload', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('PUT', '/api/profile/image', 'profile/save-image', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('DELETE', '/api/profile/image', 'profile/remove-image', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('POST', '/api/profile/logo/sign', 'profile/sign-logo-upload', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('PUT', '/api/profile/logo', 'profile/save-logo', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('DELETE', '/api/profile/logo', 'profile/remove-logo', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  // A photographer's editing style (docs/decisions/0107): the saved choices and up to five
  // reference photos, uploaded straight to S3 like the profile's pictures (signed under their own folder).
  route('GET', '/api/profile/editing-style', 'profile/get-editing-style', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read'],
  }),
  route('PUT', '/api/profile/editing-style', 'profile/save-editing-style', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('POST', '/api/profile/editing-style/references/sign', 'profile/sign-style-reference-upload', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('GET', '/api/orders/job-types', 'orders/list-job-types', {
    allow: marketplaceRoles,
    records: none,
    grants: readWrite,
  }),
  // Add-ons (decision 0109): the offered ones for the picker.
  route('GET', '/api/orders/add-ons', 'orders/list-add-ons', {
    allow: photographers,
    records: none,
    grants: readWrite,
  }),
  // The photographer's journey: order, upload straight to S3, pay, follow, download, rate.
  route('POST', '/api/orders', 'orders/create-order', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'stripe'],
    timeoutSeconds: 15,
  }),
  // For API clients: the whole order in one multipart request (small files only, see docs/decisions/0035-order-with-files-capped-at-4-mb.md).
  route('POST', '/api/orders/with-files', 'orders/create-order-with-files', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'photos:write', 'stripe'],
    timeoutSeconds: 29,
  }),
  route('GET', '/api/orders/my', 'orders/list-my-orders', { allow: photographers, records: none, grants: readWrite }),
  route('GET', '/api/orders/{id}', 'orders/get-order', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: readWrite,
  }),
  // The style the order keeps (decision 0107), its reference photos presigned.
  route('GET', '/api/orders/{id}/editing-style', 'orders/get-order-editing-style', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: [...readWrite, 'photos:read'],
  }),
  // Each image with presigned GETs of its thumbnail and preview.
  route('GET', '/api/orders/{id}/images', 'orders/list-order-images', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: [...readWrite, 'photos:read'],
  }),
  route('POST', '/api/orders/{id}/uploads/sign', 'uploads/sign-upload', {
    allow: photographers,
    records: ownOrder,
    // Presigned requests act with this function's own permissions.
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('POST', '/api/orders/{id}/uploads/complete', 'uploads/register-upload', {
    allow: photographers,
    records: ownOrder,
    // Write: an upload larger than the browser declared is deleted on registration.
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('GET', '/api/orders/{id}/payment', 'payments/get-order-payment', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'stripe'],
  }),
  route('POST', '/api/orders/{id}/payment-success', 'payments/confirm-payment', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'stripe'],
  }),
  // Saved cards: 'Save this card for next time' on the order's intent, one-click payment with a
  // saved card, and the photographer's cards (own: attached to the caller's Stripe Customer).
  route('POST', '/api/orders/{id}/payment/save-card', 'payments/save-card', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'stripe'],
  }),
  route('POST', '/api/orders/{id}/payment/saved-card', 'payments/pay-with-saved-card', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'stripe'],
    timeoutSeconds: 15,
  }),
  route('GET', '/api/payment-methods', 'payments/list-payment-methods', {
    allow: photographers,
    records: none,
    grants: [...readWrite, 'stripe'],
  }),
  route('PUT', '/api/payment-methods/{paymentMethodId}/default', 'payments/set-default-payment-method', {
    allow: photographers,
    records: ownCard,
    grants: [...readWrite, 'stripe'],
  }),
  route('DELETE', '/api/payment-methods/{paymentMethodId}', 'payments/remove-payment-method', {
    allow: photographers,
    records: ownCard,
    grants: [...readWrite, 'stripe'],
  }),
  // Receipts and billing: a PDF per payment and refund (made by the receipt worker), the
  // photographer's billing history a page at a time, and a month of it as CSV.
  route('GET', '/api/orders/{id}/receipts', 'billing/list-order-receipts', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('GET', '/api/orders/{id}/receipts/{receiptId}', 'billing/get-receipt-link', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'receipts:read'],
  }),
  route('GET', '/api/billing/history', 'billing/list-billing-history', {
    allow: photographers,
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/billing/statement', 'billing/get-billing-statement', {
    allow: photographers,
    records: none,
    grants: readWrite,
  }),
  route('POST', '/api/webhooks/stripe', 'payments/stripe-webhook', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'stripe'],
    rawBody: true,
  }),
  route('GET', '/api/orders/{id}/download-completed', 'downloads/download-completed', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'photos:read', 'queue:zip-builds'],
  }),
  // Listing-ready delivery: the listing order and cover, the MLS size, the MLS-ready zip.
  route('GET', '/api/orders/{id}/sequence', 'orders/get-sequence', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'photos:read'],
  }),
  route('PUT', '/api/orders/{id}/sequence', 'orders/save-sequence', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('PUT', '/api/orders/{id}/mls-size', 'orders/set-mls-size', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  // Queues: the zip, and the copies when nothing is making them (an order completed before they existed).
  route('GET', '/api/orders/{id}/download-mls', 'downloads/download-mls', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'photos:read', 'queue:zip-builds', 'queue:renditions'],
  }),
  // Share links: the photographer hands their client the gallery; the client needs no account.
  route('POST', '/api/orders/{id}/share-links', 'share/create-share-link', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('GET', '/api/orders/{id}/share-links', 'share/list-share-links', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('PATCH', '/api/orders/{id}/share-links/{linkId}', 'share/update-share-link', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('DELETE', '/api/orders/{id}/share-links/{linkId}', 'share/revoke-share-link', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  // Public, scoped by the token: an unknown, expired or revoked token opens nothing (404). Write: the counts.
  route('GET', '/api/share/{token}', 'share/open-shared-gallery', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'photos:read'],
  }),
  route('GET', '/api/share/{token}/downloads/{kind}', 'share/download-shared-zip', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'photos:read', 'queue:zip-builds', 'queue:renditions'],
  }),
  route('POST', '/api/orders/{id}/rate', 'orders/rate-order', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  // Delivery you can see: a revision round back to the editor, and the editor's fix of a before/after pairing.
  route('POST', '/api/orders/{id}/revisions', 'orders/request-revision', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  // Marks drawn on the photos (shapes relative to the image, each with a note): whoever sees the
  // order reads them; the photographer replaces a photo's marks; the order's editor ticks them done.
  route('GET', '/api/orders/{id}/marks', 'orders/list-order-marks', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: readWrite,
  }),
  route('PUT', '/api/orders/{id}/marks', 'orders/save-image-marks', {
    allow: photographers,
    records: ownOrder,
    grants: readWrite,
  }),
  route('PATCH', '/api/orders/{id}/marks/done', 'orders/set-mark-done', {
    allow: editors,
    records: assignedOrder,
    grants: readWrite,
  }),
  // Add-ons on chosen photos (decision 0109): whoever sees the order reads its price and add-ons;
  // the photographer replaces them while it awaits payment (the payment intent's amount follows).
  route('GET', '/api/orders/{id}/add-ons', 'orders/get-order-add-ons', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: readWrite,
  }),
  route('PUT', '/api/orders/{id}/add-ons', 'orders/save-order-add-ons', {
    allow: photographers,
    records: ownOrder,
    grants: [...readWrite, 'stripe'],
    timeoutSeconds: 15,
  }),
  route('PATCH', '/api/orders/{id}/pairings', 'orders/pair-edited-image', {
    allow: editors,
    records: assignedOrder,
    grants: readWrite,
  }),
  route('GET', '/api/stats/photographer', 'stats/photographer-stats', {
    allow: photographers,
    records: none,
    grants: readWrite,
  }),
  // Email preferences: one switch per email kind the caller receives, and the emails' one-click
  // unsubscribe (RFC 8058), public: the signed token in the link is the credential, GET changes nothing.
  route('GET', '/api/account/notifications', 'notifications/get-notifications', {
    allow: 'signed-in',
    records: none,
    grants: readWrite,
  }),
  // Admins receive only emails that always go out: they have no switch to turn.
  route('PATCH', '/api/account/notifications', 'notifications/update-notifications', {
    allow: ['photographer', 'editor'],
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/unsubscribe', 'notifications/describe-unsubscribe', {
    allow: 'public',
    records: none,
    grants: [...read, 'unsubscribe:key'],
  }),
  route('POST', '/api/unsubscribe', 'notifications/unsubscribe', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'unsubscribe:key'],
  }),
  // Editors join by invitation (the two auth calls carry no token: the invitee has no account yet).
  route('POST', '/api/admin/invite-editor', 'admin/invite-editor', {
    allow: admins,
    records: none,
    grants: [...readWrite, 'email:send'],
  }),
  route('GET', '/api/auth/verify-invitation', 'auth/verify-invitation', {
    allow: 'public',
    records: none,
    grants: read,
  }),
  route('POST', '/api/auth/complete-signup', 'auth/complete-signup', {
    allow: 'public',
    records: none,
    grants: readWrite,
  }),
  // Account security (/profile 'Security'): the caller's own activity; password, email and
  // sign-out-everywhere changes need a recent sign-in (http/recent-sign-in.ts).
  route('GET', '/api/account/security-activity', 'account/list-security-activity', {
    allow: 'signed-in',
    records: none,
    grants: readWrite,
  }),
  // The new password is set at Firebase as the user (Identity Toolkit, the caller's own token).
  route('POST', '/api/account/password', 'account/change-password', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'email:send'],
    timeoutSeconds: 15,
  }),
  route('POST', '/api/account/email-change', 'account/request-email-change', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'email:send'],
  }),
  // Opened from the new address's mailbox: the link's single-use token is the credential.
  route('GET', '/api/account/email-change/{token}', 'account/get-email-change', {
    allow: 'public',
    records: none,
    grants: read,
  }),
  route('POST', '/api/account/email-change/{token}', 'account/confirm-email-change', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'email:send'],
  }),
  route('POST', '/api/account/sign-out-everywhere', 'account/sign-out-everywhere', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'email:send'],
  }),
  // The editor's journey: available orders, claim, originals, delivery, completion, earnings.
  route('GET', '/api/orders/available', 'orders/list-available-orders', {
    allow: editors,
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/orders/my-assignments', 'orders/list-my-assignments', {
    allow: editors,
    records: none,
    grants: readWrite,
  }),
  route('POST', '/api/orders/{id}/claim', 'orders/claim-order', {
    allow: editors,
    records: offeredOrder,
    grants: readWrite,
  }),
  route('POST', '/api/orders/{id}/complete', 'orders/complete-order', {
    allow: editors,
    records: assignedOrder,
    grants: readWrite,
  }),
  route('GET', '/api/orders/{id}/events', 'orders/list-order-events', {
    allow: marketplaceRoles,
    records: visibleOrder,
    grants: readWrite,
  }),
  route('GET', '/api/orders/{id}/images/download-all', 'downloads/download-originals', {
    allow: editors,
    records: assignedOrder,
    grants: [...readWrite, 'photos:read', 'queue:zip-builds'],
  }),
  route('POST', '/api/orders/{id}/edited-uploads/sign', 'uploads/sign-edited-upload', {
    allow: editors,
    records: assignedOrder,
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  route('POST', '/api/orders/{id}/edited-uploads/complete', 'uploads/register-edited-upload', {
    allow: editors,
    records: assignedOrder,
    // Write: an upload larger than the browser declared is deleted on registration.
    grants: [...readWrite, 'photos:read', 'photos:write'],
  }),
  // For small files and API clients: one edited file in a multipart body (field editedImage).
  route('POST', '/api/orders/{id}/images/upload', 'uploads/upload-edited-image', {
    allow: editors,
    records: assignedOrder,
    grants: [...readWrite, 'photos:write'],
    timeoutSeconds: 29,
  }),
  route('GET', '/api/stats/editor', 'stats/editor-stats', { allow: editors, records: none, grants: readWrite }),
  // Editors paid through Stripe Connect: their payout account (an Express connected account and
  // its hosted onboarding), their earnings and payouts, Stripe's Connect events, an admin's view.
  route('GET', '/api/payout-account', 'payouts/get-payout-account', {
    allow: editors,
    records: none,
    grants: readWrite,
  }),
  route('POST', '/api/payout-account/link', 'payouts/create-payout-link', {
    allow: editors,
    records: none,
    grants: [...readWrite, 'stripe'],
    timeoutSeconds: 15,
  }),
  route('POST', '/api/payout-account/refresh', 'payouts/refresh-payout-account', {
    allow: editors,
    records: none,
    grants: [...readWrite, 'stripe'],
  }),
  route('GET', '/api/earnings', 'payouts/list-earnings', { allow: editors, records: none, grants: readWrite }),
  route('GET', '/api/payouts', 'payouts/list-bank-payouts', { allow: editors, records: none, grants: readWrite }),
  route('POST', '/api/stripe/connect-webhook', 'payments/stripe-connect-webhook', {
    allow: 'public',
    records: none,
    grants: [...readWrite, 'stripe'],
    rawBody: true,
  }),
  route('GET', '/api/admin/editors/{id}/earnings', 'admin/list-editor-earnings', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  // The admin console: orders and assignment, refunds, users and roles, editors, job types, feedback.
  route('GET', '/api/orders/admin/all', 'admin/list-orders', { allow: admins, records: none, grants: readWrite }),
  route('PATCH', '/api/orders/admin/{id}/assign', 'admin/assign-order', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('DELETE', '/api/orders/admin/{id}/unassign', 'admin/unassign-order', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('POST', '/api/orders/admin/bulk-assign', 'admin/bulk-assign-orders', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
    timeoutSeconds: 29,
  }),
  route('POST', '/api/orders/admin/{id}/cancel', 'admin/cancel-order', {
    allow: admins,
    records: anyRecord,
    grants: [...readWrite, 'stripe'],
    timeoutSeconds: 15,
  }),
  route('GET', '/api/admin/users', 'admin/list-users', { allow: admins, records: none, grants: readWrite }),
  route('PATCH', '/api/admin/users/{id}/role', 'admin/set-user-role', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('POST', '/api/admin/users/{id}/roles', 'admin/add-user-role', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('DELETE', '/api/admin/users/{id}/roles/{role}', 'admin/remove-user-role', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('PATCH', '/api/admin/users/{id}/deactivate', 'admin/deactivate-user', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('PATCH', '/api/admin/users/{id}/reactivate', 'admin/reactivate-user', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('DELETE', '/api/admin/users/{id}', 'admin/delete-user', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('GET', '/api/admin/invited-users', 'admin/list-invited-users', {
    allow: admins,
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/admin/check-email/{email}', 'admin/check-email', {
    allow: admins,
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/admin/editors', 'admin/list-editors', { allow: admins, records: none, grants: readWrite }),
  route('PATCH', '/api/admin/editors/{id}/rates', 'admin/update-editor-rates', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('PUT', '/api/admin/editors/{id}/rates', 'admin/replace-editor-rates', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('GET', '/api/admin/editors/{id}/stats', 'admin/editor-stats', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('GET', '/api/admin/editors/{id}/payouts', 'admin/list-editor-payouts', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('POST', '/api/admin/editors/{id}/payouts', 'admin/record-editor-payout', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  // Operations you can see: revenue, turnaround, the pool and the editors, from hourly rollups.
  route('GET', '/api/admin/insights', 'admin/get-insights', { allow: admins, records: none, grants: readWrite }),
  route('GET', '/api/admin/job-types', 'admin/list-job-types', { allow: admins, records: none, grants: readWrite }),
  route('POST', '/api/admin/job-types', 'admin/create-job-type', { allow: admins, records: none, grants: readWrite }),
  route('PATCH', '/api/admin/job-types/{id}', 'admin/update-job-type', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  // The add-ons catalogue, beside the job types: withdrawing one is a PATCH of isActive.
  route('GET', '/api/admin/job-types/add-ons', 'admin/list-add-ons', {
    allow: admins,
    records: none,
    grants: readWrite,
  }),
  route('POST', '/api/admin/job-types/add-ons', 'admin/create-add-on', {
    allow: admins,
    records: none,
    grants: readWrite,
  }),
  route('PATCH', '/api/admin/job-types/add-ons/{id}', 'admin/update-add-on', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('GET', '/api/feedback/all', 'feedback/list-all-feedback', { allow: admins, records: none, grants: readWrite }),
  route('GET', '/api/feedback/stats', 'feedback/feedback-stats', { allow: admins, records: none, grants: readWrite }),
  route('PUT', '/api/feedback/{id}', 'feedback/update-feedback', {
    allow: admins,
    records: anyRecord,
    grants: readWrite,
  }),
  route('POST', '/api/feedback', 'feedback/submit-feedback', { allow: 'signed-in', records: none, grants: readWrite }),
  route('GET', '/api/feedback/my', 'feedback/list-my-feedback', {
    allow: 'signed-in',
    records: none,
    grants: readWrite,
  }),
  // 'Download my data' and 'Delete my account' (the caller's own account; docs/decisions/0106): the
  // request (one at a time, a fresh sign-in), its state with a fresh link, and the owner's soft delete.
  route('POST', '/api/account/data-export', 'account/request-data-export', {
    allow: 'signed-in',
    records: none,
    grants: readWrite,
  }),
  route('GET', '/api/account/data-export', 'account/get-data-export', {
    allow: 'signed-in',
    records: none,
    grants: [...readWrite, 'exports:read'],
  }),
  route('POST', '/api/account/delete', 'account/delete-account', {
    allow: 'signed-in',
    records: none,
    grants: readWrite,
  }),
  // Last resort for any other /api path, so an unknown route answers our JSON 404 in the cloud too.
  route('ANY', '/api/{proxy+}', 'system/not-found', { allow: 'public', records: none, grants: [] }),
];

/** API Gateway's route key, e.g. "GET /api/orders/{id}": how a handler finds its own entry. */
export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>) => `${r.method} ${r.path}`;

export const routeByKey = new Map(routes.map((r) => [routeKey(r), r]));

/** A name safe for CloudFormation logical ids and function names: "GET /api/auth/me" -> "GetApiAuthMe". */
export const routeName = (r: Pick<RouteDefinition, 'method' | 'path'>) =>
  [r.method.toLowerCase(), ...r.path.split(/[^A-Za-z0-9]+/)]
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
