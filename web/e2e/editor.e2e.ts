import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  animationsSettled,
  checkOnPhone,
  expectAccessible,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  uniqueEmail,
  viewportScreenshot,
  waitForPath,
  webUrl,
} from './browser';
import { aPaidOrder, emailTo, inviteEditor, linkIn, sesInboxUrl } from './editor-setup';
import { aSignedUpPhotographer, testAccountPassword, zipEntryNames } from './orders-setup';

/** Holds every upload to the S3 stand-in a moment, so the progress bars are on screen long enough to see. */
const slowDownUploads = (page: Page) => {
  const s3Port = new URL(process.env.S3_ENDPOINT ?? 'http://127.0.0.1:1').port;
  return page.route(
    (url) => url.port === s3Port,
    async (route) => {
      if (['PUT', 'POST'].includes(route.request().method()))
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    },
  );
};

/** Clicks the button and saves the download it starts; answers the zip's file names (without folders). */
async function downloadZip(page: Page, button: string) {
  const downloadStarted = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: button }).click();
  const download = await downloadStarted;
  const saved = path.join(mkdtempSync(path.join(tmpdir(), 'editor-e2e-')), download.suggestedFilename());
  await download.saveAs(saved);
  const entries = (await zipEntryNames(saved)).map((entry) => path.basename(entry)).sort();
  return { filename: download.suggestedFilename(), entries };
}

