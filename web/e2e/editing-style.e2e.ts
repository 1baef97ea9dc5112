import { defaultEditingStyle, type EditingStyle } from '@marketplace/events/editing-style';
import type { Browser } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimOrder, createOrder, markOrderPaid, nextOrderNumber } from '../../services/src/data/orders';
import { as } from '../../services/test/support';
import { aVerifiedEditor } from './admin-setup';
import {
  checkOnPhone,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  toast,
  waitForPath,
  webUrl,
} from './browser';
import { aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/**
 * The editing style end to end: a photographer saves one on /profile with a reference photo sent
 * straight to S3, create-order shows it, and an editor sees an order's style in the available list
 * and as the card on the order page.
 */
describe('A saved editing style', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is saved on /profile with a reference photo, and shown on create-order', async () => {
    const photographer = await aSignedUpPhotographer('Stella Style');
    const { context, page } = await openPage(browser);
    try {
      await signIn(page, photographer.email, testAccountPassword);
      await waitForPath(page, '/dashboard');
      await page.goto(`${webUrl}/profile`);
      const section = page.getByRole('region', { name: 'Editing style' });
      await section.getByRole('radiogroup', { name: 'Sky' }).waitFor();
      await section.getByText('Sunset sky', { exact: true }).click();
      await section.getByText('Lawn greening', { exact: true }).click();
      await section.getByRole('textbox', { name: 'Notes for the editor' }).fill('Warm lamps on, no people in mirrors.');
      const [reference] = await jpegFiles(page, ['dusk-look.jpg']);
      await section.locator('input[type="file"]').setInputFiles(reference!);
      await section.getByRole('img', { name: 'Reference photo dusk-look.jpg' }).waitFor();
      const saved = page.waitForResponse(
        (response) => response.url().endsWith('/api/profile/editing-style') && response.request().method() === 'PUT',
      );
      await section.getByRole('button', { name: 'Save editing style' }).click();
      expect((await saved).status()).toBe(200);
      await toast(page, 'Your editing style is saved.');
      const { body } = await as(photographer).get('/api/profile/editing-style');
      expect(body.style).toMatchObject({
        sky: 'sunset',
        lawnGreening: true,
        notes: 'Warm lamps on, no people in mirrors.',
      });
      expect(body.style.referencePhotos).toHaveLength(1);
      await screenshot(page, 'editing-style-profile-desktop');
      await expectSettledAccessible(page, '/profile editing style');
      await checkOnPhone(page, 'editing-style-profile', { accessible: true });

      await page.goto(`${webUrl}/create-order`);
      const onOrder = page.getByRole('region', { name: 'Editing style' });
      await onOrder.getByText(/^Sunset sky · Natural/).waitFor();
      await onOrder.getByRole('button', { name: 'Change for this order' }).click();
      await page.getByRole('dialog', { name: 'Editing style for this order' }).waitFor();
      await expectSettledAccessible(page, '/create-order editing style dialog');
    } finally {
      await context.close();
    }
  }, 180_000);

  it("shows the order's style to the editor in the available list and as the order's card", async () => {
    const [photographer, editor] = await Promise.all([
      aSignedUpPhotographer('Stella Style'),
      aVerifiedEditor('Eddie Style'),
    ]);
    const style: EditingStyle = {
      ...defaultEditingStyle,
      sky: 'blue-clouds',
      fireplaceFire: true,
      notes: 'Keep it bright.',
    };
    const orderId = ulid();
    const name = `Style Lane ${Date.now()}`;
    const order = await createOrder({
      orderId,
      orderNumber: await nextOrderNumber(),
      photographer: { userId: photographer.uid, name: photographer.displayName },
      jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
      input: { name, photoCount: 1 },
      totalAmountCents: 800,
      stripePaymentIntentId: `pi_e2e_${orderId}`,
      editingStyle: style,
    });
    await markOrderPaid({
      orderId,
      paymentIntentId: `pi_e2e_${orderId}`,
      amountCents: order.totalAmountCents,
      via: 'client',
    });

    const { context, page } = await openPage(browser);
    try {
      await signIn(page, editor.email, testAccountPassword);
      await page.waitForURL((url) => url.pathname !== '/login');
      await page.goto(`${webUrl}/editor`);
      const listed = page.getByRole('listitem').filter({ hasText: name });
      await listed.getByText(/Blue sky with clouds · Natural/).waitFor();

      await claimOrder({
        orderId,
        editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
        rateCents: 50,
      });
      await page.goto(`${webUrl}/editor/orders/${orderId}`);
      const card = page.getByRole('region', { name: 'Editing style' });
      await card.getByText('Blue sky with clouds').waitFor();
      await card.getByText('Keep it bright.').waitFor();
      await screenshot(page, 'editing-style-editor-card-desktop');
      await expectSettledAccessible(page, '/editor/orders/{id} editing style');
      await checkOnPhone(page, 'editing-style-editor-card', { accessible: true });
    } finally {
      await context.close();
    }
  }, 180_000);
});
