import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrievePaymentIntent } from '../../services/src/adapters/stripe';
import { getOrder } from '../../services/src/data/orders';
import { as } from '../../services/test/support';
import { aVerifiedEditor, openAdminTab, signInAsAdmin } from './admin-setup';
import {
  checkOnPhone,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aSignedUpPhotographer, testAccountPassword } from './orders-setup';

const visaCard = '4242 4242 4242 4242';

async function chooseService(page: Page, name: RegExp) {
  const select = page.getByRole('textbox', { name: /^Service type/ });
  await select
    .or(page.getByRole('combobox', { name: /^Service type/ }))
    .first()
    .click();
  await page.getByRole('option', { name }).click();
}

describe('Add-ons on chosen photos, from the admin to the editor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the admin sees the Add-ons part of Job Types; the photographer ticks two add-ons on chosen photos and pays the server's total; the editor sees them", async () => {
    // The admin: the seeded add-ons beside the job types.
    const adminView = await openPage(browser);
    await signInAsAdmin(adminView.page);
    await openAdminTab(adminView.page, 'job-types');
    const addOnsPart = adminView.page.getByRole('region', { name: 'Add-ons' });
    const staging = addOnsPart.getByRole('row').filter({ hasText: 'Virtual staging' });
    await staging.getByText('$24.00').waitFor();
    await expectSettledAccessible(adminView.page, '/admin?tab=job-types (add-ons)');
    await checkOnPhone(adminView.page, 'admin-add-ons', { accessible: true });
    await adminView.context.close();

    // The photographer: an HDR order of three photos, uploaded, then add-ons on chosen ones.
    const [photographer, editor] = await Promise.all([
      aSignedUpPhotographer('Ada Addons'),
      aVerifiedEditor('Ezra Stager'),
    ]);
    const orderName = `Maple Row ${Date.now()}`;
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/create-order`);
    await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
    await chooseService(page, /HDR/);
    await page.getByLabel(/order name/i).fill(orderName);
    const filenames = ['empty-lounge.jpg', 'empty-bedroom.jpg', 'garden.jpg'];
    await page.getByRole('textbox', { name: /photo count|distinct photos to edit/i }).fill('3');
    await page.locator('input[type="file"]').setInputFiles(await jpegFiles(page, filenames));
    for (const filename of filenames) await page.getByText(filename, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Pay $24.00' }).waitFor();

    const picker = page.getByRole('region', { name: 'Add-ons' });
    const total = picker.getByTestId('order-total');
    await total.getByText('$24.00').waitFor();
    // Virtual staging on the two empty rooms.
    await picker.getByRole('checkbox', { name: 'empty-lounge.jpg' }).check();
    await picker.getByRole('checkbox', { name: 'empty-bedroom.jpg' }).check();
    await picker.getByRole('checkbox', { name: 'Virtual staging ($24.00 per photo)' }).click();
    await total.getByText('$72.00').waitFor();
    // Sky replacement on the garden alone.
    await picker.getByRole('checkbox', { name: 'empty-lounge.jpg' }).uncheck();
    await picker.getByRole('checkbox', { name: 'empty-bedroom.jpg' }).uncheck();
    await picker.getByRole('checkbox', { name: 'garden.jpg' }).check();
    await picker.getByRole('checkbox', { name: 'Sky replacement ($2.00 per photo)' }).click();
    await total.getByText('$74.00').waitFor();
    await picker.getByText('Virtual staging $24.00 × 2 photos').waitFor();
    await picker.getByText('Sky replacement $2.00 × 1 photo').waitFor();
    await page.getByRole('button', { name: 'Pay $74.00' }).waitFor();
    await expectSettledAccessible(page, '/create-order (payment with add-ons)');
    await checkOnPhone(page, 'create-order-add-ons', { accessible: true });

    // The order's total and its payment intent are the server's figure before the card is used.
    const mine = await as(photographer).get('/api/orders/my');
    const orderId = (mine.body.orders as { id: string; name: string | null }[]).find((o) => o.name === orderName)!.id;
    const order = (await getOrder(orderId))!;
    expect(order.totalAmountCents).toBe(7400);
    expect((await retrievePaymentIntent(order.stripePaymentIntentId!)).amount).toBe(7400);

    await page.getByLabel('Card number').fill(visaCard);
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $74.00' }).click();
    await page.getByText('Payment successful!').waitFor();
    await waitForPath(page, '/dashboard');
    expect((await getOrder(orderId))?.status).toBe('paid');
    await context.close();

    // The editor: the line in the available list, then the order's page once claimed.
    const editorView = await openPage(browser);
    const editorPage = editorView.page;
    await signIn(editorPage, editor.email, testAccountPassword);
    await editorPage.waitForURL((url) => url.pathname !== '/login');
    const offered = editorPage.getByRole('listitem').filter({ hasText: orderName });
    await offered.getByText('+ Virtual staging ×2 + Sky replacement ×1').waitFor();
    await offered.getByRole('button', { name: 'Claim' }).click();
    await editorPage.getByText('Order claimed successfully!').waitFor();
    await editorPage.goto(`${webUrl}/editor/orders/${orderId}`);
    const section = editorPage.getByRole('region', { name: 'Add-ons' });
    await section.getByText('Virtual staging × 2 photos').waitFor();
    await section.getByText('Sky replacement × 1 photo').waitFor();
    const photos = section.getByRole('list', { name: 'Photos with add-ons' }).getByRole('listitem');
    expect(await photos.count()).toBe(3);
    await photos.filter({ hasText: 'garden.jpg' }).getByText('Sky replacement').waitFor();
    await expectSettledAccessible(editorPage, '/editor/orders/{id} (add-ons)');
    await checkOnPhone(editorPage, 'editor-add-ons', { accessible: true });
    await editorView.context.close();
  }, 180_000);
});
