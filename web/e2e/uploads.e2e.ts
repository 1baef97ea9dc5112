import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MULTIPART_PART_BYTES, MULTIPART_THRESHOLD_BYTES } from '@marketplace/events/orders';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, signIn, waitForPath, webUrl } from './browser';
import { aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/**
 * A large original goes up in parts (multipart), so a failed part is sent again on its own and a
 * reload carries on from the parts S3 already has; all of a file's parts are signed in one call.
 */
const largeFileBytes = MULTIPART_THRESHOLD_BYTES;
const partCount = Math.ceil(largeFileBytes / MULTIPART_PART_BYTES);
const partNumbers = Array.from({ length: partCount }, (_, i) => i + 1);

const s3Port = () => new URL(process.env.S3_ENDPOINT ?? 'http://127.0.0.1:1').port;
const partNumberOf = (request: Request) => {
  const url = new URL(request.url());
  return url.port === s3Port() && request.method() === 'PUT' ? Number(url.searchParams.get('partNumber') ?? 0) : 0;
};

/** Every S3 part request the page sends, by part number. */
const countParts = (page: Page) => {
  const sent = new Map<number, number>();
  page.on('request', (request) => {
    const part = partNumberOf(request);
    if (part) sent.set(part, (sent.get(part) ?? 0) + 1);
  });
  return sent;
};

/** The bodies of the page's calls to the sign route. */
const signCalls = (page: Page) => {
  const bodies: { requests?: { partNumber?: number; method: string }[]; method?: string }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/uploads/sign')) bodies.push(request.postDataJSON());
  });
  return bodies;
};

async function startOrder(page: Page, file: string) {
  await page.goto(`${webUrl}/create-order`);
  await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
  const select = page.getByRole('textbox', { name: /^Service type/ });
  await select
    .or(page.getByRole('combobox', { name: /^Service type/ }))
    .first()
    .click();
  await page.getByRole('option', { name: /HDR/ }).click();
  await page.getByRole('textbox', { name: /photo count|distinct photos to edit/i }).fill('1');
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByText(path.basename(file), { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
}

describe('Resuming a large original', () => {
  let browser: Browser;
  let dir: string;
  let largeFile: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(path.join(tmpdir(), 'large-original-'));
    largeFile = path.join(dir, 'great-hall.dng');
    writeFileSync(largeFile, randomBytes(largeFileBytes));
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs all parts in one call, and after a refused part sends only that part and the rest again', async () => {
    const photographer = await aSignedUpPhotographer('Riley Retry');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    const sent = countParts(page);
    const signed = signCalls(page);
    let refused = false;
    await page.route(
      (url) => url.port === s3Port(),
      async (route) => {
        if (!refused && partNumberOf(route.request()) === 2) {
          refused = true;
          // A client error is not retried by the upload client itself: the file fails until retried.
          await route.fulfill({
            status: 403,
            contentType: 'application/xml',
            body: '<Error><Code>AccessDenied</Code></Error>',
          });
          return;
        }
        await route.continue();
      },
    );
    await startOrder(page, largeFile);

    await page.getByRole('button', { name: 'Retry failed uploads' }).click({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    expect(Object.fromEntries(sent)).toEqual(Object.fromEntries(partNumbers.map((n) => [n, n === 2 ? 2 : 1])));
    const partBatches = signed.filter((body) => body.requests);
    // The first part signed the whole file: every part and the completion.
    expect(partBatches[0]?.requests?.map((request) => request.partNumber ?? request.method)).toEqual([
      ...partNumbers,
      'POST',
    ]);
    // Create, the parts, and after the retry the list of parts and the parts left: a call per S3 request would be 2n + 4.
    expect(signed.length).toBeLessThanOrEqual(4);
    await context.close();
  });

  it('carries on after a reload from the parts S3 already has', async () => {
    const photographer = await aSignedUpPhotographer('Robin Reload');
    const { page, context } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    const sent = countParts(page);
    // Part 2 never gets through before the reload.
    await page.route(
      (url) => url.port === s3Port(),
      async (route) => {
        if (partNumberOf(route.request()) === 2) return;
        await route.continue();
      },
    );
    const firstPartDone = page.waitForResponse((response) => partNumberOf(response.request()) === 1, {
      timeout: 60_000,
    });
    await startOrder(page, largeFile);
    expect((await firstPartDone).ok()).toBe(true);
    // Golden Retriever writes the file's upload id as the first part starts; give it a moment to land.
    await page.waitForTimeout(1_000);

    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await page.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 60_000 });
    expect(sent.get(1)).toBe(1);
    expect(sent.get(partCount)).toBe(1);
    await context.close();
  });
});
