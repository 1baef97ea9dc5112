import exifr from 'exifr';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '../../services/test/support';
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
import { aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/** EXIF's text date of a moment `seconds` after 10:00:00 on 1 May 2024. */
const exifDate = (seconds: number) => {
  const date = new Date(Date.UTC(2024, 4, 1, 10, 0, 0) + Math.floor(seconds) * 1000);
  return date.toISOString().slice(0, 19).replace('T', ' ').replaceAll('-', ':');
};

interface Shot {
  name: string;
  /** Seconds after the first shot; absent for a file without EXIF. */
  at?: number;
  bias?: number;
  hue: number;
}

/** A small photo as a camera writes it: a JPEG with its capture time and exposure in EXIF, or a bare TIFF. */
const photoOf = async (shot: Shot) => {
  const image = sharp({
    create: { width: 120, height: 80, channels: 3, background: `hsl(${shot.hue}, 60%, 50%)` },
  });
  if (shot.at === undefined) {
    return { name: shot.name, mimeType: 'image/tiff', buffer: await image.tiff().toBuffer() };
  }
  const buffer = await image
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'Test Camera' },
      IFD2: {
        DateTimeOriginal: exifDate(shot.at),
        SubSecTimeOriginal: String(Math.round((shot.at % 1) * 100)).padStart(2, '0'),
        ExposureBiasValue: `${shot.bias ?? 0}/1`,
        ExposureTime: '1/125',
      },
    })
    .toBuffer();
  return { name: shot.name, mimeType: 'image/jpeg', buffer };
};

/**
 * A RAW file as far as the page can tell: a little-endian TIFF (as CR2, NEF, ARW and DNG are) whose
 * IFD1 carries a JPEG preview, and no capture time.
 */
const rawWithPreview = (preview: Buffer) => {
  const head = Buffer.alloc(56);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(8, 4);
  // IFD0 at 8: ImageWidth 1, then IFD1 at 26.
  head.writeUInt16LE(1, 8);
  head.writeUInt16LE(0x0100, 10);
  head.writeUInt16LE(3, 12);
  head.writeUInt32LE(1, 14);
  head.writeUInt32LE(1, 18);
  head.writeUInt32LE(26, 22);
  // IFD1 at 26: where the preview JPEG starts (56) and its length.
  head.writeUInt16LE(2, 26);
  head.writeUInt16LE(0x0201, 28);
  head.writeUInt16LE(4, 30);
  head.writeUInt32LE(1, 32);
  head.writeUInt32LE(56, 36);
  head.writeUInt16LE(0x0202, 40);
  head.writeUInt16LE(4, 42);
  head.writeUInt32LE(1, 44);
  head.writeUInt32LE(preview.length, 48);
  head.writeUInt32LE(0, 52);
  return Buffer.concat([head, preview]);
};

/** Three 3-shot brackets (0, -2, +2 EV, 0.4 s apart) half a minute apart, a scan without EXIF, and a RAW file. */
const brackets: Shot[] = [0, 30, 60].flatMap((start, scene) =>
  [0, -2, 2].map((bias, i) => ({
    name: `IMG_${String(101 + scene * 3 + i).padStart(4, '0')}.jpg`,
    at: start + i * 0.4,
    bias,
    hue: scene * 110 + i * 20,
  })),
);
const scan: Shot = { name: 'scan-without-exif.tif', hue: 300 };
const raw = { name: 'dusk.CR2' };
/** Dropped out of capture order, as a folder listing might give them. */
const dropped = [
  brackets[6],
  scan,
  brackets[0],
  brackets[1],
  brackets[2],
  brackets[8],
  brackets[7],
  ...brackets.slice(3, 6),
] as Shot[];
/** Scenes in capture order, then the files without a capture time by name: dusk.CR2 (4), the scan (5). */
const expectedScene = (name: string) =>
  name === raw.name ? 4 : name === scan.name ? 5 : Math.floor((Number(name.slice(4, 8)) - 101) / 3) + 1;
