import { PutObjectCommand } from '@aws-sdk/client-s3';
import { editedPrefix, type OrderImageView } from '@marketplace/events/orders';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photosBucket, s3 } from '../../services/src/adapters/s3';
import { claimOrder, createOrder, nextOrderNumber, registerEdited } from '../../services/src/data/orders';
import { anEditor, type TestAccount } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  viewports,
  waitForPath,
  webUrl,
} from './browser';
import { aPaidOrder } from './editor-setup';
import { aSignedUpPhotographer, type FileToUpload, storeOriginal, testAccountPassword } from './orders-setup';

const DELAYED_TEXT = 'Live updates are delayed. Reload to see the latest.';

const liveEndpoint = () => {
  const url = process.env.LIVE_ENDPOINT;
  if (!url) throw new Error('LIVE_ENDPOINT is not set. Run the browser tests through the harness.');
  return url.replace(/\/$/, '');
};

/**
 * A page that notes, from its first script, whether the delayed notice ever showed, and whether
 * it is still the same document (no reload) when asked.
 */
async function watchedPage(browser: Browser, viewport: keyof typeof viewports = 'desktop') {
  const opened = await openPage(browser, viewport);
  await opened.context.addInitScript(() => {
    const state = window as unknown as { delayedNoticeShown?: boolean; documentId?: string };
    state.documentId = Math.random().toString(36);
    new MutationObserver(() => {
      if (document.querySelector('[data-live-status]')?.textContent?.includes('delayed'))
        state.delayedNoticeShown = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return opened;
}

const documentIdOf = (page: Page) => page.evaluate(() => (window as unknown as { documentId?: string }).documentId);
const delayedNoticeShown = (page: Page) =>
  page.evaluate(() => Boolean((window as unknown as { delayedNoticeShown?: boolean }).delayedNoticeShown));

const liveStatus = (page: Page, status: 'connecting' | 'live' | 'delayed') =>
  page.locator(`[data-live-status="${status}"]`);
const waitForLive = (page: Page, timeout = 20_000) => liveStatus(page, 'live').waitFor({ state: 'attached', timeout });

async function signedIn(page: Page, account: TestAccount, landing: string) {
  await signIn(page, account.email, testAccountPassword);
  await waitForPath(page, landing);
}

/** The WebSocket frames a page receives, with when they came. */
function recordFrames(page: Page) {
  const frames: { at: number; message: Record<string, unknown> }[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      try {
        frames.push({ at: Date.now(), message: JSON.parse(String(payload)) });
      } catch {
        // Not one of ours.
      }
    });
  });
  return frames;
}

/** When the page asked for an order's file list. */
function recordImagesRequests(page: Page, orderId: string) {
  const times: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === `/api/orders/${orderId}/images`)
      times.push(Date.now());
  });
  return times;
}

/**
 * Requests that no message about the order had asked for in the 2.5 s before (a burst waits out the
 * page's one-second cool-down): a timer's, since polling asks every 3 s.
 */
const unpromptedRequests = (
  requests: readonly number[],
  frames: readonly { at: number; message: Record<string, unknown> }[],
  orderId: string,
  since: number,
) =>
  requests
    .filter((at) => at >= since)
    .filter(
      (at) => !frames.some((frame) => frame.message.orderId === orderId && frame.at <= at && at - frame.at <= 2_500),
    );

/** Each listed photo's thumbnail shown as still being made, whatever the server says (the server's answer otherwise as it is). */
async function showThumbnailsPending(page: Page, orderId: string) {
  const pattern = `**/api/orders/${orderId}/images`;
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { images: OrderImageView[] };
    const images = body.images.map((image) => ({
      ...image,
      thumbnail: 'pending',
      thumbnailUrl: null,
      previewUrl: null,
    }));
    await route.fulfill({ response, json: { images } });
  });
  return () => page.unroute(pattern);
}

const hdr = { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 };

/**
 * An order whose photos are registered one by one (`addOriginal`), as the uploads of an order
 * awaiting payment finish.
 */
