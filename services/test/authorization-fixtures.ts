import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type CreateOrderResponse, editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import type { Role } from '@marketplace/events/roles';
import { ulid } from 'ulid';
import { ensureAddOn } from '../src/data/add-ons';
import { assignOrder } from '../src/data/admin-assignment';
import { orderBillingEntries } from '../src/data/billing';
import { createInvitation } from '../src/data/invitations';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  registerEdited,
} from '../src/data/orders';
import { createShareLink, hashShareToken, revokeShareLink } from '../src/data/share-links';
import { ensureStripeCustomer } from '../src/data/stripe-customers';
import { giveStripeAccount } from './payout-support';
import { stripe } from './stripe-sdk';
import {
  aNewAccount,
  aPhotographer,
  as,
  aUserWithRoles,
  call,
  db,
  forgedToken,
  type TestAccount,
  uniqueEmail,
} from './support';

/**
 * The callers and records the authorization matrix walks: real accounts at the auth emulator and
 * real orders in every state a route needs, made through the data layer where the API would take
 * a whole journey, and through the API where a real Stripe payment intent is needed.
 */
export type CallerName =
  | 'anonymous'
  | 'forged token'
  | 'expired token'
  | 'photographer A'
  | 'photographer B'
  | 'editor A'
  | 'editor B'
  | 'invited editor'
  | 'admin'
  | 'deactivated user'
  | 'suspended user';

export interface Caller {
  name: CallerName;
  /** Absent for the anonymous caller. */
  token?: string;
  /** 'bad-token': no token, or one the authorizer refuses; 'deactivated': deleted or suspended by an admin. */
  standing: 'bad-token' | 'active' | 'deactivated';
  uid: string;
  roles: readonly Role[];
}

const EDITOR_RATE_CENTS = 50;
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

export const putObject = (key: string, bytes: Buffer = randomBytes(300)) =>
  storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: 'image/jpeg' }));

const expectStatus = (what: string, response: { status: number; body: unknown }, status: number) => {
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
};

/** A paid order open to every editor, with one original in storage. */
const aPaidOrder = async (photographer: TestAccount) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Matrix Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: 1 },
    totalAmountCents: 800,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'webhook' });
  return (await getOrder(orderId))!;
};

/** Claimed by the editor, with one edited file in storage and registered. */
const anOrderInProgress = async (photographer: TestAccount, editor: TestAccount) => {
  const { orderId } = await aPaidOrder(photographer);
  await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Matrix Editor', email: editor.email },
    rateCents: EDITOR_RATE_CENTS,
  });
  const editedKey = `${editedPrefix(orderId)}${randomUUID()}-room.jpg`;
  const bytes = randomBytes(400);
  await putObject(editedKey, bytes);
  await registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key: editedKey,
    filename: 'room.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  return { order: (await getOrder(orderId))!, editedKey };
};

const aCompletedOrder = async (photographer: TestAccount, editor: TestAccount) => {
  const { order } = await anOrderInProgress(photographer, editor);
  await completeOrder({ orderId: order.orderId, editorId: editor.uid });
  return (await getOrder(order.orderId))!;
};

/** An order awaiting payment with a real payment intent at the Stripe fake and its one photo uploaded. */
const anOrderAwaitingPayment = async (photographer: TestAccount) => {
  const created = expectStatus(
    'create order',
    await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 }),
    201,
  ) as CreateOrderResponse;
  const orderId = created.order.id;
  const originalKey = `${originalsPrefix(orderId)}${randomUUID()}-front.jpg`;
  await putObject(originalKey);
  expectStatus(
    'register original',
    await as(photographer).post(`/api/orders/${orderId}/uploads/complete`, { key: originalKey, filename: 'front.jpg' }),
    200,
  );
  return { order: (await getOrder(orderId))!, originalKey };
};

/**
 * A completed order with share links: one to extend and one to revoke (the photographer's routes),
 * and for the public routes one that opens, one revoked and one expired.
 */
const aSharedOrder = async (photographer: TestAccount, editor: TestAccount) => {
  const order = await aCompletedOrder(photographer, editor);
  // One at a time: links made at once for one order queue behind its count of links made.
  const links = [];
  for (let i = 0; i < 5; i++) links.push(await createShareLink({ order, userId: photographer.uid }));
  const [toExtend, toRevoke, open, revoked, expired] = links;
  await revokeShareLink({ order, linkId: revoked!.id, userId: photographer.uid });
  // Expired as time would leave it: its expiry a minute ago.
  await db()
    .shareLink.patch({ tokenHash: hashShareToken(expired!.token) })
    .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
    .go();
  return {
    order,
    links: { toExtend: toExtend!.id, toRevoke: toRevoke!.id },
    tokens: { open: open!.token, revoked: revoked!.token, expired: expired!.token },
  };
};

