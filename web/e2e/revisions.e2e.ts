import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aVerifiedEditor } from './admin-setup';
import {
  checkOnPhone,
  expectAccessible,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { emailTo } from './editor-setup';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

describe('A revision request, from the photographer to the editor and back', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends a completed order back with notes, the editor re-delivers it, and it is completed again', async () => {
    const [photographer, editor] = await Promise.all([
      aSignedUpPhotographer('Rowan Photographer'),
      aVerifiedEditor('Rhea Retoucher'),
    ]);
    const orderName = `Birch Lane ${Date.now()}`;
    const photographerView = await openPage(browser);
    const page = photographerView.page;
    const { orderId } = await aCompletedOrder({
      photographer,
      name: orderName,
      editedFiles: await jpegFiles(page, ['kitchen.jpg', 'porch.jpg']),
      editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
    });

    // The photographer asks for a revision: a note for the order and one on the kitchen.
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/orders/${orderId}`);
    await page.getByRole('heading', { name: orderName }).waitFor();
    await page.getByRole('button', { name: 'Request Revision' }).click();
    const modal = page.getByRole('dialog', { name: 'Request a Revision' });
    await modal.waitFor();
    await modal.getByLabel('Note on kitchen.jpg').waitFor();
    await expectSettledAccessible(page, '/orders/{id} (request a revision)');
    await checkOnPhone(page, 'revision-request-modal');
    // The note is required.
    await modal.getByRole('button', { name: 'Send Revision Request' }).click();
    await modal.getByText('Please describe what should change').waitFor();
    const note = 'The kitchen window still looks grey; please brighten it.';
    await modal.getByLabel('What should change?').fill(note);
    await modal.getByLabel('Note on kitchen.jpg').fill('Replace the sky outside the window');
    await modal.getByRole('button', { name: 'Send Revision Request' }).click();
    await page.getByText('Revision requested. Your editor has been notified.').waitFor();
    await page.getByText('Revision Requested', { exact: true }).first().waitFor();
    const history = page.getByRole('region', { name: 'Revisions' });
    await history.getByText(note).waitFor();
    await history.getByText('Replace the sky outside the window').waitFor();
    await page.getByText('A revision is in progress.').waitFor();
    expect(await page.getByRole('button', { name: 'Request Revision' }).count()).toBe(0);
    await screenshot(page, 'revision-requested-desktop');
    await expectAccessible(page, '/orders/{id} (revision requested, with its toast)');

    // The editor finds it in My Assignments with the note, and opens it.
    const editorView = await openPage(browser);
    const editorPage = editorView.page;
    await signIn(editorPage, editor.email, testAccountPassword);
    await editorPage.waitForURL((url) => url.pathname !== '/login');
    await editorPage.goto(`${webUrl}/editor`);
    const assignment = editorPage.getByRole('list', { name: 'My assignments' }).getByRole('listitem').filter({
      hasText: orderName,
    });
    await assignment.getByText('Revision Requested').waitFor();
    await assignment.getByText(note).waitFor();
    await assignment.getByRole('link', { name: 'Work on Order' }).click();
    await waitForPath(editorPage, `/editor/orders/${orderId}`);
    const panel = editorPage.getByRole('region', { name: 'Revision 1 requested' });
    await panel.getByText(note).waitFor();
    await panel.getByText('kitchen.jpg').waitFor();
    await panel.getByText('Replace the sky outside the window').waitFor();
    await expectSettledAccessible(editorPage, '/editor/orders/{id} (revision)');
    await checkOnPhone(editorPage, 'editor-revision-panel');

    // A new kitchen.jpg replaces the first one; then the order is complete again.
    await editorPage.locator('input[type="file"]').setInputFiles(await jpegFiles(editorPage, ['kitchen.jpg']));
    await editorPage.getByRole('button', { name: 'Upload Files' }).click();
    await editorPage.getByText('Uploaded: kitchen.jpg').waitFor({ timeout: 60_000 });
    await editorPage.getByRole('heading', { name: 'Delivered Files (2)' }).waitFor();
    await editorPage.getByRole('button', { name: 'Mark Complete' }).click();
    const confirm = editorPage.getByRole('dialog', { name: 'Mark order as completed' });
    await confirm.getByRole('button', { name: 'Yes, mark complete' }).click();
    await editorPage.getByText('Order marked as completed!').waitFor();
    await waitForPath(editorPage, '/editor');
    await editorView.context.close();

    // The photographer sees it completed again, the round re-delivered, and one round left.
    await page.reload();
    await page.getByRole('heading', { name: orderName }).waitFor();
    await page.getByText('Completed', { exact: true }).first().waitFor();
    await history.getByText('Re-delivered', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Request Revision' }).waitFor();
    await photographerView.context.close();

    // The editor was told by email.
    const email = await emailTo(editor.email);
    expect(email.subject ?? '').toMatch(/revision/i);
  }, 90_000);
});
