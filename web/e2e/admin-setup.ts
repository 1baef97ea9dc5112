import type { CreateOrderResponse } from '@marketplace/events/orders';
import type { Page } from 'playwright-core';
import { claimOrder } from '../../services/src/data/orders';
import { stripe } from '../../services/test/stripe-sdk';
import { as, aUserWithRoles, type TestAccount } from '../../services/test/support';
import { signIn, waitForPath, webUrl } from './browser';

/** The seeded admin (ops seed); the password is the demo one. */
export const adminEmail = 'admin@example.com';

export type AdminTab = 'orders' | 'invite' | 'editors' | 'job-types' | 'users' | 'feedback';

/** Signs the seeded admin in; they land on the admin console. */
export async function signInAsAdmin(page: Page) {
  await signIn(page, adminEmail);
  await waitForPath(page, '/admin');
}

/** Opens one tab of the admin console by its address. */
export async function openAdminTab(page: Page, tab: AdminTab) {
  await page.goto(tab === 'orders' ? `${webUrl}/admin` : `${webUrl}/admin?tab=${tab}`);
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
}

/** A word nobody else's data holds, for names the admin's search can find again (letters only, lower case). */
export const uniqueWord = () =>
  Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** A verified, active editor with an account, as the admin's editor lists offer them. */
export const aVerifiedEditor = async (displayName: string) => ({
  ...(await aUserWithRoles(['editor'], { displayName })),
  displayName,
});

/**
 * An order the photographer created through the API and paid by card at the Stripe fake, as
 * their browser would: so a cancellation can refund a real charge.
 */
export async function anOrderPaidByCard({
  photographer,
  name,
  photoCount = 2,
}: {
  photographer: TestAccount;
  name: string;
  photoCount?: number;
}) {
  const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount, name });
  if (created.status !== 201) throw new Error(`order not created: ${created.status} ${JSON.stringify(created.body)}`);
  const { order } = created.body as CreateOrderResponse;
  await (await stripe()).paymentIntents.confirm(order.stripePaymentIntentId, { payment_method: 'pm_card_visa' });
  const paid = await as(photographer).post(`/api/orders/${order.id}/payment-success`, {
    paymentIntentId: order.stripePaymentIntentId,
  });
  if (paid.status !== 200) throw new Error(`order not paid: ${paid.status} ${JSON.stringify(paid.body)}`);
  return { orderId: order.id, name, totalAmountCents: order.totalAmountCents };
}

/** A paid order an editor has claimed and is working on. */
export async function anOrderInProgress({
  photographer,
  name,
  editor,
}: {
  photographer: TestAccount;
  name: string;
  editor: TestAccount & { displayName: string };
}) {
  const order = await anOrderPaidByCard({ photographer, name });
  await claimOrder({
    orderId: order.orderId,
    editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
    rateCents: 250,
  });
  return order;
}