const droppedNames = [...dropped.map((shot) => shot.name), raw.name];

async function chooseService(page: Page, name: RegExp) {
  await page.getByRole('textbox', { name: /^Service type/ }).click();
  await page.getByRole('option', { name }).click();
}

describe('HDR brackets on the create-order page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows thumbnails of the dropped files, suggests the scene count, and stores each original with its scene', async () => {
    const preview = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#2a4d8f' } })
      .jpeg()
      .toBuffer();
    const files = [
      ...(await Promise.all(dropped.map(photoOf))),
      { name: raw.name, mimeType: 'application/octet-stream', buffer: rawWithPreview(preview) },
    ];
    // The files carry what the page reads: a capture time and an exposure bias.
    const firstTags = await exifr.parse(files[0]!.buffer, { pick: ['DateTimeOriginal', 'ExposureCompensation'] });
    expect(firstTags?.ExposureCompensation).toBe(0);
    expect(firstTags?.DateTimeOriginal).toBeInstanceOf(Date);
    expect(await exifr.parse(files[1]!.buffer, { pick: ['DateTimeOriginal'] })).toBeUndefined();
    expect(Buffer.from((await exifr.thumbnail(files[10]!.buffer)) ?? [])).toEqual(preview);

    const photographer = await aSignedUpPhotographer('Harper Brackets');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/create-order`);
    await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(files);

    const suggestion = page.getByText('We found 5 scenes in 11 files. Use 5 as the photo count?');
    await suggestion.waitFor();
    const list = page.getByRole('list', { name: 'Selected photos' });
    const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    for (const name of droppedNames) {
      await row(name)
        .getByText(`Scene ${expectedScene(name)}`, { exact: true })
        .waitFor();
    }
    // The shots of a scene are listed together.
    const listedScenes = (await list.getByRole('listitem').allTextContents()).map((text) =>
      Number(/Scene (\d+)/.exec(text)?.[1]),
    );
    expect(listedScenes).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5]);
    // Nine JPEG thumbnails drawn in the browser, the RAW file's embedded preview, and a file-type
    // tile for the TIFF that carries none.
    const thumbnails = list.locator('img');
    await expect.poll(() => thumbnails.count()).toBe(10);
    await row(raw.name).locator('img').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('ul[aria-label="Selected photos"] img')].every(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      ),
    );
    expect(await row(scan.name).locator('img').count()).toBe(0);
    await row(scan.name).getByText('TIF', { exact: true }).waitFor();
    await screenshot(page, 'create-order-brackets-desktop');
    await expectSettledAccessible(page, '/create-order (bracket suggestion)');
    await checkOnPhone(page, 'create-order-brackets', { accessible: true });

    const photoCount = page.getByRole('textbox', { name: /Photo count/ });
    expect(await photoCount.inputValue()).toBe('1');
    await page.getByRole('button', { name: 'Use 5' }).click();
    expect(await photoCount.inputValue()).toBe('5');
    await suggestion.waitFor({ state: 'detached' });
    // The count the photographer took stays valid: 5 distinct photos from 11 files.
    expect(await page.getByText(/You want \d+ distinct photos/).count()).toBe(0);

    const orderName = `Bracketed ${Date.now()}`;
    await page.getByLabel(/order name/i).fill(orderName);
    await chooseService(page, /HDR/);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });

    const orders = await as(photographer).get('/api/orders/my');
    const order = (orders.body.orders as { id: string; name: string; photoCount: number }[]).find(
      (o) => o.name === orderName,
    );
    expect(order?.photoCount).toBe(5);
    const images = await as(photographer).get(`/api/orders/${order?.id}/images`);
    const stored = (images.body.images as { filename: string; scene: number | null }[])
      .map(({ filename, scene }) => [filename, scene])
      .sort();
    expect(stored).toEqual(droppedNames.map((name) => [name, expectedScene(name)]).sort());
    await context.close();
  });
});
