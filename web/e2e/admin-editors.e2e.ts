import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anEditor } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  jpegFiles,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  uniqueEmail,
  waitForPath,
  webUrl,
} from './browser';
import { emailTo } from './editor-setup';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

const uniqueSuffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signInAsAdmin(browser: Browser) {
  const view = await openPage(browser);
  await signIn(view.page, 'admin@example.com');
  await waitForPath(view.page, '/admin');
  return view;
}

const openTab = async (page: Page, tab: string, ready: (page: Page) => Promise<unknown>) => {
  await page.goto(`${webUrl}/admin?tab=${tab}`);
  await ready(page);
};

const editorCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Editors' }).getByRole('listitem', { name, exact: true });

/** The service types the create-order page offers a photographer, as its select lists them. */
async function offeredServiceTypes(page: Page) {
  await page.goto(`${webUrl}/create-order`);
  await page.getByRole('button', { name: 'Continue to Payment' }).waitFor();
  await page
    .getByRole('textbox', { name: /^Service type/ })
    .or(page.getByRole('combobox', { name: /^Service type/ }))
    .first()
    .click();
  await page.getByRole('option').first().waitFor();
  const options = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return options;
}

describe('The admin manages editors and job types', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('invites an editor with two rates, finds them invited in Editor Management and changes their rates', async () => {
    const suffix = uniqueSuffix();
    const email = uniqueEmail('rated-editor');
    const displayName = `Rhea Rates ${suffix}`;
    const { page, context } = await signInAsAdmin(browser);

    await openTab(page, 'invite', (p) => p.getByRole('form', { name: 'Invite editor' }).waitFor());
    await page.getByText('Please select at least one job type').waitFor();
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('textbox', { name: /^Display name/ }).fill(displayName);
    await page.getByRole('button', { name: 'Add Job Type Rate' }).click();
    await page.getByRole('button', { name: 'Add Job Type Rate' }).click();
    const rates = page.getByRole('list', { name: 'Job type rates' }).getByRole('listitem');
    expect(await rates.count()).toBe(2);
    const secondRate = rates.nth(1).getByRole('textbox', { name: 'Rate per photo' });
    await secondRate.fill('3.255');
    await secondRate.blur();
    expect(await secondRate.inputValue()).toBe('3.26');
    const firstType = await rates
      .nth(0)
      .getByRole('combobox', { name: 'Job type' })
      .locator('option:checked')
      .textContent();
    await screenshot(page, 'admin-invite-editor-desktop');
    await expectSettledAccessible(page, '/admin?tab=invite');
    await checkOnPhone(page, 'admin-invite-editor');

    await page.getByRole('button', { name: 'Send Invitation' }).click();
    await page.getByText(`Invitation sent to ${email}!`).waitFor();
    const invitation = await emailTo(email);
    expect(invitation.subject).toBeTruthy();

    await openTab(page, 'editors', (p) => p.getByRole('list', { name: 'Editors' }).waitFor());
    const card = editorCard(page, displayName);
    await card.getByText('invited', { exact: true }).waitFor();
    await card.getByText('$3.26').waitFor();
    await card.getByText(email).waitFor();
    await card.getByText('No ratings').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-editor-management-desktop');
    await expectSettledAccessible(page, '/admin?tab=editors');
    await checkOnPhone(page, 'admin-editor-management');

    await card.getByRole('button', { name: 'Edit All Rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Editor Rates' });
    await dialog.waitFor();
    const firstRate = dialog.getByRole('listitem').nth(0).getByRole('textbox', { name: 'Rate per photo' });
    await firstRate.fill('6');
    await firstRate.blur();
    await dialog.getByRole('button', { name: `Remove ${firstType?.replace(' (inactive)', '')}` }).waitFor();
    await screenshot(page, 'admin-edit-rates-desktop');
    await expectSettledAccessible(page, '/admin?tab=editors (Edit Editor Rates)');
    await dialog.getByRole('button', { name: 'Save Rates' }).click();
    await page.getByText('Editor rates updated successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('$6.00').waitFor();
    await card.getByText('$3.26').waitFor();
    await context.close();
  }, 180_000);

  it('records a payout for a verified editor with pending earnings and shows it in their history', async () => {
    const suffix = uniqueSuffix();
    const editorName = `Pax Payout ${suffix}`;
    const editor = await anEditor({ displayName: editorName });
    const { page, context } = await signInAsAdmin(browser);
    await aCompletedOrder({
      photographer: await aSignedUpPhotographer(`Pia Photographer ${suffix}`),
      name: `Payout Villa ${suffix}`,
      editedFiles: await jpegFiles(page, ['edited-payout.jpg']),
      editor: { userId: editor.uid, name: editorName, email: editor.email },
    });

    await openTab(page, 'editors', (p) => p.getByRole('list', { name: 'Editors' }).waitFor());
    const card = editorCard(page, editorName);
    await card.getByText('verified', { exact: true }).waitFor();
    await card.getByText('$2.50').first().waitFor();
    await card.getByRole('button', { name: 'Record Payout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record Payout' });
    await dialog.getByText('No payouts yet.').waitFor();
    const amount = dialog.getByRole('textbox', { name: /^Amount/ });
    await amount.fill('9');
    await dialog.getByText('At most $2.50 is pending').waitFor();
    await amount.fill('1');
    await dialog.getByRole('textbox', { name: /^Note/ }).fill(`Transfer ${suffix}`);
    await expectSettledAccessible(page, '/admin?tab=editors (Record Payout)');
    await dialog.getByRole('button', { name: 'Record Payout' }).click();
    await page.getByText('Payout of $1.00 recorded').waitFor();
    const history = dialog.getByRole('table', { name: 'Payout history' });
    await history.getByText(`Transfer ${suffix}`).waitFor();
    await history.getByText('$1.00').waitFor();
    await dialog.getByText('$1.50 pending, $1.00 paid out', { exact: false }).waitFor();
    await screenshot(page, 'admin-record-payout-desktop');
    await checkOnPhone(page, 'admin-record-payout');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await card.getByText('$1.50').waitFor();
    await context.close();
  }, 180_000);

  it('creates a job type that photographers can order, and switching it off takes it off the create-order page', async () => {
    const suffix = uniqueSuffix();
    const jobTypeName = `Drone Dusk ${suffix}`;
    const photographer = await aSignedUpPhotographer(`Penn Photographer ${suffix}`);
    const { page, context } = await signInAsAdmin(browser);

    await openTab(page, 'job-types', (p) => p.getByRole('table', { name: 'Job types' }).waitFor());
    await page.getByRole('button', { name: 'Add Job Type' }).click();
    const form = page.getByRole('form', { name: 'Create New Job Type' });
    expect(await form.getByRole('textbox', { name: 'Photographer price per photo' }).inputValue()).toBe('5.00');
    expect(await form.getByRole('textbox', { name: 'Default editor rate per photo' }).inputValue()).toBe('0.50');
    expect(await form.getByRole('button', { name: 'Create Job Type' }).isDisabled()).toBe(true);
    await form.getByRole('textbox', { name: /^Name/ }).fill(jobTypeName);
    await form.getByRole('textbox', { name: /^Description/ }).fill('Aerial shots at dusk');
    await form.getByRole('textbox', { name: 'Photographer price per photo' }).fill('12.5');
    await screenshot(page, 'admin-create-job-type-desktop');
    await expectSettledAccessible(page, '/admin?tab=job-types (Create New Job Type)');
    await form.getByRole('button', { name: 'Create Job Type' }).click();
    await page.getByText('Job type created successfully!').waitFor();
    const row = page.getByRole('table', { name: 'Job types' }).getByRole('row').filter({ hasText: jobTypeName });
    await row.getByText('$12.50').waitFor();
    await row.getByText('$0.50').waitFor();
    await screenshot(page, 'admin-job-types-desktop');
    await expectSettledAccessible(page, '/admin?tab=job-types');
    await checkOnPhone(page, 'admin-job-types');

    const photographerView = await openPage(browser);
    await signIn(photographerView.page, photographer.email, testAccountPassword);
    await waitForPath(photographerView.page, '/dashboard');
    expect((await offeredServiceTypes(photographerView.page)).some((option) => option.includes(jobTypeName))).toBe(
      true,
    );

    const offered = row.getByRole('switch', { name: `${jobTypeName} offered to photographers` });
    expect(await offered.isChecked()).toBe(true);
    // The switch's input is drawn by its track; a person clicks its visible label.
    await row.getByText('Active', { exact: true }).click();
    await page.getByText(`${jobTypeName} is now inactive`).waitFor();
    await expect.poll(() => offered.isChecked()).toBe(false);
    const stillOffered = await offeredServiceTypes(photographerView.page);
    expect(stillOffered.length).toBeGreaterThan(0);
    expect(stillOffered.some((option) => option.includes(jobTypeName))).toBe(false);
    await photographerView.context.close();
    await context.close();
  }, 180_000);
});
