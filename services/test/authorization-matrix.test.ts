import { randomBytes, randomUUID } from 'node:crypto';
import { defaultEditingStyle, styleReferencePrefix } from '@marketplace/events/editing-style';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../src/data/orders';
import { signUnsubscribeToken } from '../src/domain/unsubscribe-token';
import { type RecordAccess, type RouteDefinition, routeKey, routes } from '../src/routes';
import { buildFixture, type Caller, type Fixture } from './authorization-fixtures';
import { matrixPictureKey, placeMatrixPictures } from './profile-pictures';
import { aUserWithRoles, uniqueEmail } from './support';

/**
 * Every route of the table x every caller, through the local gateway, against what the route's
 * `allow` and `records` declare: no or a bad token 401, a deactivated user 403, a role the route
 * does not allow 403, an allowed role on a record that is not theirs 404, and otherwise an answer
 * that is not a refusal (2xx). Public routes answer alike for every caller (their `answer`).
 */
interface Probe {
  /** Defaults to the route's method (GET for ANY). */
  method?: string;
  path: string;
  body?: unknown;
  /** A multipart body, built afresh for each call. */
  form?: () => FormData;
  headers?: Record<string, string>;
  /** The order the path names: the caller's relation to it decides between success and 404. */
  order?: OrderRecord;
  /** For a record that is no order (a saved card): whose it is, for `own`. */
  owner?: string;
  /** Which record, when a route is probed with more than one (e.g. 'an open order'). */
  record?: string;
  /** Public routes only: the answer every caller gets ('2xx' where a zip may be ready or still building). */
  answer?: Expected;
  /**
   * Sent instead of the caller's token: a fresh sign-in of a stand-in with the caller's roles, for
   * the account-security routes, which would end the caller's own sessions or change its password
   * (and need a sign-in of the last five minutes).
   */
  token?: Promise<string>;
}

type Expected = number | '2xx';

const aJpeg = () => new Blob([new Uint8Array(randomBytes(300))], { type: 'image/jpeg' });
const rates = [{ jobTypeId: 'hdr', ratePerPhotoCents: 55 }];