async function anOrderReceivingPhotos({
  photographer,
  name,
  photoCount,
}: {
  photographer: TestAccount & { displayName: string };
  name: string;
  photoCount: number;
}) {
  const orderId = ulid();
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: photographer.displayName },
    jobType: hdr,
    input: { name, photoCount },
    totalAmountCents: photoCount * hdr.pricePerPhotoCents,
    stripePaymentIntentId: `pi_e2e_${orderId}`,
  });
  const addOriginal = (file: FileToUpload) => storeOriginal(order, file);
  return { orderId, name, addOriginal };
}

/** The gateway drops every socket, as a restart does, and refuses new ones for `downMs`. */
async function restartLiveGateway(downMs: number) {
  const response = await fetch(`${liveEndpoint()}/_local/restart?downMs=${downMs}`, { method: 'POST' });
  if (!response.ok) throw new Error(`the live gateway's restart answered ${response.status}`);
}

describe('Live updates: every screen follows the order', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let photographer: TestAccount & { displayName: string };

  const watched = async (viewport: keyof typeof viewports = 'desktop') => {
    const opened = await watchedPage(browser, viewport);
    contexts.push(opened.context);
    return opened;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    photographer = await aSignedUpPhotographer('Lena Live');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it("takes an order another editor claims off an editor's list within 2 s, and adds a newly paid one, without a reload", async () => {
    const [editorA, editorB] = await Promise.all([
      anEditor({ displayName: 'Ada Claimer' }),
      anEditor({ displayName: 'Bo Watcher' }),
    ]);
    const a = await watched();
    const b = await watched();
    const order = await aPaidOrder({
      photographer,
      name: `Claimed Cottage ${Date.now()}`,
      originals: await jpegFiles(a.page, ['front.jpg']),
    });
    await Promise.all([signedIn(a.page, editorA, '/editor'), signedIn(b.page, editorB, '/editor')]);
    await Promise.all([waitForLive(a.page), waitForLive(b.page)]);

    const offered = (page: Page, name: string) => page.getByRole('listitem').filter({ hasText: name });
    await offered(a.page, order.name).getByRole('button', { name: 'Claim' }).waitFor();
    await offered(b.page, order.name).getByRole('button', { name: 'Claim' }).waitFor();
    const documentB = await documentIdOf(b.page);

    const claimed = a.page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith(`/api/orders/${order.orderId}/claim`),
    );
    await offered(a.page, order.name).getByRole('button', { name: 'Claim' }).click();
    expect((await claimed).status()).toBe(200);
    // The push, the random spread of a pool push's reads (up to 1 s) and the read itself.
    await offered(b.page, order.name).waitFor({ state: 'detached', timeout: 2_000 });

    const fresh = await aPaidOrder({
      photographer,
      name: `Freshly Paid Flat ${Date.now()}`,
      originals: await jpegFiles(b.page, ['hall.jpg']),
    });
    await offered(b.page, fresh.name).getByRole('button', { name: 'Claim' }).waitFor({ timeout: 5_000 });
    expect(await documentIdOf(b.page)).toBe(documentB);
    expect(await delayedNoticeShown(a.page)).toBe(false);
    expect(await delayedNoticeShown(b.page)).toBe(false);

    await screenshot(b.page, 'live-editor-dashboard-desktop');
    await expectSettledAccessible(b.page, '/editor, kept live');
    await checkOnPhone(b.page, 'live-editor-dashboard', { accessible: true });
  }, 120_000);

  it("turns the photographer's order page Completed, with the editor's notes, when the editor completes", async () => {
    const editor = await anEditor({ displayName: 'Cleo Completer' });
    const p = await watched();
    const e = await watched();
    const order = await aPaidOrder({
      photographer,
      name: `Completed Cabin ${Date.now()}`,
      originals: await jpegFiles(p.page, ['deck.jpg']),
    });
    const claimed = await claimOrder({
      orderId: order.orderId,
      editor: { userId: editor.uid, name: 'Cleo Completer', email: editor.email },
      rateCents: 250,
    });
    // The edited file, registered as the editor's upload route would.
    const [edited] = await jpegFiles(p.page, ['deck-edited.jpg']);
    const editedKey = `${editedPrefix(order.orderId)}deck-edited.jpg`;
    await s3().send(
      new PutObjectCommand({ Bucket: photosBucket(), Key: editedKey, Body: edited!.buffer, ContentType: 'image/jpeg' }),
    );
    await registerEdited({
      order: claimed,
      editorId: editor.uid,
      key: editedKey,
      filename: 'deck-edited.jpg',
      size: edited!.buffer.length,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });

    await signedIn(p.page, photographer, '/dashboard');
    await p.page.goto(`${webUrl}/orders/${order.orderId}`);
    await p.page.getByRole('heading', { name: order.name }).waitFor();
    const statusBadge = (text: string) =>
      p.page.locator('.mantine-Badge-root').filter({ hasText: new RegExp(`^${text}$`) });
    await statusBadge('In Progress').first().waitFor();
    await waitForLive(p.page);
    const photographerDocument = await documentIdOf(p.page);

    await signedIn(e.page, editor, '/editor');
    await e.page.goto(`${webUrl}/editor/orders/${order.orderId}`);
    await e.page.getByRole('heading', { name: 'Delivered Files (1)' }).waitFor();
    const notes = 'Lifted the shadows on the deck and cooled the sky.';
    await e.page.getByLabel('Editor Notes').fill(notes);
    await e.page.getByRole('button', { name: 'Mark Complete' }).click();
    await e.page
      .getByRole('dialog', { name: 'Mark order as completed' })
      .getByRole('button', { name: 'Yes, mark complete' })
      .click();
    await e.page.getByText('Order marked as completed!').waitFor();

    await statusBadge('Completed').first().waitFor({ timeout: 5_000 });
    await p.page.getByText(notes).waitFor({ timeout: 5_000 });
    await p.page.getByRole('button', { name: 'Download Edited Photos' }).waitFor();
    expect(await documentIdOf(p.page)).toBe(photographerDocument);
    expect(await delayedNoticeShown(p.page)).toBe(false);

    await screenshot(p.page, 'live-order-completed-desktop');
    await expectSettledAccessible(p.page, '/orders/{id}, completed while open');
    await checkOnPhone(p.page, 'live-order-completed', { accessible: true });
  }, 120_000);

  it('shows thumbnails as they are made, reading the file list only when a message says so', async () => {
    const p = await watched();
    const order = await anOrderReceivingPhotos({
      photographer,
      name: `Thumbnail Terrace ${Date.now()}`,
      photoCount: 2,
    });
    const frames = recordFrames(p.page);
    const requests = recordImagesRequests(p.page, order.orderId);
    await signedIn(p.page, photographer, '/dashboard');
    await p.page.goto(`${webUrl}/orders/${order.orderId}`);
    await p.page.getByRole('heading', { name: order.name }).waitFor();
    await waitForLive(p.page);
    const [first, second] = await jpegFiles(p.page, ['porch.jpg', 'garden.jpg']);

    // While the page sees a thumbnail being made, nothing but a message makes it ask again (polling asked every 3 s).
    const showRealThumbnails = await showThumbnailsPending(p.page, order.orderId);
    const since = Date.now();
    await order.addOriginal(first!);
    await p.page.getByText('Preparing preview...').waitFor({ timeout: 10_000 });
    await p.page.waitForTimeout(8_000);
    expect(unpromptedRequests(requests, frames, order.orderId, since)).toEqual([]);
    expect(requests.filter((at) => at >= since).length).toBeLessThanOrEqual(
      frames.filter((frame) => frame.at >= since && frame.message.orderId === order.orderId).length,
    );
    await expectSettledAccessible(p.page, '/orders/{id} with a thumbnail being made');

    // The server's own answers again: the next file's messages bring both pictures.
    await showRealThumbnails();
    await order.addOriginal(second!);
    await p.page.getByRole('img', { name: 'porch.jpg' }).waitFor({ timeout: 15_000 });
    await p.page.getByRole('img', { name: 'garden.jpg' }).waitFor({ timeout: 15_000 });
    expect(frames.some((frame) => frame.message.type === 'images.ready')).toBe(true);
    expect(unpromptedRequests(requests, frames, order.orderId, since)).toEqual([]);
    expect(await delayedNoticeShown(p.page)).toBe(false);
    await screenshot(p.page, 'live-order-thumbnails-desktop');
  }, 120_000);

  it('reconnects after the live gateway restarts and catches up on what changed meanwhile', async () => {
    const editor = await anEditor({ displayName: 'Rae Reconnect' });
    const e = await watched();
    const sockets: unknown[] = [];
    e.page.on('websocket', (socket) => sockets.push(socket));
    await signedIn(e.page, editor, '/editor');
    await waitForLive(e.page);
    const document = await documentIdOf(e.page);

    // Down until this test brings it back: paying an order takes seconds on a busy machine, and a
    // gateway back by itself meanwhile would tell the tab before the checks below.
    await restartLiveGateway(120_000);
    await e.page.locator('[data-live-status]:not([data-live-status="live"])').waitFor({ state: 'attached' });
    const meanwhile = await aPaidOrder({
      photographer,
      name: `Missed While Down ${Date.now()}`,
      originals: await jpegFiles(e.page, ['attic.jpg']),
    });
    // Told to nobody: this tab had no socket when the order was paid.
    await e.page.waitForTimeout(1_500);
    expect(await liveStatus(e.page, 'live').count()).toBe(0);
    expect(await e.page.getByRole('listitem').filter({ hasText: meanwhile.name }).count()).toBe(0);

    await restartLiveGateway(0);
    // The tab's next try comes after its backoff, at most 30 s.
    await waitForLive(e.page, 45_000);
    await e.page
      .getByRole('listitem')
      .filter({ hasText: meanwhile.name })
      .getByRole('button', { name: 'Claim' })
      .waitFor({ timeout: 5_000 });
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    expect(await documentIdOf(e.page)).toBe(document);
  }, 120_000);

  it('says updates are delayed where the socket cannot connect, without moving the page, and falls back to polling', async () => {
    const p = await watched();
    const order = await aPaidOrder({
      photographer,
      name: `Blocked Bungalow ${Date.now()}`,
      originals: await jpegFiles(p.page, ['kitchen.jpg']),
    });
    // The live gateway refuses every handshake (503) for a while, as an outage or a proxy that does not pass WebSockets would.
    const downMs = 25_000;
    const backAt = Date.now() + downMs;
    await restartLiveGateway(downMs);
    await signedIn(p.page, photographer, '/dashboard');

    // The first answer shows the thumbnail still being made; polling, with no socket, fetches the picture.
    let answers = 0;
    await p.page.route(`**/api/orders/${order.orderId}/images`, async (route) => {
      answers += 1;
      const response = await route.fetch();
      if (answers > 1) return route.fulfill({ response });
      const body = (await response.json()) as { images: OrderImageView[] };
      await route.fulfill({
        response,
        json: { images: body.images.map((image) => ({ ...image, thumbnail: 'pending', thumbnailUrl: null })) },
      });
    });
    await p.page.goto(`${webUrl}/orders/${order.orderId}`);
    const heading = p.page.getByRole('heading', { name: order.name });
    await heading.waitFor();

    const notice = p.page.getByRole('status').filter({ hasText: DELAYED_TEXT });
    await notice.waitFor({ timeout: 15_000 });
    await p.page.getByRole('img', { name: 'kitchen.jpg' }).waitFor({ timeout: 10_000 });
    expect(answers).toBeGreaterThanOrEqual(2);
    await screenshot(p.page, 'live-delayed-desktop');
    await expectSettledAccessible(p.page, '/orders/{id}, live updates delayed');
    await checkOnPhone(p.page, 'live-delayed', { accessible: true });
    await p.page.setViewportSize(viewports.phone);
    const onPhone = await notice.boundingBox();
    expect(onPhone).not.toBeNull();
    expect(onPhone!.x).toBeGreaterThanOrEqual(0);
    expect(onPhone!.x + onPhone!.width).toBeLessThanOrEqual(viewports.phone.width);
    await p.page.setViewportSize(viewports.desktop);
    await p.page.waitForTimeout(300);
    const headingWhileDelayed = await heading.boundingBox();

    // The gateway back (and the browser online, which retries at once): live again, the notice gone, nothing moved.
    await p.page.waitForTimeout(Math.max(0, backAt - Date.now() + 200));
    await p.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await waitForLive(p.page, 40_000);
    await notice.waitFor({ state: 'detached' });
    expect(await heading.boundingBox()).toEqual(headingWhileDelayed);
    // The page goes on polling: a request the route holds when the context closes must not fail the run.
    await p.page.unrouteAll({ behavior: 'ignoreErrors' });
  }, 120_000);
});
