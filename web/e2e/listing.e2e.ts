import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sequenceChangedMessage } from '@marketplace/events/delivery';
import type { OrderImageView } from '@marketplace/events/orders';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { as, type TestAccount, waitFor } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  pageFitsWidth,
  screenshot,
  signIn,
  toast,
  viewports,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

const shots = ['IMG_0011', 'IMG_0012', 'IMG_0013', 'IMG_0014'];
const edited = (shot: string) => `${shot}_edited.jpg`;

/** A JPEG of a room-like gradient, `width` x two thirds of it; each shot its own colour. */
const aPhoto = async (name: string, hue: number, width: number) => {
  const height = Math.round((width * 2) / 3);
  return {
    name,
    mimeType: 'image/jpeg',
    buffer: await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
          <rect width="${width}" height="${height}" fill="hsl(${hue},45%,55%)"/>
          <rect x="${width / 2}" y="${height / 5}" width="${width / 4}" height="${height / 2}" fill="hsl(${hue + 40},30%,80%)"/>
        </svg>`,
      ),
    )
      .jpeg({ quality: 85 })
      .toBuffer(),
  };
};

/**
 * A completed order of the four shots: originals 600 px wide, edits 1,600 px wide (so an MLS size
 * of 1,024 px has something to shrink), each edit paired with its original by name; its thumbnails made.
 */
async function aDeliveredListing(photographer: TestAccount & { displayName: string }, name: string) {
  const originalFiles = await Promise.all(shots.map((shot, i) => aPhoto(`${shot}.jpg`, i * 80, 600)));
  const editedFiles = await Promise.all(shots.map((shot, i) => aPhoto(edited(shot), i * 80 + 20, 1600)));
  const { orderId } = await aCompletedOrder({ photographer, name, originalFiles, editedFiles });
  await waitFor(
    async () => (await as(photographer).get(`/api/orders/${orderId}/images`)).body.images as OrderImageView[],
    (images) => images.length === 8 && images.every((image) => image.thumbnail === 'ready'),
    60_000,
  );
  return { orderId, editedFiles };
}

/** The entries of a zip file in the order they are stored, with their bytes. */
const zipEntries = (file: string) =>
  new Promise<{ name: string; bytes: Buffer }[]>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const entries: { name: string; bytes: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });

/** Presses a download button and waits for the browser's download manager to save the zip. */
async function downloadZip(page: Page, button: string) {
  const started = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByRole('button', { name: button }).click();
  const download = await started;
  const saved = path.join(mkdtempSync(path.join(tmpdir(), 'listing-e2e-')), download.suggestedFilename());
  await download.saveAs(saved);
  return { filename: download.suggestedFilename(), entries: await zipEntries(saved) };
}

/** `{NN}_{order name}_{original base name}.jpg`, NN from 01, in this order. */
const entryNamesFor = (orderName: string, order: string[]) =>
  order.map((shot, i) => `${String(i + 1).padStart(2, '0')}_${orderName.replace(/ /g, '_')}_${shot}.jpg`);

const grid = (page: Page) => page.getByRole('list', { name: 'Photos in listing order' });
const tileOf = (page: Page, shot: string) =>
  grid(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('img', { name: edited(shot) }) });

/** The shots in the order the grid shows them. */
const shownOrder = (page: Page) =>
  grid(page)
    .getByRole('img')
    .evaluateAll((images) => images.map((image) => (image.getAttribute('alt') ?? '').replace('_edited.jpg', '')));

const expectShownOrder = (page: Page, order: string[]) =>
  expect.poll(() => shownOrder(page), { timeout: 5_000 }).toEqual(order);

/** What dnd-kit's live region said last. */
const lastAnnouncement = (page: Page) => page.locator('[role="status"][aria-live="assertive"]').first().textContent();

/** Every picture in the grid has loaded and has pixels. */
const expectThumbnailsLoaded = (area: Locator) =>
  area.evaluate(
    (element) =>
      new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 15_000;
        const check = () => {
          const images = [...element.querySelectorAll('img')];
          if (images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0)) return resolve();
          if (Date.now() > deadline) return reject(new Error('thumbnails did not load'));
          setTimeout(check, 100);
        };
        check();
      }),
  );

async function openListing(page: Page, photographer: TestAccount, orderId: string, orderName: string) {
  await signIn(page, photographer.email, testAccountPassword);
  await waitForPath(page, '/dashboard');
  await page.goto(`${webUrl}/orders/${orderId}`);
  await page.getByRole('heading', { level: 1, name: orderName }).waitFor();
  await grid(page).waitFor();
  // The thumbnails load lazily: bring the grid on screen first.
  await centreGrid(page);
  await expectThumbnailsLoaded(grid(page));
}

/** Drags one tile onto another with the mouse, in steps, as a hand would. */
async function dragWithMouse(page: Page, source: Locator, target: Locator) {
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('tiles not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 3);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 3, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 3, { steps: 20 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

/** Drags one tile onto another with a finger: a press held still until the drag starts, then a slide. */
async function dragWithFinger(page: Page, source: Locator, target: Locator) {
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('tiles not on screen');
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 3 };
  const end = { x: to.x + to.width / 2, y: to.y + to.height / 3 };
  await touch('touchStart', start.x, start.y);
  await page.waitForTimeout(400);
  for (let step = 1; step <= 20; step++) {
    await touch('touchMove', start.x + ((end.x - start.x) * step) / 20, start.y + ((end.y - start.y) * step) / 20);
  }
  await page.waitForTimeout(150);
  await touch('touchEnd');
  await cdp.detach();
}

/**
 * Picks a photo up by its move handle, moves it with one arrow key at a time (each step announced)
 * and drops it, all by keyboard.
 */
async function moveWithKeyboard(page: Page, shot: string, from: number, steps: { key: string; over: string }[]) {
  await grid(page)
    .getByRole('button', { name: `Move ${edited(shot)}, photo ${from} of 4` })
    .focus();
  await page.keyboard.press('Space');
  await expect.poll(() => lastAnnouncement(page)).toMatch(new RegExp(`^Picked up photo ${from} of 4\\.`));
  // dnd-kit takes arrow keys once it has measured the photo it picked up, a few frames later; a person is slower.
  await page.waitForTimeout(300);
  for (const { key, over } of steps) {
    await page.keyboard.press(key);
    await expect.poll(() => lastAnnouncement(page)).toBe(`Photo ${from} of 4 is over ${over}.`);
  }
  await page.keyboard.press('Space');
}

/** Where the grid starts on the page; it must not move when the first change shows the unsaved state. */
const gridTop = (page: Page) => grid(page).evaluate((element) => element.getBoundingClientRect().top + window.scrollY);

/** How many columns the grid shows: the tiles of its first row. */
const columnsOf = (page: Page) =>
  grid(page)
    .getByRole('listitem')
    .evaluateAll(
      (tiles) =>
        tiles.filter((tile) => tile.getBoundingClientRect().top === tiles[0]?.getBoundingClientRect().top).length,
    );

/** Puts the grid in the middle of the screen, away from the edges where a drag scrolls the page. */
const centreGrid = (page: Page) => grid(page).evaluate((element) => element.scrollIntoView({ block: 'center' }));

const mlsLine = (page: Page) => page.getByRole('region', { name: 'MLS-Ready Photos' });

describe('The listing order: arranged by drag and keyboard, saved, and delivered in that order', () => {
  let browser: Browser;
  let photographer: TestAccount & { displayName: string };
  const suffix = Date.now().toString(36);
  const desktopName = `Oak Street ${suffix}`;
  const phoneName = `Bay Road ${suffix}`;
  let desktopOrder: Awaited<ReturnType<typeof aDeliveredListing>>;
  let phoneOrder: Awaited<ReturnType<typeof aDeliveredListing>>;

  beforeAll(async () => {
    [browser, photographer] = await Promise.all([launchBrowser(), aSignedUpPhotographer('Lena Listing')]);
    desktopOrder = await aDeliveredListing(photographer, desktopName);
    phoneOrder = await aDeliveredListing(photographer, phoneName);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('on a desktop: drag, keyboard and Make cover; a save that met another tab’s; MLS at 1,024 px; both zips in the saved order', async () => {
    const { orderId, editedFiles } = desktopOrder;
    const { page, context } = await openPage(browser);
    await openListing(page, photographer, orderId, desktopName);
    const listing = page.getByRole('region', { name: 'Listing Order' });

    // Until saved, the listing follows the originals' capture order.
    await expectShownOrder(page, ['IMG_0011', 'IMG_0012', 'IMG_0013', 'IMG_0014']);
    await listing.getByText('In capture order', { exact: true }).waitFor();
    await screenshot(page, 'listing-default-desktop');

    await centreGrid(page);
    const topBefore = await gridTop(page);
    await dragWithMouse(page, tileOf(page, 'IMG_0013'), tileOf(page, 'IMG_0011'));
    await expectShownOrder(page, ['IMG_0013', 'IMG_0011', 'IMG_0012', 'IMG_0014']);
    expect(await gridTop(page), 'the grid stays where it was').toBe(topBefore);
    expect(await lastAnnouncement(page)).toBe('Photo 3 of 4 moved to place 1, the cover.');
    await listing.getByText('Unsaved changes', { exact: true }).waitFor();

    // Three columns at 1,280 px: photo 4 starts the second row, under the cover.
    expect(await columnsOf(page)).toBe(3);
    await moveWithKeyboard(page, 'IMG_0014', 4, [
      { key: 'ArrowUp', over: 'place 1, the cover' },
      { key: 'ArrowRight', over: 'place 2' },
      { key: 'ArrowRight', over: 'place 3' },
    ]);
    await expectShownOrder(page, ['IMG_0013', 'IMG_0011', 'IMG_0014', 'IMG_0012']);
    expect(await lastAnnouncement(page)).toBe('Photo 4 of 4 moved to place 3.');

    await listing.getByRole('button', { name: 'Make cover: IMG_0012_edited.jpg' }).click();
    await expectShownOrder(page, ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014']);
    await tileOf(page, 'IMG_0012').getByText('Cover', { exact: true }).waitFor();
    expect(
      await listing
        .getByRole('button', { name: 'Move IMG_0012_edited.jpg, photo 1 of 4' })
        .evaluate((handle) => handle === document.activeElement),
    ).toBe(true);
    await screenshot(page, 'listing-unsaved-desktop');
    await expectSettledAccessible(page, 'the listing order with unsaved changes');

    // Meanwhile another tab saves an order of its own.
    const sequence = (await as(photographer).get(`/api/orders/${orderId}/sequence`)).body as {
      photos: { key: string }[];
    };
    const theirs = await as(photographer).put(`/api/orders/${orderId}/sequence`, {
      keys: sequence.photos.map((photo) => photo.key).reverse(),
      version: 0,
    });
    expect(theirs.status).toBe(200);

    await listing.getByRole('button', { name: 'Save', exact: true }).click();
    await listing.getByText(sequenceChangedMessage).waitFor();
    await screenshot(page, 'listing-conflict-desktop');
    await expectSettledAccessible(page, 'the listing order after a save met another');
    await listing.getByRole('button', { name: 'Keep mine' }).click();
    await toast(page, 'Listing order saved');
    await listing.getByText(/^Saved [A-Z][a-z]{2} \d{1,2}, \d{4}$/).waitFor();
    expect(await listing.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    // The last save wins, and stays after a reload.
    await page.reload();
    await grid(page).waitFor();
    await expectShownOrder(page, ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014']);

    // MLS-ready copies at 1,024 px on the long edge.
    await mlsLine(page).getByRole('radio', { name: '2,048 px' }).waitFor({ state: 'attached' });
    expect(await mlsLine(page).getByRole('radio', { name: '2,048 px' }).isChecked()).toBe(true);
    await mlsLine(page).getByText('1,024 px', { exact: true }).click();
    await toast(page, 'MLS-ready photos set to 1,024 px on the long edge');
    await mlsLine(page).getByText('All 4 copies ready at 1,024 px.').waitFor({ timeout: 90_000 });
    await screenshot(page, 'listing-saved-desktop');
    await expectSettledAccessible(page, 'the listing order, saved, with its MLS-ready set');

    const saved = ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014'];
    const mls = await downloadZip(page, 'MLS-ready (zip)');
    expect(mls.filename).toBe(`${desktopName.replace(/ /g, '_')}_MLS_ready.zip`);
    expect(mls.entries.map((entry) => entry.name)).toEqual(entryNamesFor(desktopName, saved));
    for (const entry of mls.entries) {
      const { format, width, height } = await sharp(entry.bytes).metadata();
      expect({ format, longEdge: Math.max(width ?? 0, height ?? 0) }).toEqual({ format: 'jpeg', longEdge: 1024 });
    }

    const full = await downloadZip(page, 'Download Edited Photos');
    expect(full.filename).toBe(`${desktopName.replace(/ /g, '_')}_edited_photos.zip`);
    expect(full.entries.map((entry) => entry.name)).toEqual(entryNamesFor(desktopName, saved));
    // Full resolution: the editor's files themselves, byte for byte.
    full.entries.forEach((entry, i) => {
      const file = editedFiles.find((f) => f.name === edited(saved[i] as string));
      expect(entry.bytes.equals(file?.buffer ?? Buffer.alloc(0))).toBe(true);
    });

    await checkOnPhone(page, 'listing-saved', { accessible: true });
    await context.close();
  }, 300_000);

  it('on a phone: a held finger drags, the keyboard moves, Make cover, save, and the MLS-ready zip in that order', async () => {
    const { orderId } = phoneOrder;
    const context = await browser.newContext({ viewport: viewports.phone, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await openListing(page, photographer, orderId, phoneName);
    const listing = page.getByRole('region', { name: 'Listing Order' });
    await expectShownOrder(page, ['IMG_0011', 'IMG_0012', 'IMG_0013', 'IMG_0014']);
    expect(await pageFitsWidth(page), 'the order page fits a 390 px phone').toBe(true);

    // Two columns: IMG_0013 starts the second row; held and slid up onto the cover.
    await centreGrid(page);
    const topBefore = await gridTop(page);
    await dragWithFinger(page, tileOf(page, 'IMG_0013'), tileOf(page, 'IMG_0011'));
    await expectShownOrder(page, ['IMG_0013', 'IMG_0011', 'IMG_0012', 'IMG_0014']);
    expect(await gridTop(page), 'the grid stays where it was').toBe(topBefore);

    // Two columns on a phone: photo 4 ends the second row, beside place 3.
    expect(await columnsOf(page)).toBe(2);
    await moveWithKeyboard(page, 'IMG_0014', 4, [{ key: 'ArrowLeft', over: 'place 3' }]);
    await expectShownOrder(page, ['IMG_0013', 'IMG_0011', 'IMG_0014', 'IMG_0012']);
    expect(await lastAnnouncement(page)).toBe('Photo 4 of 4 moved to place 3.');

    await listing.getByRole('button', { name: 'Make cover: IMG_0012_edited.jpg' }).click();
    await expectShownOrder(page, ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014']);
    await listing.getByText('Unsaved changes', { exact: true }).waitFor();
    expect(await pageFitsWidth(page), 'the unsaved listing fits a 390 px phone').toBe(true);
    await screenshot(page, 'listing-unsaved-phone');
    await expectSettledAccessible(page, 'the listing order on a phone');

    await listing.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Listing order saved');
    await page.reload();
    await grid(page).waitFor();
    await expectShownOrder(page, ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014']);

    await mlsLine(page).getByText('All 4 copies ready at 2,048 px.').waitFor({ timeout: 90_000 });
    await screenshot(page, 'listing-saved-phone');
    const mls = await downloadZip(page, 'MLS-ready (zip)');
    expect(mls.entries.map((entry) => entry.name)).toEqual(
      entryNamesFor(phoneName, ['IMG_0012', 'IMG_0013', 'IMG_0011', 'IMG_0014']),
    );
    // Never enlarged: 1,600 px edits stay 1,600 px under a 2,048 px long edge.
    const { width } = await sharp(mls.entries[0]?.bytes).metadata();
    expect(width).toBe(1600);
    await context.close();
  }, 300_000);
});
