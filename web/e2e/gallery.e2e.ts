import type { OrderImageView } from '@marketplace/events/orders';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestAccount, waitFor } from '../../services/test/support';
import { aVerifiedEditor } from './admin-setup';
import {
  checkOnPhone,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/** A 600 x 400 JPEG of a room-like gradient; `lightness` makes the edit brighter than its original. */
const aPhoto = async (name: string, hue: number, lightness: number) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="hsl(${hue},40%,${lightness}%)"/>
          <stop offset="1" stop-color="hsl(${hue + 40},50%,${Math.max(lightness - 30, 5)}%)"/>
        </linearGradient></defs>
        <rect width="600" height="400" fill="url(#g)"/>
        <rect x="380" y="80" width="140" height="180" fill="hsl(${hue},20%,${Math.min(lightness + 25, 95)}%)"/>
      </svg>`,
    ),
  )
    .jpeg({ quality: 80 })
    .toBuffer(),
});

/** Every picture in this area has loaded and has pixels (not a broken image). */
const expectPicturesLoaded = async (area: Locator, count: number) => {
  await area
    .locator('img')
    .nth(count - 1)
    .waitFor();
  expect(await area.locator('img').count()).toBe(count);
  await area.evaluate(
    (element) =>
      new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 15_000;
        const check = () => {
          const images = [...element.querySelectorAll('img')];
          if (images.every((img) => img.complete && img.naturalWidth > 0)) return resolve();
          if (Date.now() > deadline) return reject(new Error('pictures did not load'));
          setTimeout(check, 100);
        };
        check();
      }),
  );
};

const sliderValue = (page: Page, name: string) =>
  page.getByRole('slider', { name }).evaluate((handle) => Number(handle.getAttribute('aria-valuenow')));

describe('Photos on an order: thumbnails, the lightbox and before/after', () => {
  let browser: Browser;
  let photographer: TestAccount & { displayName: string };
  let editor: TestAccount & { displayName: string };
  let orderId: string;

  beforeAll(async () => {
    [browser, photographer, editor] = await Promise.all([
      launchBrowser(),
      aSignedUpPhotographer('Gail Gallery'),
      aVerifiedEditor('Pia Pairing'),
    ]);
    const [before12, before13, after12, after13] = await Promise.all([
      aPhoto('IMG_0012.jpg', 200, 35),
      aPhoto('IMG_0013.jpg', 20, 35),
      aPhoto('IMG_0012_edited.jpg', 200, 65),
      aPhoto('IMG_0013_edited.jpg', 20, 65),
    ]);
    ({ orderId } = await aCompletedOrder({
      photographer,
      name: 'Harbour View Gallery',
      originalFiles: [before12, before13],
      editedFiles: [after12, after13],
      editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
    }));
    // The thumbnail worker makes each picture from its upload event; wait until all four are ready.
    const images = await waitFor(
      async () => (await as(photographer).get(`/api/orders/${orderId}/images`)).body.images as OrderImageView[],
      (found) => found.length === 4 && found.every((image) => image.thumbnail === 'ready'),
      60_000,
    );
    expect(images.map((image) => image.thumbnail)).toEqual(['ready', 'ready', 'ready', 'ready']);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("shows the editor the originals' and the deliveries' thumbnails, each edit with its original", async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, editor.email, testAccountPassword);
    await waitForPath(page, '/editor');
    await page.goto(`${webUrl}/editor/orders/${orderId}`);
    await page.getByRole('heading', { name: 'Harbour View Gallery' }).waitFor();

    const originals = page.getByRole('list', { name: 'Original images' });
    await expectPicturesLoaded(originals, 2);
    const delivered = page.getByRole('list', { name: 'Delivered files' });
    await expectPicturesLoaded(delivered, 2);
    await delivered.getByText('Pairs with IMG_0012.jpg').waitFor();
    await delivered.getByText('Pairs with IMG_0013.jpg').waitFor();

    await screenshot(page, 'gallery-editor-grid-desktop');
    await expectSettledAccessible(page, 'the editor grid');
    await checkOnPhone(page, 'gallery-editor-grid');
    await context.close();
  });

  it('lets the photographer page through the lightbox and compare before and after with the keyboard', async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/orders/${orderId}`);

    const gallery = page.getByRole('list', { name: 'Edited photos' });
    await expectPicturesLoaded(gallery, 2);
    // The edited photos' download is still there, beside the listing order.
    await page.getByRole('button', { name: 'Download Edited Photos' }).first().waitFor();
    await screenshot(page, 'gallery-photographer-desktop');
    await expectSettledAccessible(page, 'the gallery');
    await checkOnPhone(page, 'gallery-photographer');

    // The lightbox: full size, the file name as caption, ArrowRight to the next, Escape to close.
    await page.getByRole('button', { name: 'View IMG_0012_edited.jpg full size' }).click();
    const current = page.locator('.yarl__slide_current');
    await current.getByText('IMG_0012_edited.jpg').waitFor();
    await expectPicturesLoaded(current, 1);
    await expectSettledAccessible(page, 'the lightbox');
    await checkOnPhone(page, 'gallery-lightbox');
    await page.keyboard.press('ArrowRight');
    await current.getByText('IMG_0013_edited.jpg').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.yarl__root, .yarl__portal').first().waitFor({ state: 'detached' });

    // Before and after: the handle takes focus and the arrow keys move it.
    await page.getByRole('button', { name: 'Compare IMG_0012_edited.jpg before and after' }).click();
    const dialog = page.getByRole('dialog', { name: 'Before and after' });
    await dialog.waitFor();
    await expectPicturesLoaded(dialog, 2);
    await expect(dialog.getByRole('img', { name: 'Before: IMG_0012.jpg' })).toBeTruthy();
    const sliderName = 'Before and after: IMG_0012_edited.jpg';
    expect(await sliderValue(page, sliderName)).toBe(50);
    await page.getByRole('slider', { name: sliderName }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => sliderValue(page, sliderName), { timeout: 5_000 }).toBe(60);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => sliderValue(page, sliderName), { timeout: 5_000 }).toBe(55);
    await screenshot(page, 'gallery-before-after-desktop');
    await expectSettledAccessible(page, 'the before/after slider');
    await checkOnPhone(page, 'gallery-before-after');

    // Next: the other photo and its original.
    await dialog.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('slider', { name: 'Before and after: IMG_0013_edited.jpg' }).waitFor();
    await dialog.getByText('2 of 2').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});
