import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../src/lib/format-money';
import {
  anOrderInProgress,
  anOrderPaidByCard,
  aVerifiedEditor,
  openAdminTab,
  signInAsAdmin,
  uniqueWord,
} from './admin-setup';
import {
  expectSettledAccessible,
  launchBrowser,
  openPage,
  pageFitsWidth,
  screenshot,
  toast,
  viewports,
} from './browser';
import { aSignedUpPhotographer } from './orders-setup';

const row = (page: Page, orderName: string) => page.getByRole('row').filter({ hasText: orderName });

const chooseFilter = (page: Page, label: 'Unassigned' | 'Assigned' | 'All Orders') =>
  page.getByRole('combobox', { name: 'Assignment' }).selectOption({ label });

/** Picks the editor in an open assign dialog by typing part of their name, as an admin would. */
async function chooseEditor(page: Page, dialog: Locator, editorName: string, typed: string) {
  await dialog.getByRole('textbox', { name: 'Editor' }).fill(typed);
  await page.getByRole('option', { name: editorName }).click();
}

describe('The admin assigns, unassigns and cancels orders from the Orders tab', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('finds one photographer’s orders, assigns one, bulk-assigns two, unassigns one and cancels it with a refund', async () => {
    const word = uniqueWord();
    const photographer = await aSignedUpPhotographer(`Quill ${word} Photography`);
    const editor = await aVerifiedEditor(`Vera ${word} Retouch`);
    const busyEditor = await aVerifiedEditor(`Boris ${word} Busy`);
    const [alder, birch, cedar] = await Promise.all(
      ['Alder Loft', 'Birch House', 'Cedar Cabin'].map((name) =>
        anOrderPaidByCard({ photographer, name: `${name} ${word}` }),
      ),
    );
    if (!alder || !birch || !cedar) throw new Error('orders not created');
    const dune = await anOrderInProgress({ photographer, name: `Dune Villa ${word}`, editor: busyEditor });

    const { page, context } = await openPage(browser);
    await signInAsAdmin(page);
    await openAdminTab(page, 'orders');
    await page.getByRole('textbox', { name: 'Search' }).fill(word);
    for (const order of [alder, birch, cedar]) await row(page, order.name).waitFor();
    expect(await row(page, dune.name).count(), 'an order in progress is not unassigned').toBe(0);

    // An order being worked on shows 'In Progress' and cannot be ticked.
    await chooseFilter(page, 'All Orders');
    const duneRow = row(page, dune.name);
    await duneRow.waitFor();
    expect(await duneRow.getByRole('checkbox').isDisabled()).toBe(true);
    expect(await duneRow.getByText('In Progress', { exact: true }).count()).toBeGreaterThan(0);
    expect(await duneRow.getByRole('button', { name: /^(Assign|Unassign)/ }).count()).toBe(0);
    await chooseFilter(page, 'Unassigned');
    await row(page, alder.name).waitFor();
    await screenshot(page, 'admin-orders-desktop');
    await expectSettledAccessible(page, '/admin (orders)');

    // One order from its row.
    await row(page, alder.name)
      .getByRole('button', { name: `Assign ${alder.name}` })
      .click();
    let dialog = page.getByRole('dialog', { name: `Assign ${alder.name}` });
    await dialog.waitFor();
    await expectSettledAccessible(page, '/admin (assign dialog)');
    await chooseEditor(page, dialog, editor.displayName, word);
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await toast(page, 'Order assigned successfully');
    await row(page, alder.name).waitFor({ state: 'detached' });

    // Two at once: the server says how many it assigned.
    await row(page, birch.name).getByRole('checkbox').check();
    await row(page, cedar.name).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Bulk Assign' }).click();
    dialog = page.getByRole('dialog', { name: 'Bulk Assign Orders' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Assign 2 orders' }).click();
    await dialog.getByText('Please select an editor').waitFor();
    await screenshot(page, 'admin-orders-bulk-dialog-desktop');
    await expectSettledAccessible(page, '/admin (bulk assign dialog)');
    await chooseEditor(page, dialog, editor.displayName, word);
    const bulkAnswer = page.waitForResponse((response) => response.url().includes('/api/orders/admin/bulk-assign'));
    await dialog.getByRole('button', { name: 'Assign 2 orders' }).click();
    const bulk = (await (await bulkAnswer).json()) as { message: string; assigned: string[] };
    expect(bulk.assigned.sort()).toEqual([birch.orderId, cedar.orderId].sort());
    await toast(page, bulk.message);
    await row(page, birch.name).waitFor({ state: 'detached' });
    await row(page, cedar.name).waitFor({ state: 'detached' });

    // On the Assigned filter the three are the editor's; one goes back after a confirm.
    await chooseFilter(page, 'Assigned');
    for (const order of [alder, birch, cedar]) {
      await row(page, order.name).getByText(editor.displayName).waitFor();
    }
    await row(page, birch.name)
      .getByRole('button', { name: `Unassign ${birch.name}` })
      .click();
    dialog = page.getByRole('dialog', { name: 'Unassign order' });
    await dialog.waitFor();
    await expectSettledAccessible(page, '/admin (unassign dialog)');
    await dialog.getByRole('button', { name: 'Unassign', exact: true }).click();
    await toast(page, 'Order unassigned successfully');
    await row(page, birch.name).waitFor({ state: 'detached' });

    // Back among the unassigned, it is cancelled and refunded in full.
    await chooseFilter(page, 'Unassigned');
    await row(page, birch.name)
      .getByRole('button', { name: `More actions for ${birch.name}` })
      .click();
    await page.getByRole('menuitem', { name: 'Cancel order' }).click();
    dialog = page.getByRole('dialog', { name: 'Cancel order' });
    await dialog.getByText(`refunded in full (${formatMoney(birch.totalAmountCents)})`).waitFor();
    await expectSettledAccessible(page, '/admin (cancel dialog)');
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await toast(page, `Order cancelled and ${formatMoney(birch.totalAmountCents)} refunded`);
    await chooseFilter(page, 'All Orders');
    await row(page, birch.name).getByText('Cancelled', { exact: true }).first().waitFor();
    await screenshot(page, 'admin-orders-all-desktop');

    // A phone gets cards, not a squeezed table.
    await page.setViewportSize(viewports.phone);
    await page.getByRole('list', { name: 'Orders' }).waitFor();
    await page.waitForTimeout(300);
    expect(await pageFitsWidth(page), 'the Orders tab fits a 390 px phone').toBe(true);
    await screenshot(page, 'admin-orders-phone');
    await expectSettledAccessible(page, '/admin (orders) on a phone');
    await context.close();
  }, 240_000);
});
