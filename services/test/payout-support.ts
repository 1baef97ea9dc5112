import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import type { StripeFault } from '../local/stripe-fake';
import { type EarningRecord, getEarning } from '../src/data/earnings';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { stripe } from './stripe-sdk';
import type { TestAccount } from './support';

/**
 * Builders for the editors' payouts: completed orders with their earnings, the Stripe fake's
 * onboarding page driven as a browser would, the platform's balance, faults and what the fake holds.
 */
export const stripeUrl = () => process.env.STRIPE_API_URL!;
const secretKey = () => process.env.STRIPE_SECRET_KEY!;

/** A call to the fake as our platform (the secret key), optionally on a connected account. */
export const atStripe = async <T = Record<string, unknown>>(
  path: string,
  { method = 'GET', form, account }: { method?: string; form?: Record<string, string>; account?: string } = {},
) => {
  const response = await fetch(`${stripeUrl()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secretKey()}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(account ? { 'stripe-account': account } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
};

/** The transfers the fake holds for one order (its transfer group). */
export const transfersOf = async (orderId: string) =>
  (
    await atStripe<{ data: { id: string; amount: number; amount_reversed: number; destination: string }[] }>(
      `/v1/transfers?transfer_group=${encodeURIComponent(orderId)}&limit=100`,
    )
  ).body.data;

export const stripeFault = async (fault: Partial<StripeFault> & { path: string }) => {
  const response = await fetch(`${stripeUrl()}/__faults`, { method: 'POST', body: JSON.stringify(fault) });
  if (!response.ok) throw new Error(`fault not set: ${response.status} ${await response.text()}`);
};

/**
 * Money in the platform's balance, as charges put it there: a card payment confirmed at the fake
 * (its charges are available at once), so transfers of this size are never short of funds.
 */
export const fundPlatform = async (amountCents = 100_000) => {
  const client = await stripe();
  await client.paymentIntents.create({
    amount: amountCents,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
    description: 'Platform funds for payout tests',
  });
};

/**
 * The onboarding stand-in, as the editor's browser uses it: opens the link, picks one of its three
 * buttons, and answers where Stripe sends the browser next (the return or the refresh URL).
 */
export const onboard = async (linkUrl: string, choice: 'complete' | 'incomplete' | 'later') => {
  const page = await fetch(linkUrl);
  const html = await page.text();
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!session || !action) throw new Error(`the onboarding page has no form: ${html.slice(0, 300)}`);
  const posted = await fetch(new URL(action, linkUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, choice }).toString(),
    redirect: 'manual',
  });
  await posted.arrayBuffer();
  return posted.headers.get('location');
};

const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

/**
 * A paid order (data layer, no card involved) claimed by the editor at `rateCents` a photo, one
 * edited file delivered, completed: its earning is booked, held for the revision window.
 */
export const aCompletedOrder = async (
  photographer: Pick<TestAccount, 'uid'>,
  editor: Pick<TestAccount, 'uid' | 'email'>,
  { photoCount = 2, rateCents = 150, pricePerPhotoCents = 800 } = {},
) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Payout Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents },
    input: { photoCount },
    totalAmountCents: photoCount * pricePerPhotoCents,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: photoCount * pricePerPhotoCents, via: 'webhook' });
  await claimOrder({ orderId, editor: { userId: editor.uid, name: 'Payout Editor', email: editor.email }, rateCents });
  const key = `${editedPrefix(orderId)}${randomUUID()}-room.jpg`;
  const bytes = randomBytes(300);
  await storage().send(
    new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET, Key: key, Body: bytes, ContentType: 'image/jpeg' }),
  );
  await registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key,
    filename: 'room.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  await completeOrder({ orderId, editorId: editor.uid });
  return { order: (await getOrder(orderId))!, earning: (await getEarning(orderId, { consistent: true }))! };
};

/** The editor re-delivers an order sent back for a revision: one more edited file, then complete. */
export const aRedelivery = async (orderId: string, editor: Pick<TestAccount, 'uid'>) => {
  const key = `${editedPrefix(orderId)}${randomUUID()}-room-v2.jpg`;
  const bytes = randomBytes(300);
  await storage().send(
    new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET, Key: key, Body: bytes, ContentType: 'image/jpeg' }),
  );
  await registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key,
    filename: 'room-v2.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  await completeOrder({ orderId, editorId: editor.uid });
};

/**
 * An order paid through the API and the Stripe fake (a real charge, so a refund at Stripe has
 * something to refund), then claimed, delivered and completed as `aCompletedOrder` does.
 */
export const aCompletedOrderPaidByCard = async (
  photographer: TestAccount,
  editor: Pick<TestAccount, 'uid' | 'email'>,
  { photoCount = 2, rateCents = 150 } = {},
) => {
  const { as } = await import('./support');
  const { registerOriginal } = await import('../src/data/orders');
  const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount });
  if (created.status !== 201) throw new Error(`create order: ${created.status} ${JSON.stringify(created.body)}`);
  const { order, stripeClientSecret } = created.body as {
    order: { id: string; stripePaymentIntentId: string };
    stripeClientSecret: string;
  };
  for (let i = 0; i < photoCount; i++) {
    await registerOriginal({
      order: (await getOrder(order.id))!,
      key: `orders/${order.id}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
  const confirmed = await fetch(`${stripeUrl()}/v1/payment_intents/${order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: stripeClientSecret }),
  });
  if (!confirmed.ok) throw new Error(`confirm: ${confirmed.status} ${await confirmed.text()}`);
  const paid = await as(photographer).post(`/api/orders/${order.id}/payment-success`, {
    paymentIntentId: order.stripePaymentIntentId,
  });
  if (paid.status !== 200) throw new Error(`payment-success: ${paid.status} ${JSON.stringify(paid.body)}`);
  await claimOrder({
    orderId: order.id,
    editor: { userId: editor.uid, name: 'Payout Editor', email: editor.email },
    rateCents,
  });
  await aRedelivery(order.id, editor);
  return {
    order: (await getOrder(order.id))!,
    earning: (await getEarning(order.id, { consistent: true }))!,
    paymentIntentId: order.stripePaymentIntentId,
  };
};

/** A refund made at Stripe, as an admin makes one in the Dashboard: the fake then sends charge.refunded. */
export const refundAtStripe = async (paymentIntentId: string, amountCents?: number) => {
  const refund = await atStripe<{ id: string; amount: number; status: string }>('/v1/refunds', {
    method: 'POST',
    form: { payment_intent: paymentIntentId, ...(amountCents ? { amount: String(amountCents) } : {}) },
  });
  if (refund.status !== 200) throw new Error(`refund: ${refund.status} ${JSON.stringify(refund.body)}`);
  return refund.body;
};

export const earningOf = async (orderId: string) => (await getEarning(orderId, { consistent: true })) as EarningRecord;

const DAY_MS = 24 * 60 * 60 * 1000;
/** A moment after an earning's window closed. */
export const afterWindow = (earning: Pick<EarningRecord, 'releaseAt'>, extraMs = 60_000) =>
  new Date(Date.parse(earning.releaseAt!) + extraMs);
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

/**
 * The editor sets up payouts as the profile page does: 'Set up payouts' (the link route), the
 * onboarding stand-in, then back on the page the server reads the account. Answers its id.
 */
export const giveStripeAccount = async (editor: TestAccount, choice: 'complete' | 'incomplete' = 'complete') => {
  const { as, db } = await import('./support');
  const link = await as(editor).post('/api/payout-account/link', { returnTo: 'profile' });
  if (link.status !== 200) throw new Error(`payout link: ${link.status} ${JSON.stringify(link.body)}`);
  await onboard(link.body.url, choice);
  const refreshed = await as(editor).post('/api/payout-account/refresh', { returnedFrom: 'onboarding' });
  const expected = choice === 'complete' ? 'enabled' : 'needs_info';
  if (refreshed.body?.status !== expected) throw new Error(`payout account: ${JSON.stringify(refreshed.body)}`);
  const { data } = await db().user.get({ userId: editor.uid }).go({ consistent: true });
  return (data as { stripeAccountId: string }).stripeAccountId;
};
