import { PutObjectCommand } from '@aws-sdk/client-s3';
import { editedPrefix } from '@marketplace/events/orders';
import { lateCreditCents, lateCreditText } from '@marketplace/events/turnaround';
import type { Browser, Page } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photosBucket, s3 } from '../../services/src/adapters/s3';
import { upsertJobType } from '../../services/src/data/job-types';
import { claimOrder, completeOrder, getOrder, registerEdited } from '../../services/src/data/orders';
import { stripe } from '../../services/test/stripe-sdk';
import { db } from '../../services/test/support';
import { aVerifiedEditor } from './admin-setup';
import {
  checkOnPhone,
  expectAccessible,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/**
 * Turnaround tiers end to end: the photographer orders Express and pays the price the server
 * computed, the editor sees the tier and the time left in the pool and on the order, the order is
 * delivered three hours late (its due time moved back in the table), and the photographer sees
 * the credit on the order once, at the Stripe fake as a partial refund.
 */
const run = ulid().toLowerCase().slice(-6);
/** A service of this file's own (no 'HDR' in the name: other files choose /HDR/): $10.00, Express +$2.50. */
const jobType = {
  jobTypeId: `dusk-${run}`,
  name: `Dusk Glow ${run}`,
  pricePerPhotoCents: 1000,
  defaultEditorPriceCents: 300,
  tierSurchargeCents: { express: 250, rush: 500 },
  isActive: true,
};
const expressTotalCents = 1250;
const visaCard = '4242 4242 4242 4242';
const HOUR_MS = 3_600_000;

async function payWithCard(page: Page) {
  await page.getByLabel('Card number').fill(visaCard);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('Turnaround tiers: Express ordered, shown to the editor, delivered late and credited', () => {
  let browser: Browser;
  beforeAll(async () => {
    await upsertJobType(jobType);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    // Out of the photographers' choice again once done.
    await upsertJobType({ ...jobType, isActive: false });
  });

  it('orders Express at the server’s price, shows its tier and time left to the editor, and credits the late delivery once', async () => {
    const [photographer, editor] = await Promise.all([
      aSignedUpPhotographer('Tia Turnaround'),
      aVerifiedEditor('Eli Express'),
    ]);
    const orderName = `Dusk Terrace ${run}`;

    // The photographer: the service, one photo, Express; the summary adds the surcharge.
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/create-order`);
    await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
    await page
      .getByRole('textbox', { name: /^Service type/ })
      .or(page.getByRole('combobox', { name: /^Service type/ }))
      .first()
      .click();
    await page.getByRole('option', { name: new RegExp(jobType.name) }).click();
    await page.getByLabel(/order name/i).fill(orderName);
    await page.getByRole('textbox', { name: /photo count|distinct photos to edit/i }).fill('1');
    await page.locator('input[type="file"]').setInputFiles(await jpegFiles(page, ['terrace.jpg']));
    await page.getByText('terrace.jpg', { exact: true }).waitFor();
    await page.getByTestId('tier-express').click();
    await page.getByText('Express (24 h) surcharge').waitFor();
    await page.getByText('1 × $2.50 = $2.50').waitFor();
    await screenshot(page, 'create-order-express-desktop');
    await expectAccessible(page, '/create-order (Express chosen)');
    await checkOnPhone(page, 'create-order-express', { accessible: true });

    // The price on the button is the one the server computed: $10.00 + $2.50.
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Pay $12.50' }).waitFor();
    await payWithCard(page);
    await page.getByText('Payment successful!').waitFor();
    await waitForPath(page, '/dashboard');
    const [listed] = (await db().order.query.byPhotographer({ photographerId: photographer.uid }).go()).data;
    const orderId = listed!.orderId;
    const paid = (await getOrder(orderId))!;
    expect(paid).toMatchObject({ status: 'paid', turnaroundTier: 'express', totalAmountCents: expressTotalCents });
    expect(Date.parse(paid.dueAt!) - Date.parse(paid.paidAt!)).toBe(24 * HOUR_MS);

    // The editor: the pool filtered to Express, by time left; the card shows the tier and the time left.
    const editorView = await openPage(browser);
    const editorPage = editorView.page;
    await signIn(editorPage, editor.email, testAccountPassword);
    await editorPage.waitForURL((url) => url.pathname !== '/login');
    await editorPage.goto(`${webUrl}/editor?sort=due&tier=express`);
    const card = editorPage.getByRole('list', { name: 'Available orders' }).getByRole('listitem').filter({
      hasText: orderName,
    });
    await card.getByText('Express (24 h)').waitFor();
    await card.getByText(/^2[34] h( \d+ min)? left$/).waitFor();
    expect(await editorPage.getByRole('combobox', { name: /Turnaround/ }).inputValue()).toBe('express');
    await screenshot(editorPage, 'editor-pool-express-desktop');
    await expectSettledAccessible(editorPage, '/editor (Express by time left)');
    await checkOnPhone(editorPage, 'editor-pool-express', { accessible: true });

    // Claimed and one edited file in (as the routes do), the order page shows the tier and time left.
    await claimOrder({
      orderId,
      editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
      rateCents: 300,
    });
    const [edited] = await jpegFiles(editorPage, ['terrace-edited.jpg']);
    const key = `${editedPrefix(orderId)}${edited!.name}`;
    await s3().send(
      new PutObjectCommand({ Bucket: photosBucket(), Key: key, Body: edited!.buffer, ContentType: edited!.mimeType }),
    );
    await registerEdited({
      order: (await getOrder(orderId))!,
      editorId: editor.uid,
      key,
      filename: edited!.name,
      size: edited!.buffer.length,
      contentType: edited!.mimeType,
      lastModified: new Date().toISOString(),
    });
    await editorPage.goto(`${webUrl}/editor/orders/${orderId}`);
    await editorPage.getByText('Express (24 h)').first().waitFor();
    await editorPage.getByTestId('time-left').waitFor();
    await expectSettledAccessible(editorPage, '/editor/orders/{id} (Express, time left)');
    await editorView.context.close();

    // Three hours (and half a minute) past its due time, then delivered: 12 full quarter hours, 12%.
    await db()
      .order.patch({ orderId })
      .set({ dueAt: new Date(Date.now() - 3 * HOUR_MS - 30_000).toISOString() })
      .go();
    await completeOrder({ orderId, editorId: editor.uid });
    const creditCents = lateCreditCents(expressTotalCents, 180);
    expect(creditCents).toBe(150);
    const creditLine = lateCreditText({ minutesLate: 180, creditCents });
    expect(creditLine).toBe('Delivered 3 h late: $1.50 credited');

    // The photographer's order page says so; the refund is made once at Stripe by the worker.
    await page.goto(`${webUrl}/orders/${orderId}`);
    await page.getByRole('heading', { name: orderName }).waitFor();
    await page.getByText(creditLine).waitFor();
    const refunds = async () =>
      (await (await stripe()).refunds.list({ payment_intent: paid.stripePaymentIntentId! })).data.map((r) => r.amount);
    const deadline = Date.now() + 20_000;
    while ((await refunds()).length === 0 && Date.now() < deadline) await page.waitForTimeout(250);
    expect(await refunds()).toEqual([150]);
    await screenshot(page, 'order-late-credit-desktop');
    await expectSettledAccessible(page, '/orders/{id} (delivered late, credited)');
    await checkOnPhone(page, 'order-late-credit', { accessible: true });
    await context.close();
  });
});
