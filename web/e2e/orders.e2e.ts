import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  pageFitsWidth,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword, zipEntryNames } from './orders-setup';

const visaCard = '4242 4242 4242 4242';
const declinedCard = '4000 0000 0000 0002';
const authenticationCard = '4000 0025 0000 3155';

/** Holds every upload to the S3 stand-in a moment, so the progress bars are on screen long enough to see. */
const slowDownUploads = (page: Page) => {
  const s3Port = new URL(process.env.S3_ENDPOINT ?? 'http://127.0.0.1:1').port;
  return page.route(
    (url) => url.port === s3Port,
    async (route) => {
      if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    },
  );
};

async function chooseService(page: Page, name: RegExp) {
  const select = page.getByRole('textbox', { name: /^Service type/ });
  await select
    .or(page.getByRole('combobox', { name: /^Service type/ }))
    .first()
    .click();
  await page.getByRole('option', { name }).click();
}

/** Fills the details stage: the HDR service, a name, the photo count and the files. */
async function fillOrderDetails(page: Page, { name, filenames }: { name: string; filenames: string[] }) {
  await page.goto(`${webUrl}/create-order`);
  await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
  await chooseService(page, /HDR/);
  await page.getByLabel(/order name/i).fill(name);
  await page.getByRole('textbox', { name: /photo count|distinct photos to edit/i }).fill(String(filenames.length));
  await page.locator('input[type="file"]').setInputFiles(await jpegFiles(page, filenames));
  for (const filename of filenames) await page.getByText(filename, { exact: true }).waitFor();
}

