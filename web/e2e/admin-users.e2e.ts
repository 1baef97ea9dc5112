import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOnPhone,
  expectAccessible,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  signUp,
  toast,
  uniqueEmail,
  waitForPath,
  webUrl,
} from './browser';

const userPassword = 'pass-word-123';

const openAdminTab = async (page: Page, tab: 'users' | 'feedback') => {
  await page.goto(`${webUrl}/admin?tab=${tab}`);
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
};

/** A brand-new user's sign-in attempt, in a fresh browser profile; answers the page after it. */
async function trySignIn(browser: Browser, email: string) {
  const { page, context } = await openPage(browser);
  await signIn(page, email, userPassword);
  return { page, context };
}

const openItemsCount = async (page: Page) =>
  Number(await page.getByRole('group', { name: 'Open Items' }).locator('p').last().innerText());

describe('The admin manages users and triages feedback', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds and removes a role, deletes a user who then cannot sign in, and reactivates them', async () => {
    const email = uniqueEmail('rowan');
    const name = `Rowan Member ${Date.now()}`;
    const newcomer = await openPage(browser);
    await signUp(newcomer.page, { name, email, password: userPassword });
    await waitForPath(newcomer.page, '/dashboard');
    await newcomer.context.close();

    const { page, context } = await openPage(browser);
    await signIn(page, 'admin@example.com');
    await waitForPath(page, '/admin');
    await openAdminTab(page, 'users');
    const row = page.getByRole('list', { name: 'Users' }).getByRole('listitem', { name: email });
    await row.waitFor();
    expect(await page.getByRole('tab', { name: /^All Users \(\d+\)$/ }).isVisible()).toBe(true);
    await screenshot(page, 'admin-users-desktop');
    await expectSettledAccessible(page, 'All Users tab');

    await row.getByRole('button', { name: 'Manage Roles' }).click();
    const roles = page.getByRole('dialog', { name: 'Manage User Roles' });
    await roles.waitFor();
    await roles.getByRole('combobox', { name: 'Role to add' }).selectOption('editor');
    await roles.getByRole('button', { name: 'Add Role' }).click();
    await toast(page, 'editor role added successfully!');
    await roles.getByRole('button', { name: 'Remove editor role' }).waitFor();
    await screenshot(page, 'admin-users-roles-desktop');
    await expectSettledAccessible(page, 'Manage User Roles');
    await roles.getByRole('button', { name: 'Remove editor role' }).click();
    await toast(page, 'Role removed successfully!');
    await roles.getByRole('button', { name: 'Remove editor role' }).waitFor({ state: 'detached' });
    await roles.getByRole('button', { name: 'Close' }).click();
    await roles.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: `Delete ${email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.waitFor();
    await expectSettledAccessible(page, 'Delete User confirmation');
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await toast(page, `User ${email} deleted successfully`);
    await row.waitFor({ state: 'detached' });

    // The API refuses the user at once; Firebase follows once the identity worker has disabled
    // sign-in, which the row says until it is done (the list reads itself again meanwhile).
    await page.getByRole('checkbox', { name: 'Show deleted users' }).check();
    await row.getByText('Deleted', { exact: true }).waitFor();
    await row.getByText('Disabling sign-in…').waitFor({ state: 'detached' });
    await screenshot(page, 'admin-users-deleted-desktop');
    await expectSettledAccessible(page, 'All Users tab with deleted users');

    const refused = await trySignIn(browser, email);
    await refused.page.getByText('This account has been disabled. Please contact support.').first().waitFor();
    expect(new URL(refused.page.url()).pathname).toBe('/login');
    await screenshot(refused.page, 'login-disabled-desktop');
    await expectAccessible(refused.page, '/login (account disabled)');
    await refused.context.close();

    await row.getByRole('button', { name: `Reactivate ${email}` }).click();
    await toast(page, `User ${email} reactivated successfully`);
    await expect.poll(() => page.getByRole('checkbox', { name: 'Show deleted users' }).isChecked()).toBe(false);
    await row.waitFor();
    expect(await row.getByText('Deleted', { exact: true }).count()).toBe(0);
    await row.getByText('Enabling sign-in…').waitFor({ state: 'detached' });

    const welcomed = await trySignIn(browser, email);
    await waitForPath(welcomed.page, '/dashboard');
    await welcomed.context.close();

    await checkOnPhone(page, 'admin-users', { accessible: true });
    await context.close();
  }, 180_000);

  it('marks a reported problem in progress, then resolves it with a note', async () => {
    const message = `The invoice total looked wrong on order ${Date.now()}-${Math.random().toString(36).slice(2, 8)}.`;
    const reporter = await openPage(browser);
    await signIn(reporter.page, 'photographer@example.com');
    await waitForPath(reporter.page, '/dashboard');
    await reporter.page.goto(`${webUrl}/feedback`);
    await reporter.page.getByRole('combobox', { name: 'Type' }).selectOption('problem');
    await reporter.page.getByRole('textbox', { name: 'Message' }).fill(message);
    await reporter.page.getByRole('button', { name: 'Submit Feedback' }).click();
    await reporter.page.getByRole('heading', { name: 'Feedback Submitted!' }).waitFor();
    await reporter.context.close();

    const { page, context } = await openPage(browser);
    await signIn(page, 'admin@example.com');
    await waitForPath(page, '/admin');
    await openAdminTab(page, 'feedback');
    const card = page.getByRole('list', { name: 'Feedback' }).getByRole('listitem').filter({ hasText: message });
    await card.waitFor();
    await page.getByText(/^Showing \d+ of \d+ items$/).waitFor();
    const openBefore = await openItemsCount(page);
    await screenshot(page, 'admin-feedback-desktop');
    await expectSettledAccessible(page, 'Feedback tab');

    await card.getByRole('button', { name: 'Mark In Progress' }).click();
    await toast(page, 'Feedback updated successfully');
    await card.getByText('In Progress', { exact: true }).waitFor();
    await expect.poll(() => openItemsCount(page), { timeout: 10_000 }).toBeLessThan(openBefore);

    await card.getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: 'Feedback Details' });
    await details.waitFor();
    await details.getByText(message).waitFor();
    await details
      .getByRole('textbox', { name: 'Admin notes' })
      .fill('Rounding fixed in the invoice; refunded the difference.');
    await details.getByRole('combobox', { name: 'Status' }).selectOption('resolved');
    await screenshot(page, 'admin-feedback-details-desktop');
    await expectSettledAccessible(page, 'Feedback Details');
    await details.getByRole('button', { name: 'Update Feedback' }).click();
    await toast(page, 'Feedback updated successfully');
    await details.waitFor({ state: 'hidden' });
    await card.getByText('Resolved', { exact: true }).waitFor();
    await card.getByText(/^Reviewed/).waitFor();

    await card.getByRole('button', { name: 'View Details' }).click();
    expect(await details.getByRole('textbox', { name: 'Admin notes' }).inputValue()).toBe(
      'Rounding fixed in the invoice; refunded the difference.',
    );
    await details.getByRole('button', { name: 'Cancel' }).click();
    await details.waitFor({ state: 'hidden' });

    await checkOnPhone(page, 'admin-feedback', { accessible: true });
    await context.close();
  }, 180_000);
});