/** What each route is called with: real ids and valid input, so only authorization can refuse it. */
const probesFor = (fx: Fixture): Record<string, (caller: Caller) => Probe | Probe[]> => {
  const { orders, users, accounts } = fx;
  const claimed = orders.claimed;
  const onClaimed =
    (suffix: string, extra: Partial<Probe> = {}) =>
    () => ({
      path: `/api/orders/${claimed.orderId}${suffix}`,
      order: claimed,
      ...extra,
    });
  /** A read open to whoever may see the order: probed on an order in each relation to the callers. */
  const onEveryOrder = (suffix: string) => () =>
    (
      [
        [claimed, 'an order in progress with editor A'],
        [orders.openForOthers, 'an open order'],
        [orders.offeredToEditorA, 'an order offered to editor A alone'],
      ] as const
    ).map(([order, record]) => ({ path: `/api/orders/${order.orderId}${suffix}`, order, record }));
  const sharedProbes = (suffix: string): Probe[] =>
    (
      [
        [fx.shareTokens.open, 'a link that opens', suffix ? '2xx' : 200],
        [randomBytes(32).toString('base64url'), 'a wrong token', 404],
        [fx.shareTokens.revoked, 'a revoked link', 404],
        [fx.shareTokens.expired, 'an expired link', 404],
      ] as const
    ).map(([token, record, answer]) => ({ path: `/api/share/${token}${suffix}`, record, answer }));
  const unsubscribeProbes = (): Probe[] => {
    const key = process.env.UNSUBSCRIBE_KEY!;
    const userId = accounts.photographerB.uid;
    const valid = signUnsubscribeToken(key, { userId, kind: 'editor_started' });
    const expired = signUnsubscribeToken(key, {
      userId,
      kind: 'editor_started',
      now: new Date(Date.now() - 100 * 24 * 60 * 60 * 1000),
    });
    return (
      [
        [valid, 'a link that works', 200],
        [signUnsubscribeToken('not-the-stack-key', { userId, kind: 'editor_started' }), 'a forged link', 400],
        [expired, 'an expired link', 410],
      ] as const
    ).map(([token, record, answer]) => ({
      path: `/api/unsubscribe?token=${encodeURIComponent(token)}`,
      record,
      answer,
    }));
  };
  /** An active caller's stand-in: a new account with its roles, signed in just now. */
  const standIn = (caller: Caller): Pick<Probe, 'token'> =>
    caller.standing === 'active' ? { token: aUserWithRoles([...caller.roles]).then((account) => account.token) } : {};
  const newJobTypeName = `Matrix ${randomUUID().slice(0, 8)}`;
  const invitee = uniqueEmail('matrix-invitee');
  return {
    'GET /api/health': () => ({ path: '/api/health', answer: 200 }),
    'GET /api/auth/me': () => ({ path: '/api/auth/me' }),
    'PATCH /api/auth/profile': () => ({ path: '/api/auth/profile', body: { displayName: 'Matrix Caller' } }),
    // The profile's pictures: each caller signs and saves its own (placed in S3 before), and removes it.
    ...Object.fromEntries(
      (['image', 'logo'] as const).flatMap((kind) => [
        [
          `POST /api/profile/${kind}/sign`,
          (caller: Caller) => ({
            path: `/api/profile/${kind}/sign`,
            body: { method: 'PUT', key: matrixPictureKey(caller.uid, kind), contentType: 'image/png', size: 100 },
          }),
        ],
        [
          `PUT /api/profile/${kind}`,
          (caller: Caller) => ({
            path: `/api/profile/${kind}`,
            body: { key: matrixPictureKey(caller.uid, kind), filename: 'matrix-picture.png' },
          }),
        ],
        [`DELETE /api/profile/${kind}`, () => ({ path: `/api/profile/${kind}` })],
      ]),
    ),
    // The editing style: each photographer reads, saves and signs uploads under their own folder.
    'GET /api/profile/editing-style': () => ({ path: '/api/profile/editing-style' }),
    'PUT /api/profile/editing-style': () => ({
      path: '/api/profile/editing-style',
      body: { ...defaultEditingStyle, notes: 'Matrix style' },
    }),
    'POST /api/profile/editing-style/references/sign': (caller: Caller) => ({
      path: '/api/profile/editing-style/references/sign',
      body: {
        method: 'PUT',
        key: `${styleReferencePrefix(caller.uid)}matrix.png`,
        contentType: 'image/png',
        size: 100,
      },
    }),
    'GET /api/orders/job-types': () => ({ path: '/api/orders/job-types' }),
    'GET /api/orders/add-ons': () => ({ path: '/api/orders/add-ons' }),
    'POST /api/orders': () => ({ path: '/api/orders', body: { jobTypeId: 'hdr', photoCount: 1 } }),
    'POST /api/orders/with-files': () => ({
      path: '/api/orders/with-files',
      form: () => {
        const form = new FormData();
        form.append('jobTypeId', 'hdr');
        form.append('photoCount', '1');
        form.append('photos', aJpeg(), 'front.jpg');
        return form;
      },
    }),
    'GET /api/orders/my': () => ({ path: '/api/orders/my' }),
    'GET /api/orders/{id}': onEveryOrder(''),
    'GET /api/orders/{id}/images': onEveryOrder('/images'),
    'GET /api/orders/{id}/editing-style': onEveryOrder('/editing-style'),
    'POST /api/orders/{id}/uploads/sign': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/uploads/sign`,
      order: orders.awaitingPayment,
      body: {
        method: 'PUT',
        key: `${originalsPrefix(orders.awaitingPayment.orderId)}${randomUUID()}-back.jpg`,
        size: 300,
        contentType: 'image/jpeg',
      },
    }),
    'POST /api/orders/{id}/uploads/complete': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/uploads/complete`,
      order: orders.awaitingPayment,
      // Registered in the set-up already: registering again counts once and answers the image.
      body: { key: orders.awaitingPaymentOriginalKey, filename: 'front.jpg' },
    }),
    'GET /api/orders/{id}/payment': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/payment`,
      order: orders.awaitingPayment,
    }),
    'POST /api/orders/{id}/payment-success': onClaimed('/payment-success', {
      body: { paymentIntentId: claimed.stripePaymentIntentId },
    }),
    'POST /api/orders/{id}/payment/save-card': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/payment/save-card`,
      order: orders.awaitingPayment,
      body: { saveCard: true },
    }),
    'POST /api/orders/{id}/payment/saved-card': () => ({
      path: `/api/orders/${orders.toPayWithSavedCard.orderId}/payment/saved-card`,
      order: orders.toPayWithSavedCard,
      body: {
        paymentMethodId: fx.savedCards.toPayWith,
        returnUrl: `${process.env.SITE_URL}/orders/${orders.toPayWithSavedCard.orderId}/payment`,
      },
    }),
    'GET /api/payment-methods': () => ({ path: '/api/payment-methods' }),
    'PUT /api/payment-methods/{paymentMethodId}/default': () => ({
      path: `/api/payment-methods/${fx.savedCards.toMakeDefault}/default`,
      owner: fx.savedCards.owner,
    }),
    'DELETE /api/payment-methods/{paymentMethodId}': () => ({
      path: `/api/payment-methods/${fx.savedCards.toRemove}`,
      owner: fx.savedCards.owner,
    }),
    'GET /api/orders/{id}/receipts': () => ({
      path: `/api/orders/${orders.toRate.orderId}/receipts`,
      order: orders.toRate,
    }),
    'GET /api/orders/{id}/receipts/{receiptId}': () => ({
      path: `/api/orders/${orders.toRate.orderId}/receipts/${fx.toRateReceiptId}`,
      order: orders.toRate,
    }),
    'GET /api/billing/history': () => ({ path: '/api/billing/history?limit=5' }),
    'GET /api/billing/statement': () => ({
      path: `/api/billing/statement?month=${new Date().toISOString().slice(0, 7)}&tz=Europe%2FBerlin`,
    }),
    'POST /api/webhooks/stripe': () => ({
      path: '/api/webhooks/stripe',
      headers: { 'stripe-signature': 't=1,v1=forged' },
      body: { type: 'payment_intent.succeeded', data: { object: { metadata: { orderId: claimed.orderId } } } },
      answer: 400,
    }),
    'GET /api/orders/{id}/download-completed': () => ({
      path: `/api/orders/${orders.toRate.orderId}/download-completed`,
      order: orders.toRate,
    }),
    'POST /api/orders/{id}/share-links': () => ({
      path: `/api/orders/${orders.shared.orderId}/share-links`,
      order: orders.shared,
      body: { expiresInDays: 7 },
    }),
    'GET /api/orders/{id}/share-links': () => ({
      path: `/api/orders/${orders.shared.orderId}/share-links`,
      order: orders.shared,
    }),
    'PATCH /api/orders/{id}/share-links/{linkId}': () => ({
      path: `/api/orders/${orders.shared.orderId}/share-links/${fx.shareLinks.toExtend}`,
      order: orders.shared,
      body: { expiresInDays: 14 },
    }),
    'DELETE /api/orders/{id}/share-links/{linkId}': () => ({
      path: `/api/orders/${orders.shared.orderId}/share-links/${fx.shareLinks.toRevoke}`,
      order: orders.shared,
    }),
    // Public, scoped by the token: whoever calls, a link that opens answers, and a wrong, revoked or expired one 404.
    'GET /api/share/{token}': () => sharedProbes(''),
    'GET /api/share/{token}/downloads/{kind}': () => sharedProbes('/downloads/full'),
    'GET /api/orders/{id}/sequence': () => ({
      path: `/api/orders/${orders.toArrange.orderId}/sequence`,
      order: orders.toArrange,
    }),
    'PUT /api/orders/{id}/sequence': () => ({
      path: `/api/orders/${orders.toArrange.orderId}/sequence`,
      order: orders.toArrange,
      body: { keys: [orders.toArrangeEditedKey], version: 0, replace: true },
    }),
    'PUT /api/orders/{id}/mls-size': () => ({
      path: `/api/orders/${orders.toArrange.orderId}/mls-size`,
      order: orders.toArrange,
      body: { longEdge: 1024 },
    }),
    'GET /api/orders/{id}/download-mls': () => ({
      path: `/api/orders/${orders.toArrange.orderId}/download-mls`,
      order: orders.toArrange,
    }),
    'POST /api/orders/{id}/rate': () => ({
      path: `/api/orders/${orders.toRate.orderId}/rate`,
      order: orders.toRate,
      body: { rating: 9 },
    }),
    'POST /api/orders/{id}/revisions': () => ({
      path: `/api/orders/${orders.toRevise.orderId}/revisions`,
      order: orders.toRevise,
      body: { note: 'Brighten the kitchen, please.' },
    }),
    'GET /api/orders/{id}/marks': onEveryOrder('/marks'),
    'PUT /api/orders/{id}/marks': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/marks`,
      order: orders.awaitingPayment,
      body: {
        key: orders.awaitingPaymentOriginalKey,
        marks: [
          {
            id: 'm1',
            kind: 'ellipse',
            points: [
              { x: 0.2, y: 0.2 },
              { x: 0.4, y: 0.6 },
            ],
            note: 'Remove the bin',
          },
        ],
      },
    }),
    'PATCH /api/orders/{id}/marks/done': onClaimed('/marks/done', {
      body: { key: orders.claimedMarkedKey, markId: 'matrix-mark', done: true },
    }),
    'GET /api/orders/{id}/add-ons': onEveryOrder('/add-ons'),
    'PUT /api/orders/{id}/add-ons': () => ({
      path: `/api/orders/${orders.awaitingPayment.orderId}/add-ons`,
      order: orders.awaitingPayment,
      body: { photos: [{ key: orders.awaitingPaymentOriginalKey, addOnIds: ['sky-replacement'] }] },
    }),
    'PATCH /api/orders/{id}/pairings': onClaimed('/pairings', {
      body: { editedKey: orders.claimedEditedKey, originalKey: null },
    }),
    'GET /api/stats/photographer': () => ({ path: '/api/stats/photographer' }),
    // Email preferences: each caller switches a kind of their own role; the unsubscribe link's
    // token is the credential, so every caller gets the same answer for the same link.
    'GET /api/account/notifications': () => ({ path: '/api/account/notifications' }),
    'PATCH /api/account/notifications': (caller) => ({
      path: '/api/account/notifications',
      body: { emails: caller.roles.includes('editor') ? { order_assigned: true } : { photos_ready: true } },
    }),
    'GET /api/unsubscribe': () => unsubscribeProbes(),
    // (The one-click form body is not read: email-preferences.test sends it.)
    'POST /api/unsubscribe': () => unsubscribeProbes(),
    'POST /api/admin/invite-editor': () => ({
      path: '/api/admin/invite-editor',
      body: { email: invitee, displayName: 'Matrix Invitee', jobTypeRates: rates },
    }),
    // Account security: an active caller acts through a stand-in of its roles (see Probe.token);
    // the email-change link's token is the credential, and one never issued is a 404 for anyone.
    'GET /api/account/security-activity': () => ({ path: '/api/account/security-activity' }),
    'POST /api/account/password': (caller) => ({
      path: '/api/account/password',
      body: { newPassword: 'matrix-passw0rd' },
      ...standIn(caller),
    }),
    'POST /api/account/email-change': (caller) => ({
      path: '/api/account/email-change',
      body: { newEmail: uniqueEmail('matrix-moved') },
      ...standIn(caller),
    }),
    'GET /api/account/email-change/{token}': () => ({
      path: `/api/account/email-change/${'A'.repeat(43)}`,
      answer: 404,
    }),
    'POST /api/account/email-change/{token}': () => ({
      path: `/api/account/email-change/${'A'.repeat(43)}`,
      answer: 404,
    }),
    'POST /api/account/sign-out-everywhere': (caller) => ({
      path: '/api/account/sign-out-everywhere',
      ...standIn(caller),
    }),
    // 'Download my data' and 'Delete my account': the caller's own account, through a stand-in of
    // its roles (one request at a time, and a deletion, must not touch the matrix's callers).
    'POST /api/account/data-export': (caller) => ({ path: '/api/account/data-export', body: {}, ...standIn(caller) }),
    'GET /api/account/data-export': () => ({ path: '/api/account/data-export' }),
    'POST /api/account/delete': (caller) => ({
      path: '/api/account/delete',
      body: { confirmation: 'DELETE' },
      ...standIn(caller),
    }),
    'GET /api/auth/verify-invitation': () => ({
      path: `/api/auth/verify-invitation?${new URLSearchParams(fx.invitation)}`,
      answer: 200,
    }),
    'POST /api/auth/complete-signup': (caller) => ({
      path: '/api/auth/complete-signup',
      // A token that was never issued: refused alike whoever asks, and nothing is consumed.
      body: {
        email: fx.invitation.email,
        token: randomBytes(32).toString('base64url'),
        firebaseUid: caller.uid || 'nobody',
      },
      answer: 400,
    }),
    'GET /api/orders/available': () => ({ path: '/api/orders/available' }),
    'GET /api/orders/my-assignments': () => ({ path: '/api/orders/my-assignments' }),
    'POST /api/orders/{id}/claim': (caller) => {
      // Each editor who may claim gets an order of their own, so neither claim spoils the other.
      const order =
        caller.name === 'editor A'
          ? orders.openForEditorA
          : caller.name === 'editor B'
            ? orders.openForEditorB
            : orders.openForOthers;
      const claim = (o: OrderRecord, record: string) => ({ path: `/api/orders/${o.orderId}/claim`, order: o, record });
      // An order an admin gave to editor A is not there for anyone else to claim.
      return caller.name === 'editor A'
        ? [claim(order, 'an open order')]
        : [claim(order, 'an open order'), claim(orders.offeredToEditorA, 'an order offered to editor A alone')];
    },
    'POST /api/orders/{id}/complete': () => ({
      path: `/api/orders/${orders.toComplete.orderId}/complete`,
      order: orders.toComplete,
      body: { editorNotes: 'Done.' },
    }),
    'GET /api/orders/{id}/events': onEveryOrder('/events'),
    'GET /api/orders/{id}/images/download-all': onClaimed('/images/download-all'),
    'POST /api/orders/{id}/edited-uploads/sign': onClaimed('/edited-uploads/sign', {
      body: {
        method: 'PUT',
        key: `${editedPrefix(claimed.orderId)}${randomUUID()}-sky.jpg`,
        size: 300,
        contentType: 'image/jpeg',
      },
    }),
    'POST /api/orders/{id}/edited-uploads/complete': onClaimed('/edited-uploads/complete', {
      body: { key: orders.unregisteredEditedKey, filename: 'late.jpg' },
    }),
    'POST /api/orders/{id}/images/upload': onClaimed('/images/upload', {
      form: () => {
        const form = new FormData();
        form.append('editedImage', aJpeg(), 'hall.jpg');
        return form;
      },
    }),
    'GET /api/stats/editor': () => ({ path: '/api/stats/editor' }),
    // Editors' payouts: their own account, earnings and payouts (no record in the path), Stripe's Connect endpoint.
    'GET /api/payout-account': () => ({ path: '/api/payout-account' }),
    'POST /api/payout-account/link': () => ({ path: '/api/payout-account/link', body: { returnTo: 'profile' } }),
    'POST /api/payout-account/refresh': () => ({
      path: '/api/payout-account/refresh',
      body: { returnedFrom: 'onboarding' },
    }),
    'GET /api/earnings': () => ({ path: '/api/earnings?limit=5' }),
    'GET /api/payouts': () => ({ path: '/api/payouts?limit=5' }),
    'POST /api/stripe/connect-webhook': () => ({
      path: '/api/stripe/connect-webhook',
      headers: { 'stripe-signature': 't=1,v1=forged' },
      body: { type: 'account.updated', account: 'acct_forged', data: { object: { id: 'acct_forged' } } },
      answer: 400,
    }),
    'GET /api/admin/editors/{id}/earnings': () => ({ path: `/api/admin/editors/${accounts.editorA.uid}/earnings` }),
    'GET /api/orders/admin/all': () => ({ path: '/api/orders/admin/all' }),
    'PATCH /api/orders/admin/{id}/assign': () => ({
      path: `/api/orders/admin/${orders.toAssign.orderId}/assign`,
      order: orders.toAssign,
      body: { editorId: accounts.editorB.uid },
    }),
    'DELETE /api/orders/admin/{id}/unassign': () => ({
      path: `/api/orders/admin/${orders.toUnassign.orderId}/unassign`,
      order: orders.toUnassign,
    }),
    'POST /api/orders/admin/bulk-assign': () => ({
      path: '/api/orders/admin/bulk-assign',
      body: { orderIds: [orders.toBulkAssign.orderId], editorId: accounts.editorB.uid },
    }),
    'POST /api/orders/admin/{id}/cancel': () => ({
      path: `/api/orders/admin/${orders.toCancel.orderId}/cancel`,
      order: orders.toCancel,
    }),
    'GET /api/admin/users': () => ({ path: '/api/admin/users' }),
    'PATCH /api/admin/users/{id}/role': () => ({
      path: `/api/admin/users/${users.setRoleTarget.uid}/role`,
      body: { role: 'editor' },
    }),
    'POST /api/admin/users/{id}/roles': () => ({
      path: `/api/admin/users/${users.addRoleTarget.uid}/roles`,
      body: { role: 'editor' },
    }),
    'DELETE /api/admin/users/{id}/roles/{role}': () => ({
      path: `/api/admin/users/${users.removeRoleTarget.uid}/roles/editor`,
    }),
    'PATCH /api/admin/users/{id}/deactivate': () => ({
      path: `/api/admin/users/${users.deactivateTarget.uid}/deactivate`,
    }),
    'PATCH /api/admin/users/{id}/reactivate': () => ({
      path: `/api/admin/users/${users.reactivateTarget.uid}/reactivate`,
    }),
    'DELETE /api/admin/users/{id}': () => ({ path: `/api/admin/users/${users.deleteTarget.uid}` }),
    'GET /api/admin/invited-users': () => ({ path: '/api/admin/invited-users' }),
    'GET /api/admin/check-email/{email}': () => ({
      path: `/api/admin/check-email/${encodeURIComponent(fx.invitation.email)}`,
    }),
    'GET /api/admin/editors': () => ({ path: '/api/admin/editors' }),
    'PATCH /api/admin/editors/{id}/rates': () => ({
      path: `/api/admin/editors/${accounts.editorB.uid}/rates`,
      body: { jobTypeRates: rates },
    }),
    'PUT /api/admin/editors/{id}/rates': () => ({
      path: `/api/admin/editors/${accounts.editorB.uid}/rates`,
      body: { jobTypeRates: rates },
    }),
    'GET /api/admin/editors/{id}/stats': () => ({ path: `/api/admin/editors/${accounts.editorA.uid}/stats` }),
    'GET /api/admin/editors/{id}/payouts': () => ({ path: `/api/admin/editors/${accounts.editorA.uid}/payouts` }),
    'POST /api/admin/editors/{id}/payouts': () => ({
      path: `/api/admin/editors/${accounts.editorA.uid}/payouts`,
      body: { amountCents: 1, note: 'Matrix payout' },
    }),
    'GET /api/admin/insights': () => ({ path: '/api/admin/insights?range=7&tz=Europe%2FBerlin' }),
    'GET /api/admin/job-types': () => ({ path: '/api/admin/job-types' }),
    'POST /api/admin/job-types': () => ({ path: '/api/admin/job-types', body: { name: newJobTypeName } }),
    'PATCH /api/admin/job-types/{id}': () => ({
      path: `/api/admin/job-types/${fx.jobTypeId}`,
      body: { description: 'Changed by the matrix' },
    }),
    'GET /api/admin/job-types/add-ons': () => ({ path: '/api/admin/job-types/add-ons' }),
    'POST /api/admin/job-types/add-ons': () => ({
      path: '/api/admin/job-types/add-ons',
      body: { name: `Matrix add-on ${randomUUID().slice(0, 8)}`, sortOrder: 999 },
    }),
    'PATCH /api/admin/job-types/add-ons/{id}': () => ({
      path: `/api/admin/job-types/add-ons/${fx.addOnId}`,
      body: { description: 'Changed by the matrix' },
    }),
    'GET /api/feedback/all': () => ({ path: '/api/feedback/all' }),
    'GET /api/feedback/stats': () => ({ path: '/api/feedback/stats' }),
    'PUT /api/feedback/{id}': () => ({ path: `/api/feedback/${fx.feedbackId}`, body: { status: 'resolved' } }),
    'POST /api/feedback': () => ({
      path: '/api/feedback',
      body: { type: 'suggestion', message: 'A note from the authorization matrix.' },
    }),
    'GET /api/feedback/my': () => ({ path: '/api/feedback/my' }),
    'ANY /api/{proxy+}': () => ({ path: '/api/no-such-route', answer: 404 }),
  };
};

/** How the caller stands to an order, in the words of the route table's `records`. */
const relationsTo = (caller: Caller, order: OrderRecord | undefined, owner?: string) => ({
  own: (owner ?? order?.photographerId) === caller.uid,
  assigned: order?.editorId === caller.uid,
  offered: order?.status === 'paid' && (order.pool === 'open' || order.pool === caller.uid),
});

const mayActOn = (records: Exclude<RecordAccess, 'none'>, caller: Caller, probe: Probe) => {
  const relation = relationsTo(caller, probe.order, probe.owner);
  return caller.roles.some((role) => {
    const scope = records[role];
    if (scope === 'any') return true;
    if (scope === 'own') return relation.own;
    if (scope === 'assigned') return relation.assigned;
    if (scope === 'offered') return relation.offered;
    if (scope === 'assigned-or-offered') return relation.assigned || relation.offered;
    return false;
  });
};

/** The answer the route table's declaration implies for this caller. */
const expectedAnswer = (route: RouteDefinition, caller: Caller, probe: Probe): Expected => {
  if (route.allow === 'public') return probe.answer ?? Number.NaN;
  if (caller.standing === 'bad-token') return 401;
  if (caller.standing === 'deactivated') return 403;
  if (route.allow !== 'signed-in' && !route.allow.some((role) => caller.roles.includes(role))) return 403;
  if (route.records === 'none') return '2xx';
  return mayActOn(route.records, caller, probe) ? '2xx' : 404;
};

const send = async (route: RouteDefinition, caller: Caller, probe: Probe) => {
  const headers: Record<string, string> = { ...probe.headers };
  const token = probe.token ? await probe.token : caller.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | FormData | undefined;
  if (probe.form) body = probe.form();
  else if (probe.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(probe.body);
  }
  try {
    const response = await fetch(`${process.env.API_URL}${probe.path}`, {
      method: probe.method ?? (route.method === 'ANY' ? 'GET' : route.method),
      headers,
      body,
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
};

/** Runs the tasks a few at a time, in order of start. */
const inParallel = async <T>(tasks: (() => Promise<T>)[], concurrency = 8) => {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
};

const matches = (expected: Expected, status: number) =>
  expected === '2xx' ? status >= 200 && status < 300 : status === expected;

interface Cell {
  route: RouteDefinition;
  caller: Caller;
  probe: Probe;
  expected: Expected;
}

describe('the authorization matrix', () => {
  let fx: Fixture;

  beforeAll(async () => {
    fx = await buildFixture();
    await placeMatrixPictures(fx.callers.filter((caller) => caller.uid).map((caller) => caller.uid));
  }, 300_000);

  it('declares for each route records only for roles it allows', () => {
    const inconsistent = routes.flatMap((route) => {
      if (route.records === 'none') return [];
      if (route.allow === 'public') return [`${routeKey(route)}: a public route names no records`];
      const allowed = route.allow === 'signed-in' ? null : route.allow;
      return Object.keys(route.records)
        .filter((role) => allowed && !allowed.includes(role as never))
        .map((role) => `${routeKey(route)}: records for ${role}, which the route does not allow`);
    });
    expect(inconsistent).toEqual([]);
  });

  it('answers every route x every caller as the route table declares', async () => {
    const probes = probesFor(fx);
    const problems: string[] = [];
    const known = new Set(routes.map(routeKey));
    for (const key of Object.keys(probes)) {
      if (!known.has(key)) problems.push(`${key}: a probe for a route the table no longer has`);
    }
    const cells: Cell[] = [];
    for (const route of routes) {
      const probeFor = probes[routeKey(route)];
      if (!probeFor) {
        problems.push(`${routeKey(route)}: no expectation in the authorization matrix; add a probe for it`);
        continue;
      }
      for (const caller of fx.callers) {
        for (const probe of [probeFor(caller)].flat()) {
          cells.push({ route, caller, probe, expected: expectedAnswer(route, caller, probe) });
        }
      }
    }
    // Refusals first: they must change nothing, so the records are still as the set-up left them
    // when the allowed callers act on them.
    const refusals = cells.filter((cell) => cell.expected !== '2xx');
    const successes = cells.filter((cell) => cell.expected === '2xx');
    const answers = [
      ...(await inParallel(refusals.map((cell) => () => send(cell.route, cell.caller, cell.probe)))),
      ...(await inParallel(successes.map((cell) => () => send(cell.route, cell.caller, cell.probe)))),
    ];
    [...refusals, ...successes].forEach((cell, i) => {
      const got = answers[i]!;
      if (!matches(cell.expected, got)) {
        problems.push(
          `${cell.route.method} ${cell.route.path}  ${cell.caller.name}${cell.probe.record ? ` (${cell.probe.record})` : ''}: expected ${cell.expected}, got ${got}`,
        );
      }
    });
    expect(problems, `${problems.length} cells differ from the route table:\n${problems.join('\n')}`).toEqual([]);
  }, 300_000);
});
