import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEarning } from '../../services/src/data/earnings';
import { fundPlatform, stripeUrl, transfersOf } from '../../services/test/payout-support';
import { anEditor } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** `npm run ops -- <args>` against the test stack, as an operator runs it. */
const ops = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/src/ops/cli.ts'), ...args], {
    cwd: repoRoot,
    env: process.env,
  });

describe('An editor paid through Stripe', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sets up payouts through the onboarding page, completes an order, is sent one transfer a week later and paid out, and an admin sees both', async () => {
    const suffix = Date.now().toString(36);
    const editorName = `Perry Payouts ${suffix}`;
    const editor = await anEditor({ displayName: editorName });
    const photographer = await aSignedUpPhotographer('Piper Photographer');
    await fundPlatform(100_000);
    const { page, context } = await openPage(browser);

    // 'Set up payouts' on /profile, through Stripe's onboarding (the fake's stand-in page), back to /profile.
    await signIn(page, editor.email, testAccountPassword);
    await waitForPath(page, '/editor');
    await page.goto(`${webUrl}/profile`);
    const section = page.getByRole('region', { name: 'Payout account' });
    await section.getByText('Not set up').waitFor();
    await expectSettledAccessible(page, '/profile before payouts');
    await section.getByRole('button', { name: 'Set up payouts' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/__onboarding/'));
    await page.getByRole('heading', { name: 'Set up payouts' }).waitFor();
    await screenshot(page, 'stripe-onboarding-desktop');
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await waitForPath(page, '/profile');
    await section.getByText('Payouts enabled').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, 'profile-payouts-enabled-desktop');
    await expectSettledAccessible(page, '/profile with payouts enabled');
    await checkOnPhone(page, 'profile-payouts', { accessible: true });

    // An order delivered: its earning is held for the revision window.
    const orderName = `Harbor Loft ${suffix}`;
    const { orderId } = await aCompletedOrder({
      photographer,
      name: orderName,
      editedFiles: await jpegFiles(page, ['edited-living.jpg', 'edited-kitchen.jpg']),
      editor: { userId: editor.uid, name: editorName, email: editor.email },
    });
    const earning = (await getEarning(orderId, { consistent: true }))!;
    expect(earning).toMatchObject({ state: 'held', amountCents: 500 });
    expect(await transfersOf(orderId)).toEqual([]);

    // A week later the release sends it: one transfer, however often it runs.
    const aWeekLater = new Date(Date.parse(earning.releaseAt!) + 60_000).toISOString();
    const released = await ops('release-earnings', '--as-of', aWeekLater);
    expect(released.stdout).toContain(`Release as of ${aWeekLater}:`);
    await ops('release-earnings', '--as-of', aWeekLater);
    const transfers = await transfersOf(orderId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.amount).toBe(500);

    // Stripe's schedule pays the balance out to the editor's bank; payout.paid reaches us.
    const payoutRun = await fetch(`${stripeUrl()}/__payouts`, {
      method: 'POST',
      body: JSON.stringify({ account: transfers[0]!.destination }),
    });
    expect(payoutRun.status).toBe(200);
    const payouts = page.getByRole('table', { name: 'Payouts to your bank' });
    for (let tries = 0; tries < 30; tries++) {
      await page.goto(`${webUrl}/profile`);
      await page
        .getByRole('region', { name: 'Payouts' })
        .getByText(/No payouts yet|Paid|On its way/)
        .first()
        .waitFor();
      if (await payouts.getByText(orderName).count()) break;
      await page.waitForTimeout(500);
    }
    await payouts.getByText(orderName).waitFor();
    await payouts.getByText('$5.00').waitFor();
    const earnings = page.getByRole('table', { name: 'Earnings' });
    await earnings
      .getByRole('row', { name: new RegExp(orderName) })
      .getByText('Paid out')
      .waitFor();
    await screenshot(page, 'profile-payouts-list-desktop');
    await expectSettledAccessible(page, '/profile with a payout');
    await context.close();

    // The admin sees the editor's account and the transfer, paid out.
    const admin = await openPage(browser);
    await signIn(admin.page, 'admin@example.com');
    await waitForPath(admin.page, '/admin');
    await admin.page.goto(`${webUrl}/admin?tab=editors`);
    const card = admin.page
      .getByRole('list', { name: 'Editors' })
      .getByRole('listitem', { name: editorName, exact: true });
    await card.getByText('Payouts enabled').waitFor({ timeout: 15_000 });
    expect(await card.getByRole('button', { name: 'Record Payout' }).isDisabled()).toBe(true);
    await card.getByRole('button', { name: 'Transfers' }).click();
    const dialog = admin.page.getByRole('dialog', { name: `Transfers of ${editorName}` });
    const row = dialog.getByRole('row', { name: new RegExp(orderName) });
    await row.getByText('Paid out').waitFor();
    await screenshot(admin.page, 'admin-editor-transfers-desktop');
    await expectSettledAccessible(admin.page, 'the admin’s transfers of an editor');
    await admin.context.close();
  }, 180_000);
});
