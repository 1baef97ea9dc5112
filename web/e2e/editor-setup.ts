import { ulid } from 'ulid';
import { createOrder, markOrderPaid, nextOrderNumber } from '../../services/src/data/orders';
import type { TestAccount } from '../../services/test/support';
import { storeOriginal } from './orders-setup';

const authUrl = () => `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;
const apiUrl = () => {
  const url = process.env.API_URL;
  if (!url)
    throw new Error('API_URL is not set. Run the browser tests through the harness: npx tsx scripts/test.ts e2e');
  return url;
};
const sesEndpoint = () => {
  const url = process.env.SES_ENDPOINT;
  if (!url) throw new Error('SES_ENDPOINT is not set. Run the browser tests through the harness.');
  return url.replace(/\/$/, '');
};

/** The seeded admin's ID token, from the auth emulator's REST API. */
async function adminToken() {
  const response = await fetch(`${authUrl()}/accounts:signInWithPassword?key=test-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'demo-password', returnSecureToken: true }),
  });
  const json = (await response.json()) as { idToken?: string; error?: { message: string } };
  if (!response.ok || !json.idToken) throw new Error(`admin sign-in failed: ${json.error?.message}`);
  return json.idToken;
}

/** Invites an editor through the admin API with an HDR rate of $2.50 a photo. */
export async function inviteEditor({ email, displayName }: { email: string; displayName: string }) {
  const response = await fetch(`${apiUrl()}/api/admin/invite-editor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await adminToken()}` },
    body: JSON.stringify({ email, displayName, jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 250 }] }),
  });
  if (response.status !== 201) throw new Error(`invite-editor answered ${response.status}: ${await response.text()}`);
}

interface StoredEmail {
  destination?: { to?: string[] };
  subject?: string;
  body?: { text?: string; html?: string };
}

export const sesInboxUrl = () => sesEndpoint();

/** The email the SES stand-in holds for this address (polled, since the send may trail the API's answer). */
export async function emailTo(address: string, timeoutMs = 15_000): Promise<StoredEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const store = (await (await fetch(`${sesEndpoint()}/store`)).json()) as { emails?: StoredEmail[] };
    const found = (store.emails ?? [])
      .filter((email) => email.destination?.to?.some((to) => to.toLowerCase().includes(address.toLowerCase())))
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no email to ${address} in the SES stand-in`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first link in the email that opens the web app (SITE_URL). */
export function linkIn(email: StoredEmail, siteUrl: string) {
  const texts = [email.body?.text ?? '', (email.body?.html ?? '').replaceAll('&amp;', '&')];
  for (const text of texts) {
    const link = text.match(/https?:\/\/[^\s"'<>)]+/g)?.find((url) => url.startsWith(siteUrl));
    if (link) return link;
  }
  throw new Error(`no link to ${siteUrl} in the email "${email.subject}"`);
}

const hdr = { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 };

/**
 * A paid HDR order, written through the data layer as the routes would: created, its originals
 * put in S3 and registered, then paid, so it is on offer to editors.
 */
export async function aPaidOrder({
  photographer,
  name,
  originals,
}: {
  photographer: TestAccount & { displayName: string };
  name: string;
  originals: { name: string; mimeType: string; buffer: Buffer }[];
}) {
  const orderId = ulid();
  const paymentIntentId = `pi_e2e_${orderId}`;
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: photographer.displayName },
    jobType: hdr,
    input: { name, photoCount: originals.length },
    totalAmountCents: originals.length * hdr.pricePerPhotoCents,
    stripePaymentIntentId: paymentIntentId,
  });
  for (const file of originals) await storeOriginal(order, file);
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'client' });
  return { orderId, name };
}