describe("The editor's journey, from the invitation email to the photographer's rating", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('joins from the emailed link, claims a paid order, delivers two edited photos, and the photographer downloads them and rates the editor 9/10', async () => {
    const photographer = await aSignedUpPhotographer('Piper Photographer');
    const orderName = `Lakeside Villa ${Date.now()}`;
    const originalNames = ['original-facade.jpg', 'original-lounge.jpg'];
    const editedNames = ['edited-facade.jpg', 'edited-lounge.jpg'];
    const { page, context } = await openPage(browser);
    const order = await aPaidOrder({ photographer, name: orderName, originals: await jpegFiles(page, originalNames) });

    // The invitation, as the admin sends it, read from the local SES inbox.
    const editorEmail = uniqueEmail('invited-editor');
    await inviteEditor({ email: editorEmail, displayName: 'Indigo Invited' });
    const email = await emailTo(editorEmail);
    const link = linkIn(email, webUrl);
    const inbox = await page.goto(sesInboxUrl()).catch(() => null);
    if (inbox?.ok()) {
      await page.waitForLoadState('networkidle').catch(() => {});
      await viewportScreenshot(page, 'ses-inbox-desktop');
    }

    await page.goto(link);
    await page.getByRole('heading', { name: 'Join as an editor' }).waitFor();
    await page.getByText('HDR').first().waitFor();
    await screenshot(page, 'invitation-desktop');
    await expectSettledAccessible(page, '/invitation');
    await checkOnPhone(page, 'invitation');
    await page.getByLabel(/^Password/).fill('editor-password');
    await page.getByLabel(/^Confirm password/).fill('editor-password');
    await page.getByRole('button', { name: 'Create editor account' }).click();
    await waitForPath(page, '/editor');

    // The paid order is on offer; claiming it moves it to My Assignments.
    const offered = page.getByRole('listitem').filter({ hasText: orderName });
    await offered.getByRole('button', { name: 'Claim' }).waitFor();
    await screenshot(page, 'editor-dashboard-desktop');
    await expectSettledAccessible(page, '/editor with an order on offer');
    await checkOnPhone(page, 'editor-dashboard');
    await offered.getByRole('button', { name: 'Claim' }).click();
    await page.getByText('Order claimed successfully!').waitFor();
    await expectAccessible(page, '/editor with the claimed toast');
    const assignment = page
      .getByRole('list', { name: 'My assignments' })
      .getByRole('listitem')
      .filter({ hasText: orderName });

    // The order's files are held back until the page has been checked while they load.
    const filesUrl = `**/api/orders/${order.orderId}/images`;
    let releaseFiles = () => {};
    const filesHeld = new Promise<void>((resolve) => {
      releaseFiles = resolve;
    });
    await page.route(filesUrl, async (route) => {
      await filesHeld;
      // A request the page gave up on meanwhile (it asks again on focus) has nothing to continue.
      await route.continue().catch(() => undefined);
    });
    await assignment.getByRole('link', { name: 'Work on Order' }).click();
    await waitForPath(page, `/editor/orders/${order.orderId}`);
    await page.getByRole('heading', { name: orderName }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Loading files' }).first().waitFor();
    await expectAccessible(page, '/editor/orders/{id} (files loading)');
    releaseFiles();
    await page.getByRole('heading', { name: 'Original Images (2)' }).waitFor();
    await page.unroute(filesUrl);
    await screenshot(page, 'editor-order-desktop');
    await expectSettledAccessible(page, '/editor/orders/{id} (images)');
    await checkOnPhone(page, 'editor-order');

    const originalsZip = await downloadZip(page, 'Download All');
    expect(originalsZip.filename).toMatch(/\.zip$/);
    expect(originalsZip.entries).toEqual(originalNames);

    // Two edited photos, uploaded with per-file progress.
    await slowDownUploads(page);
    await page.locator('input[type="file"]').setInputFiles(await jpegFiles(page, editedNames));
    await page.getByRole('button', { name: 'Upload Files' }).click();
    for (const name of editedNames) await page.getByLabel(`Upload progress for ${name}`).waitFor();
    await page.getByLabel('Overall upload progress').waitFor();
    await screenshot(page, 'editor-order-uploading-desktop');
    await expectAccessible(page, '/editor/orders/{id} (uploading)');
    for (const name of editedNames) await page.getByText(`Uploaded: ${name}`).waitFor({ timeout: 60_000 });
    await page.getByText('2 file(s) uploaded successfully').waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Delivered Files (2)' }).waitFor();
    await expectSettledAccessible(page, '/editor/orders/{id} (uploaded)');

    const notes = 'Balanced the windows and straightened the verticals.';
    await page.getByLabel('Editor Notes').fill(notes);
    await screenshot(page, 'editor-order-delivered-desktop');
    await checkOnPhone(page, 'editor-order-delivered');

    await page.getByRole('tab', { name: 'Activity Log' }).click();
    await page.getByRole('tabpanel', { name: 'Activity Log' }).waitFor();
    await page.waitForLoadState('networkidle').catch(() => {});
    await screenshot(page, 'editor-order-activity-desktop');
    await expectSettledAccessible(page, '/editor/orders/{id} (activity log)');
    await checkOnPhone(page, 'editor-order-activity');
    await page.getByRole('tab', { name: 'Images' }).click();
    expect(await page.getByLabel('Editor Notes').inputValue()).toBe(notes);

    await page.getByRole('button', { name: 'Mark Complete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark order as completed' });
    await confirm.waitFor();
    await expectSettledAccessible(page, '/editor/orders/{id} (confirm completion)');
    await confirm.getByRole('button', { name: 'Yes, mark complete' }).click();
    await page.getByText('Order marked as completed!').waitFor();
    await waitForPath(page, '/editor');
    await context.close();

    // The photographer collects the edited photos and rates the editor.
    const photographerView = await openPage(browser);
    const photographerPage = photographerView.page;
    await signIn(photographerPage, photographer.email, testAccountPassword);
    await waitForPath(photographerPage, '/dashboard');
    await photographerPage.goto(`${webUrl}/orders/${order.orderId}`);
    await photographerPage.getByRole('heading', { name: orderName }).waitFor();
    await photographerPage.getByText('Completed', { exact: true }).first().waitFor();
    await photographerPage.getByText(notes).waitFor();
    await expectSettledAccessible(photographerPage, '/orders/{id} (completed by the editor)');

    const editedZip = await downloadZip(photographerPage, 'Download Edited Photos');
    expect(editedZip.filename).toMatch(/_edited_photos\.zip$/);
    // Named for the listing: `{NN}_{order name}_{photo}` (no original shares an edit's name here).
    expect(editedZip.entries).toEqual(
      editedNames.map((name, i) => `0${i + 1}_${orderName.replace(/ /g, '_')}_${name}`),
    );

    await photographerPage.getByRole('button', { name: 'Rate Editor' }).click();
    const modal = photographerPage.getByRole('dialog', { name: 'Rate Your Editor' });
    await modal.waitFor();
    await animationsSettled(photographerPage);
    await modal.getByRole('button', { name: '9 stars', exact: true }).click();
    // The choice shows before it is sent: a click that missed the star fails here, by name.
    await modal.getByText('9/10', { exact: true }).waitFor({ timeout: 5_000 });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await photographerPage.getByText('Rating submitted successfully!').waitFor();
    await photographerPage.getByText('9/10').first().waitFor();
    await screenshot(photographerPage, 'order-detail-editor-rated-desktop');
    await photographerView.context.close();
  }, 240_000);
});