async function payWithCard(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('Ordering, paying and collecting edited photos', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates an HDR order with three photos, shows the uploads' progress, pays by card and lists the order as Paid", async () => {
    const photographer = await aSignedUpPhotographer('Casey Create');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');

    const orderName = `Harbour House ${Date.now()}`;
    const filenames = ['front-elevation.jpg', 'kitchen.jpg', 'living-room.jpg'];
    await fillOrderDetails(page, { name: orderName, filenames });
    await screenshot(page, 'create-order-details-desktop');
    await expectAccessible(page, '/create-order (details with files)');

    await slowDownUploads(page);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    for (const filename of filenames) await page.getByLabel(`Upload progress for ${filename}`).waitFor();
    await page.getByLabel('Overall upload progress').waitFor();
    await screenshot(page, 'create-order-uploading-desktop');
    await expectAccessible(page, '/create-order (uploading)');

    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    await page.getByLabel('Card number').waitFor();
    await screenshot(page, 'create-order-payment-desktop');
    await expectAccessible(page, '/create-order (payment)');

    await payWithCard(page, visaCard);
    await page.getByText('Payment successful!').waitFor();
    await waitForPath(page, '/dashboard');
    await page.getByText(orderName).first().waitFor();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    await screenshot(page, 'dashboard-after-payment-desktop');
    await expectAccessible(page, '/dashboard with a paid order');
    await context.close();
  });

  it('keeps the photographer on the payment stage when the card is declined', async () => {
    const photographer = await aSignedUpPhotographer('Devon Declined');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');

    await fillOrderDetails(page, { name: `Declined ${Date.now()}`, filenames: ['porch.jpg'] });
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });

    await payWithCard(page, declinedCard);
    await page.getByText('Your card was declined.').first().waitFor();
    await screenshot(page, 'create-order-declined-desktop');
    await expectAccessible(page, '/create-order (declined card)');
    expect(await page.getByRole('heading', { name: 'Complete Payment' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/create-order');

    // The unpaid order can be paid later from the dashboard.
    await page.goto(`${webUrl}/dashboard`);
    await page.getByRole('link', { name: 'Complete Payment' }).first().click();
    await page.waitForURL((url) => /^\/orders\/[^/]+\/payment$/.test(url.pathname));
    await page.getByLabel('Card number').waitFor();
    await screenshot(page, 'pay-later-desktop');
    await expectAccessible(page, '/orders/{id}/payment');
    await payWithCard(page, visaCard);
    await page.getByText('Payment completed successfully!').waitFor();
    await context.close();
  });

  it('saves a card while paying, pays the next order in one click through the authentication step, removes the card and downloads a PDF receipt', async () => {
    const photographer = await aSignedUpPhotographer('Sam Saved');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    const paymentPage = /^\/orders\/([^/]+)\/payment$/;
    /** The bank's page (the Stripe fake's challenge), then back to the order's payment page, which checks the payment. */
    const passAuthentication = async () => {
      await page.getByRole('heading', { name: 'Authenticate your payment' }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'payment-authentication-desktop');
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await page.waitForURL((url) => paymentPage.test(url.pathname));
      const orderId = paymentPage.exec(new URL(page.url()).pathname)![1]!;
      await page.getByText('Payment completed successfully!').waitFor();
      await waitForPath(page, '/dashboard');
      return orderId;
    };

    // The first order: the card form, 'Save this card for next time', a card that asks for authentication.
    await fillOrderDetails(page, { name: `Saved Card ${Date.now()}`, filenames: ['hall.jpg'] });
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    await page.getByRole('checkbox', { name: 'Save this card for next time' }).check();
    await screenshot(page, 'create-order-save-card-desktop');
    await expectAccessible(page, '/create-order (payment, saving the card)');
    await payWithCard(page, authenticationCard);
    const firstOrderId = await passAuthentication();

    // The next order: the saved card is one click, and the bank asks again.
    await fillOrderDetails(page, { name: `One Click ${Date.now()}`, filenames: ['study.jpg'] });
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    const oneClick = page.getByRole('button', { name: /^Pay \$8\.00 with Visa •••• 3155$/ });
    await oneClick.waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Use another card' }).waitFor();
    await screenshot(page, 'create-order-saved-card-desktop');
    await expectAccessible(page, '/create-order (payment with a saved card)');
    await oneClick.click();
    await passAuthentication();

    // /profile: the card, then removed after the confirmation; the two payments in the history.
    await page.goto(`${webUrl}/profile`);
    const cards = page.getByRole('region', { name: 'Payment methods' });
    const card = cards.getByRole('listitem', { name: 'Visa •••• 3155' });
    await card.getByText('Default').waitFor();
    const history = page.getByRole('region', { name: 'Billing history' });
    await history.getByRole('row').nth(2).waitFor();
    expect(await history.getByRole('row').count()).toBe(3);
    await screenshot(page, 'profile-payment-methods-desktop');
    await expectAccessible(page, '/profile (a saved card, two payments)');
    await card.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this card?' });
    await dialog.waitFor();
    await expectSettledAccessible(page, '/profile (removing a card)');
    await dialog.getByRole('button', { name: 'Remove card' }).click();
    await cards.getByText(/No saved cards yet/).waitFor();

    // The first order's receipt, as a PDF (the receipt worker makes it within seconds of the payment).
    await page.goto(`${webUrl}/orders/${firstOrderId}`);
    const receiptButton = page.getByRole('button', { name: 'Download receipt' });
    await receiptButton.waitFor();
    await expectAccessible(page, '/orders/{id} (paid, with its receipt)');
    let download: Download | undefined;
    for (let attempt = 0; attempt < 10 && !download; attempt++) {
      const started = page.waitForEvent('download', { timeout: 3_000 }).catch(() => undefined);
      await receiptButton.click();
      download = await started;
    }
    expect(download?.suggestedFilename()).toMatch(/^receipt-order-\d+-[0-9A-Z]{26}\.pdf$/);
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'receipt-')), download!.suggestedFilename());
    await download!.saveAs(saved);
    expect(readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });

  it('downloads the edited photos of a completed order as a zip and rates the editor 9/10', async () => {
    const photographer = await aSignedUpPhotographer('Riley Rates');
    const editedFilenames = ['edited-front.jpg', 'edited-kitchen.jpg'];
    const order = await aCompletedOrder({
      photographer,
      name: `Completed ${Date.now()}`,
      editedFiles: await (async () => {
        const scratch = await openPage(browser);
        const files = await jpegFiles(scratch.page, editedFilenames);
        await scratch.context.close();
        return files;
      })(),
    });

    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/orders/${order.orderId}`);
    await page.getByRole('heading', { name: order.name }).waitFor();
    await page.getByText('Completed', { exact: true }).first().waitFor();
    await screenshot(page, 'order-detail-completed-desktop');
    await expectAccessible(page, '/orders/{id} (completed)');

    const downloadStarted = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Download Edited Photos' }).click();
    const download = await downloadStarted;
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'edited-zip-')), download.suggestedFilename());
    await download.saveAs(saved);
    expect(download.suggestedFilename()).toMatch(/_edited_photos\.zip$/);
    // In listing order, named for the listing: with no saved order, and no originals to pair, by file name.
    expect((await zipEntryNames(saved)).map((entry) => path.basename(entry))).toEqual(
      editedFilenames.map((name, i) => `0${i + 1}_${order.name.replace(/ /g, '_')}_${name}`),
    );

    await page.getByRole('button', { name: 'Rate Editor' }).click();
    const modal = page.getByRole('dialog', { name: 'Rate Your Editor' });
    await modal.waitFor();
    const submit = modal.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    // The modal may still be opening when the first click lands; choose again until Submit is live.
    const nineStars = modal.getByRole('button', { name: '9 stars', exact: true });
    for (let attempt = 0; attempt < 5 && (await submit.isDisabled()); attempt++) {
      await nineStars.click();
      await page.waitForTimeout(200);
    }
    await screenshot(page, 'order-detail-rating-desktop');
    await expectAccessible(page, '/orders/{id} (rating modal)');
    await submit.click();
    await page.getByText('Rating submitted successfully!').waitFor();
    await page.getByText('9/10').first().waitFor();
    await modal.waitFor({ state: 'detached' });
    await screenshot(page, 'order-detail-rated-desktop');
    await expectAccessible(page, '/orders/{id} (rated, with its toast)');
    await context.close();
  });

  it('fits the create-order page on a phone, with files chosen', async () => {
    const photographer = await aSignedUpPhotographer('Parker Phone');
    const { page, context } = await openPage(browser, 'phone');
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');

    await page.goto(`${webUrl}/create-order`);
    await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
    expect(await pageFitsWidth(page)).toBe(true);
    await screenshot(page, 'create-order-phone');
    await expectAccessible(page, '/create-order on a phone');

    const longName = 'a-very-long-file-name-from-the-camera-card-DSC_000123-final-final.jpg';
    await page.locator('input[type="file"]').setInputFiles(await jpegFiles(page, [longName, 'bath.jpg']));
    await page.getByText(longName).waitFor();
    expect(await pageFitsWidth(page)).toBe(true);
    await screenshot(page, 'create-order-files-phone');
    await expectAccessible(page, '/create-order (files chosen) on a phone');

    await page.getByRole('button', { name: `Remove ${longName}` }).click();
    await chooseService(page, /HDR/);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    await page.getByLabel('Card number').waitFor();
    expect(await pageFitsWidth(page)).toBe(true);
    await screenshot(page, 'create-order-payment-phone');
    await expectAccessible(page, '/create-order (payment) on a phone');

    await page.goto(`${webUrl}/dashboard`);
    await page.getByRole('link', { name: 'Complete Payment' }).first().click();
    await page.getByLabel('Card number').waitFor();
    expect(await pageFitsWidth(page)).toBe(true);
    await screenshot(page, 'pay-later-phone');
    await context.close();
  });

  it('shows the dashboard, the orders list and an order on a phone and a desktop', async () => {
    const photographer = await aSignedUpPhotographer('Morgan Mobile');
    // Completion needs at least one edited file.
    const order = await aCompletedOrder({
      photographer,
      name: `Seaside Flat ${Date.now()}`,
      editedFiles: [{ name: 'seaside-edited.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('edited photo') }],
    });
    for (const size of ['phone', 'desktop'] as const) {
      const { page, context } = await openPage(browser, size);
      await signIn(page, photographer.email, testAccountPassword);
      await waitForPath(page, '/dashboard');
      await page.getByText(order.name).first().waitFor();
      expect(await pageFitsWidth(page)).toBe(true);
      await screenshot(page, `dashboard-orders-${size}`);
      await expectAccessible(page, `/dashboard on a ${size}`);

      await page.goto(`${webUrl}/orders`);
      await page.getByText(order.name).first().waitFor();
      expect(await pageFitsWidth(page)).toBe(true);
      await screenshot(page, `orders-${size}`);
      await expectAccessible(page, `/orders on a ${size}`);

      await page.goto(`${webUrl}/orders/${order.orderId}`);
      await page.getByRole('heading', { name: order.name }).waitFor();
      expect(await pageFitsWidth(page)).toBe(true);
      await screenshot(page, `order-detail-${size}`);
      await expectAccessible(page, `/orders/{id} on a ${size}`);

      await page.goto(`${webUrl}/orders/not-an-order`);
      await page.getByText('Order Not Found').waitFor();
      await expectAccessible(page, `/orders/{unknown} on a ${size}`);
      await context.close();
    }
  });
});
