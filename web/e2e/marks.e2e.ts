import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aVerifiedEditor } from './admin-setup';
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
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

describe('Marks on the photos, from the photographer to the editor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws a mark with the mouse and one with the keyboard, sends them with a revision, and the editor ticks one done', async () => {
    const [photographer, editor] = await Promise.all([
      aSignedUpPhotographer('Mara Photographer'),
      aVerifiedEditor('Milo Retoucher'),
    ]);
    const orderName = `Alder Court ${Date.now()}`;
    const photographerView = await openPage(browser);
    const page = photographerView.page;
    const { orderId } = await aCompletedOrder({
      photographer,
      name: orderName,
      originalFiles: await jpegFiles(page, ['kitchen.jpg']),
      editedFiles: await jpegFiles(page, ['kitchen.jpg']),
      editor: { userId: editor.uid, name: editor.displayName, email: editor.email },
    });

    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/orders/${orderId}`);
    const section = page.getByRole('region', { name: 'Marks on the Photos' });
    // The button turns on once the photo's preview is made.
    const choose = section.getByRole('button', { name: 'kitchen.jpg' });
    await expect.poll(() => choose.isEnabled(), { timeout: 60_000 }).toBe(true);
    await choose.click();
    const modal = page.getByRole('dialog', { name: 'Marks on kitchen.jpg' });
    await modal.waitFor();

    // With the mouse: a rectangle dragged across the photo's upper left quarter.
    const layer = modal.getByTestId('mark-layer');
    await modal.getByRole('img', { name: /kitchen\.jpg/ }).waitFor();
    await expect.poll(async () => (await layer.boundingBox())?.height ?? 0).toBeGreaterThan(50);
    const box = (await layer.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.1);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3, { steps: 5 });
    await page.mouse.up();
    const firstNote = modal.getByRole('textbox', { name: 'Note for mark 1' });
    await expect.poll(() => firstNote.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.type('Remove the bin');

    // With the keyboard: an arrow in the middle, moved right twice.
    await modal.getByRole('button', { name: 'Arrow', exact: true }).click();
    await modal.getByRole('button', { name: 'Add arrow in the middle' }).click();
    await modal.getByRole('textbox', { name: 'Note for mark 2' }).fill('Straighten this wall');
    await modal.getByRole('button', { name: '2. Arrow' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await modal.getByText('Mark 2 moved to 37% from the left').waitFor({ state: 'attached' });
    await expectSettledAccessible(page, '/orders/{id} (drawing marks)');
    await checkOnPhone(page, 'marks-drawing', { accessible: true });
    await modal.getByRole('button', { name: 'Save marks' }).click();
    await modal.waitFor({ state: 'detached' });

    // Shown over the before and after, with the notes, as marks of the coming revision.
    const notes = section.getByRole('list', { name: 'Marks on kitchen.jpg' });
    await notes.getByText('1. Rectangle: Remove the bin (revision 1)').waitFor();
    await notes.getByText('2. Arrow: Straighten this wall (revision 1)').waitFor();
    await section.getByRole('img', { name: /kitchen\.jpg \(after\)/ }).waitFor();
    expect(await section.locator('[data-mark-id]').count()).toBe(4);
    // The switch's input is visually hidden behind its track: its label is what is clicked.
    await section.getByText('Show marks', { exact: true }).click();
    expect(await section.getByRole('switch', { name: 'Show marks' }).isChecked()).toBe(false);
    expect(await section.locator('[data-mark-id]').count()).toBe(0);
    await expectSettledAccessible(page, '/orders/{id} (marks shown)');

    await page.getByRole('button', { name: 'Request Revision' }).click();
    const revision = page.getByRole('dialog', { name: 'Request a Revision' });
    await revision.getByLabel('What should change?').fill('See the marks on the kitchen.');
    await revision.getByRole('button', { name: 'Send Revision Request' }).click();
    await page.getByText('Revision requested. Your editor has been notified.').waitFor();
    await photographerView.context.close();

    // The editor sees the marks over the photo and ticks the bin done.
    const editorView = await openPage(browser);
    const editorPage = editorView.page;
    await signIn(editorPage, editor.email, testAccountPassword);
    await editorPage.waitForURL((url) => url.pathname !== '/login');
    await editorPage.goto(`${webUrl}/editor/orders/${orderId}`);
    const editorSection = editorPage.getByRole('region', { name: 'Marks on the Photos' });
    await editorSection.getByText('0 of 2 done').waitFor();
    await editorSection.getByRole('checkbox', { name: /1\. Rectangle: Remove the bin/ }).click();
    await editorSection.getByText('1 of 2 done').waitFor();
    await editorSection.getByText('Mark 1 ticked done.').waitFor({ state: 'attached' });
    await expectSettledAccessible(editorPage, '/editor/orders/{id} (marks)');
    await checkOnPhone(editorPage, 'editor-marks', { accessible: true });
    // Read again from the server: the tick stayed.
    await editorPage.reload();
    await editorPage.getByRole('region', { name: 'Marks on the Photos' }).getByText('1 of 2 done').waitFor();
    await editorView.context.close();
  }, 150_000);
});
