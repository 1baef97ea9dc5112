import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OrderImageView } from '@marketplace/events/orders';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestAccount, waitFor } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  toast,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword, zipEntryNames } from './orders-setup';

/** A 600 x 400 JPEG of one colour, so each photo is told apart at a glance in the screenshots. */
const aPhoto = async (name: string, hue: number) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: await sharp({ create: { width: 600, height: 400, channels: 3, background: `hsl(${hue}, 45%, 55%)` } })
    .jpeg({ quality: 80 })
    .toBuffer(),
});

const PROPERTY = '27 Harbour Lane';

/** The gallery's headers, as the local web server sends them (CloudFront sends the same, see infra). */
const expectPrivatePageHeaders = (response: Response, what: string) => {
  expect(response.headers.get('x-robots-tag'), `${what}: X-Robots-Tag`).toBe('noindex');
  expect(response.headers.get('referrer-policy'), `${what}: Referrer-Policy`).toBe('no-referrer');
};

const shareLinkIn = async (page: Page) => page.getByRole('textbox', { name: 'New share link' }).inputValue();

describe('Sharing a completed order with a client who has no account', () => {
  let browser: Browser;
  let photographer: TestAccount & { displayName: string };
  let orderId: string;

  beforeAll(async () => {
    [browser, photographer] = await Promise.all([launchBrowser(), aSignedUpPhotographer('Sasha Share')]);
    const editedFiles = await Promise.all([
      aPhoto('bathroom.jpg', 200),
      aPhoto('kitchen.jpg', 30),
      aPhoto('porch.jpg', 120),
    ]);
    ({ orderId } = await aCompletedOrder({ photographer, name: PROPERTY, editedFiles }));
    const images = await waitFor(
      async () =>
        ((await as(photographer).get(`/api/orders/${orderId}/images`)).body.images as OrderImageView[]).filter(
          (image) => image.kind === 'edited',
        ),
      (found) => found.length === 3 && found.every((image) => image.thumbnail === 'ready'),
      60_000,
    );
    // The photographer puts the porch first: it becomes the cover.
    const keyOf = (filename: string) => images.find((image) => image.filename === filename)!.key;
    const saved = await as(photographer).put(`/api/orders/${orderId}/sequence`, {
      keys: [keyOf('porch.jpg'), keyOf('kitchen.jpg'), keyOf('bathroom.jpg')],
      version: 0,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('makes a link the client opens without signing in, cover first, and revoking it closes it at once', async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/orders/${orderId}`);
    const panel = page.getByRole('region', { name: 'Share with your client' });
    await panel.getByText('No share links yet.').waitFor();
    expect(await panel.getByLabel('Link expires in (days)').inputValue()).toBe('30');
    await panel.getByRole('button', { name: 'Create share link' }).click();
    const link = await shareLinkIn(page);
    expect(link).toMatch(new RegExp(`^${webUrl}/share/[A-Za-z0-9_-]{43}$`));
    await panel.getByText('Active', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Copy link' }).waitFor();
    await screenshot(page, 'share-links-new-desktop');
    await expectSettledAccessible(page, 'the share links panel');
    await checkOnPhone(page, 'share-links-new', { accessible: true });

    // The client: a browser that has never signed in.
    const client = await openPage(browser);
    await client.page.goto(link);
    await client.page.getByRole('heading', { level: 1, name: PROPERTY }).waitFor();
    const cover = client.page.getByRole('region', { name: 'Cover photo' }).getByRole('img');
    expect(await cover.getAttribute('alt')).toBe('01_27_Harbour_Lane_porch.jpg');
    await client.page.waitForFunction(() =>
      [...document.querySelectorAll('main img')].every(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      ),
    );
    const grid = client.page.getByRole('list', { name: 'Photos in listing order' });
    expect(await grid.getByRole('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))).toEqual([
      '01_27_Harbour_Lane_porch.jpg',
      '02_27_Harbour_Lane_kitchen.jpg',
      '03_27_Harbour_Lane_bathroom.jpg',
    ]);
    // Nothing of the order's business: no price, no requirements, no editor, no photographer.
    const text = await client.page.locator('body').innerText();
    for (const hidden of ['$', 'Sasha', 'Eden', 'Editor', 'HDR', 'Brightened']) expect(text).not.toContain(hidden);
    expect(await client.page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await client.page.locator('meta[name="referrer"]').getAttribute('content')).toBe('no-referrer');
    await screenshot(client.page, 'share-gallery-desktop');
    await expectSettledAccessible(client.page, 'the shared gallery');
    await checkOnPhone(client.page, 'share-gallery', { accessible: true });

    // The full-size view, from the cover.
    await client.page.getByRole('button', { name: 'View 01_27_Harbour_Lane_porch.jpg full size' }).first().click();
    await client.page.locator('.yarl__slide_current').getByText('01_27_Harbour_Lane_porch.jpg').waitFor();
    await client.page.keyboard.press('ArrowRight');
    await client.page.locator('.yarl__slide_current').getByText('02_27_Harbour_Lane_kitchen.jpg').waitFor();
    await client.page.keyboard.press('Escape');
    await client.page.locator('.yarl__root, .yarl__portal').first().waitFor({ state: 'detached' });

    // The full-resolution zip, named for the listing, in listing order.
    const downloadStarted = client.page.waitForEvent('download', { timeout: 60_000 });
    await client.page.getByRole('button', { name: 'Full resolution (zip)' }).click();
    const download = await downloadStarted;
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'shared-zip-')), download.suggestedFilename());
    await download.saveAs(saved);
    expect(download.suggestedFilename()).toBe('27_Harbour_Lane_edited_photos.zip');
    expect((await zipEntryNames(saved)).map((entry) => path.basename(entry))).toEqual([
      '01_27_Harbour_Lane_porch.jpg',
      '02_27_Harbour_Lane_kitchen.jpg',
      '03_27_Harbour_Lane_bathroom.jpg',
    ]);
    await toast(client.page, 'Full-resolution photos downloaded');

    // The photographer sees the view and the download, then revokes the link.
    await page.reload();
    const row = page.getByRole('region', { name: 'Share with your client' }).getByRole('listitem').first();
    await row.getByText(/^1 view · 1 download/).waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this link?' });
    await expectSettledAccessible(page, 'the revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke link' }).click();
    await toast(page, 'Link revoked');
    await row.getByText('Revoked', { exact: true }).waitFor();

    await client.page.reload();
    await client.page.getByRole('heading', { level: 1, name: 'This link is no longer available' }).waitFor();
    expect(await client.page.getByRole('button', { name: /zip/ }).count()).toBe(0);
    await screenshot(client.page, 'share-unavailable-desktop');
    await expectSettledAccessible(client.page, 'the unavailable link');
    await checkOnPhone(client.page, 'share-unavailable', { accessible: true });
    await client.context.close();
    await context.close();
  }, 180_000);

  it('keeps the gallery out of search engines and its address out of referrers, page and API alike', async () => {
    const created = await as(photographer).post(`/api/orders/${orderId}/share-links`, { expiresInDays: 2 });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    for (const [what, url] of [
      ['the share page', `${webUrl}/share/${token}`],
      ['the gallery answer', `${webUrl}/api/share/${token}`],
      ['the download answer', `${webUrl}/api/share/${token}/downloads/full`],
      ['an unknown link', `${webUrl}/share/${'x'.repeat(43)}`],
      ["an unknown link's answer", `${webUrl}/api/share/${'x'.repeat(43)}`],
    ] as const) {
      const response = await fetch(url);
      await response.arrayBuffer();
      expectPrivatePageHeaders(response, what);
    }
    // The share page keeps the site's other headers; the rest of the site keeps its own referrer policy.
    const sharePage = await fetch(`${webUrl}/share/${token}`);
    expect(sharePage.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(sharePage.headers.get('x-frame-options')).toBe('DENY');
    const home = await fetch(`${webUrl}/login`);
    expect(home.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(home.headers.get('x-robots-tag')).toBeNull();
  });
});