/** Saved cards of the photographer's Stripe Customer: one to pay with, one to make default, one to remove. */
const savedCardsOf = async (photographer: TestAccount) => {
  const customer = await ensureStripeCustomer({ userId: photographer.uid, email: photographer.email });
  const client = await stripe();
  const attached: string[] = [];
  for (const testCard of ['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex']) {
    attached.push((await client.paymentMethods.attach(testCard, { customer })).id);
  }
  return { owner: photographer.uid, toPayWith: attached[0]!, toMakeDefault: attached[1]!, toRemove: attached[2]! };
};

export type Fixture = Awaited<ReturnType<typeof buildFixture>>;

/** Every caller, and every record a route of the table needs for an allowed caller to succeed. */
export const buildFixture = async () => {
  const [photographerA, photographerB, editorA, editorB, admin, deactivated, suspended] = await Promise.all([
    aPhotographer({ displayName: 'Photographer A' }),
    aPhotographer({ displayName: 'Photographer B' }),
    aUserWithRoles(['editor'], { displayName: 'Editor A' }),
    aUserWithRoles(['editor'], { displayName: 'Editor B' }),
    aUserWithRoles(['admin'], { displayName: 'Admin' }),
    // Both working roles, so every 403 it gets comes from its deletion, not from a missing role.
    aUserWithRoles(['photographer', 'editor'], { displayName: 'Deleted User' }),
    aUserWithRoles(['photographer', 'editor'], { displayName: 'Suspended User' }),
  ]);
  // Accounts an admin route changes, one per destructive route, so no caller is spoiled.
  const [setRoleTarget, addRoleTarget, removeRoleTarget, deactivateTarget, reactivateTarget, deleteTarget] =
    await Promise.all([
      aPhotographer(),
      aPhotographer(),
      aUserWithRoles(['photographer', 'editor']),
      aPhotographer(),
      aPhotographer(),
      aPhotographer(),
    ]);
  for (const account of [deactivated, reactivateTarget]) {
    expectStatus(
      'delete user',
      await call(`/api/admin/users/${account.uid}`, { method: 'DELETE', token: admin.token }),
      200,
    );
  }
  expectStatus('suspend user', await as(admin).patch(`/api/admin/users/${suspended.uid}/deactivate`), 200);

  // Invited, not signed up: a pending invitation for this email, and a Firebase account with it
  // whose first request made it an ordinary photographer (the editor role comes only with sign-up).
  const invitedEmail = uniqueEmail('invited');
  const invitation = await createInvitation({
    email: invitedEmail,
    displayName: 'Invited Editor',
    jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 60 }],
    invitedBy: admin.uid,
  });
  const invited = await aNewAccount({ email: invitedEmail, displayName: 'Invited Editor' });
  expectStatus('first sign-in of the invited editor', await as(invited).get('/api/auth/me'), 200);

  const [claimed, toComplete, toRate, toRevise, awaitingPayment, toCancel, shared] = await Promise.all([
    anOrderInProgress(photographerA, editorA),
    anOrderInProgress(photographerA, editorA),
    aCompletedOrder(photographerA, editorA),
    aCompletedOrder(photographerA, editorA),
    anOrderAwaitingPayment(photographerA),
    anOrderAwaitingPayment(photographerA),
    aSharedOrder(photographerA, editorA),
  ]);
  const [toPayWithSavedCard, savedCards] = await Promise.all([
    anOrderAwaitingPayment(photographerA),
    savedCardsOf(photographerA),
  ]);
  const [openForOthers, openForEditorA, openForEditorB, toAssign, toBulkAssign, toUnassign, offeredToEditorA] =
    await Promise.all([
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
      aPaidOrder(photographerA),
    ]);
  await assignOrder({ orderId: toUnassign.orderId, editorId: editorB.uid, adminId: admin.uid });
  await assignOrder({ orderId: offeredToEditorA.orderId, editorId: editorA.uid, adminId: admin.uid });

  // Completed, for the listing routes: its one edited file is the whole listing order.
  const toArrange = await anOrderInProgress(photographerA, editorA);
  await completeOrder({ orderId: toArrange.order.orderId, editorId: editorA.uid });

  // Editor B has set up payouts (onboarding completed at the Stripe fake): the refresh route reads a real
  // account; editor A is paid by hand (the payout route's probe).
  await giveStripeAccount(editorB, 'complete');

  // An add-on of the matrix's own, for the admin's update route.
  const matrixAddOnId = `matrix-${randomUUID().slice(0, 8)}`;
  await ensureAddOn({
    addOnId: matrixAddOnId,
    name: 'Matrix add-on',
    pricePerPhotoCents: 100,
    editorRatePerPhotoCents: 60,
    isActive: true,
    sortOrder: 900,
  });

  // A mark on the claimed order's photo, for the editor's tick.
  const claimedMarkedKey = `${originalsPrefix(claimed.order.orderId)}${randomUUID()}-marked.jpg`;
  await db()
    .orderImageMarks.put({
      orderId: claimed.order.orderId,
      key: claimedMarkedKey,
      marks: [
        {
          id: 'matrix-mark',
          kind: 'rect',
          points: [
            { x: 0.1, y: 0.1 },
            { x: 0.5, y: 0.5 },
          ],
          note: 'Remove the bin',
          done: false,
          round: 0,
        },
      ],
      markCount: 1,
      updatedBy: photographerA.uid,
    })
    .go();

  // An edited file in storage, not registered yet, for the registration route.
  const unregisteredEditedKey = `${editedPrefix(claimed.order.orderId)}${randomUUID()}-late.jpg`;
  await putObject(unregisteredEditedKey);

  const jobType = expectStatus(
    'create job type',
    await as(admin).post('/api/admin/job-types', { name: `Matrix ${randomUUID().slice(0, 8)}` }),
    201,
  ) as { id: string };
  const feedback = expectStatus(
    'submit feedback',
    await as(photographerA).post('/api/feedback', { type: 'general', message: 'The matrix left a note here.' }),
    201,
  ) as { id: string };

  const signedIn = (name: CallerName, account: TestAccount, roles: Role[]): Caller => ({
    name,
    token: account.token,
    standing: 'active',
    uid: account.uid,
    roles,
  });
  const now = Math.floor(Date.now() / 1000);
  const callers: Caller[] = [
    { name: 'anonymous', standing: 'bad-token', uid: '', roles: [] },
    {
      // A token of another Firebase project for photographer A: wrong issuer and audience.
      name: 'forged token',
      token: forgedToken({
        sub: photographerA.uid,
        iss: 'https://securetoken.google.com/another-project',
        aud: 'another-project',
      }),
      standing: 'bad-token',
      uid: photographerA.uid,
      roles: ['photographer'],
    },
    {
      name: 'expired token',
      token: forgedToken({ sub: photographerA.uid, iat: now - 7200, exp: now - 3600 }),
      standing: 'bad-token',
      uid: photographerA.uid,
      roles: ['photographer'],
    },
    signedIn('photographer A', photographerA, ['photographer']),
    signedIn('photographer B', photographerB, ['photographer']),
    signedIn('editor A', editorA, ['editor']),
    signedIn('editor B', editorB, ['editor']),
    signedIn('invited editor', invited, ['photographer']),
    signedIn('admin', admin, ['admin']),
    { ...signedIn('deactivated user', deactivated, ['photographer', 'editor']), standing: 'deactivated' },
    { ...signedIn('suspended user', suspended, ['photographer', 'editor']), standing: 'deactivated' },
  ];

  return {
    callers,
    accounts: { photographerA, photographerB, editorA, editorB, admin },
    invitation: { email: invitedEmail, token: invitation.token },
    orders: {
      /** Photographer A's, in progress with editor A, one edited file registered. */
      claimed: claimed.order,
      claimedEditedKey: claimed.editedKey,
      /** An original of the claimed order with one mark ('matrix-mark') on it. */
      claimedMarkedKey,
      unregisteredEditedKey,
      toComplete: toComplete.order,
      toRate,
      toRevise,
      /** Photographer A's, completed, one edited file: for the listing order and the MLS-ready zip. */
      toArrange: (await getOrder(toArrange.order.orderId))!,
      toArrangeEditedKey: toArrange.editedKey,
      awaitingPayment: awaitingPayment.order,
      awaitingPaymentOriginalKey: awaitingPayment.originalKey,
      toCancel: toCancel.order,
      /** Photographer A's, awaiting payment, photos uploaded: paid in one click with a saved card. */
      toPayWithSavedCard: toPayWithSavedCard.order,
      /** Paid and open: offered to every editor. Only refused claims are sent for it. */
      openForOthers,
      openForEditorA,
      openForEditorB,
      toAssign,
      toBulkAssign,
      toUnassign: (await getOrder(toUnassign.orderId))!,
      /** Paid and given to editor A by an admin, not claimed yet: offered to editor A alone. */
      offeredToEditorA: (await getOrder(offeredToEditorA.orderId))!,
      /** Photographer A's, completed, with share links. */
      shared: shared.order,
    } satisfies Record<string, OrderRecord | string>,
    shareLinks: shared.links,
    /** Cards saved to photographer A's Stripe Customer (owner: A's uid). */
    savedCards,
    /** The billing entry (and receipt) of the payment of photographer A's order toRate. */
    toRateReceiptId: (await orderBillingEntries(toRate.orderId))[0]!.entryId,
    /** Share tokens: one that opens the gallery, one revoked, one expired. */
    shareTokens: shared.tokens,
    users: { setRoleTarget, addRoleTarget, removeRoleTarget, deactivateTarget, reactivateTarget, deleteTarget },
    jobTypeId: jobType.id,
    addOnId: matrixAddOnId,
    feedbackId: feedback.id,
  };
};
