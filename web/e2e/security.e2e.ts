import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOnPhone,
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
import { emailTo, linkIn } from './editor-setup';

/**
 * /profile's 'Security' against the auth emulator, the local stack and the SES stand-in: a new
 * password, an email change through the link in the new address's inbox, and 'Sign out of all
 * other devices', after which another browser's older token is refused at once.
 */
const apiUrl = () => process.env.API_URL!;

const security = (page: Page) => page.getByRole('region', { name: 'Security' });

/** A new photographer, signed up in this page, on /profile. */
async function aSignedUpPhotographer(page: Page, password: string) {
  const email = uniqueEmail('security');
  await signUp(page, { name: 'Sam Secure', email, password });
  await waitForPath(page, '/dashboard');
  await page.goto(`${webUrl}/profile`);
  await security(page).waitFor();
  return email;
}

/** The ID token this page's app sends to the API (read off its next API request). */
async function tokenOf(page: Page) {
  const request = page.waitForRequest((r) => r.url().includes('/api/') && Boolean(r.headers().authorization));
  await page.reload();
  return (await request).headers().authorization!.replace(/^Bearer /, '');
}

const meStatus = async (token: string) =>
  (await fetch(`${apiUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe("Profile's security", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('changes the password after the current one is confirmed; the new one signs in', async () => {
    const { page, context } = await openPage(browser);
    const email = await aSignedUpPhotographer(page, 'first-passw0rd');
    await expectSettledAccessible(page, '/profile with Security');
    await screenshot(page, 'security-section-desktop');
    await checkOnPhone(page, 'security-section', { accessible: true });

    await security(page).getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel(/^Current password/).fill('not-the-password');
    await dialog.getByLabel(/^New password\W*$/).fill('second-passw0rd');
    await dialog.getByLabel(/^New password again/).fill('second-passw0rd');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText('That password is not right. Please try again.').waitFor();
    await expectSettledAccessible(page, 'the change-password dialog with a wrong password');
    await screenshot(page, 'security-change-password-wrong-desktop');

    await dialog.getByLabel(/^Current password/).fill('first-passw0rd');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Your password was changed.');
    await security(page).getByText('Password changed').waitFor();

    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await waitForPath(page, '/login');
    await signIn(page, email, 'first-passw0rd');
    await page.getByText(/Incorrect password|Invalid email or password/).waitFor();
    await signIn(page, email, 'second-passw0rd');
    await waitForPath(page, '/dashboard');
    await context.close();
  });

  it('changes the email through the link sent to the new address', async () => {
    const { page, context } = await openPage(browser);
    const email = await aSignedUpPhotographer(page, 'mail-passw0rd');
    const newEmail = uniqueEmail('moved');

    await security(page).getByRole('button', { name: 'Change email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change email' });
    await dialog.getByLabel(/^New email address/).fill(newEmail);
    await dialog.getByLabel(/^Password/).fill('mail-passw0rd');
    await expectSettledAccessible(page, 'the change-email dialog');
    await dialog.getByRole('button', { name: 'Send confirmation link' }).click();
    const sent = page.getByRole('dialog', { name: 'Check your new inbox' });
    await sent.getByText(newEmail).waitFor();
    await screenshot(page, 'security-change-email-sent-desktop');
    await sent.getByRole('button', { name: 'Done' }).click();

    // The link opens on any device: here a browser nobody is signed in to.
    const link = linkIn(await emailTo(newEmail), webUrl);
    const elsewhere = await openPage(browser);
    await elsewhere.page.goto(link);
    await elsewhere.page.getByRole('heading', { name: 'Confirm your new email address' }).waitFor();
    await elsewhere.page.getByText(newEmail).waitFor();
    await expectSettledAccessible(elsewhere.page, '/account/confirm-email');
    await screenshot(elsewhere.page, 'security-confirm-email-desktop');
    await checkOnPhone(elsewhere.page, 'security-confirm-email', { accessible: true });
    await elsewhere.page.getByRole('button', { name: 'Confirm new email address' }).click();
    await elsewhere.page.getByRole('heading', { name: 'Your email address is changed' }).waitFor();
    await screenshot(elsewhere.page, 'security-email-changed-desktop');
    await elsewhere.context.close();

    const notice = await emailTo(email);
    expect(notice.subject).toMatch(/email address was changed/);

    // Firebase follows within seconds (the identity worker), and ends the sessions of the old
    // address as it does on every email change: the new address signs in.
    await context.close();
    const fresh = await openPage(browser);
    for (let attempt = 0; ; attempt++) {
      await signIn(fresh.page, newEmail, 'mail-passw0rd');
      const landed = await fresh.page
        .waitForURL((url) => url.pathname === '/dashboard', { timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
      if (landed) break;
      if (attempt > 5) throw new Error('the new email address never signed in');
    }
    await fresh.page.goto(`${webUrl}/profile`);
    await fresh.page.getByRole('region', { name: 'Profile' }).getByText(newEmail).waitFor();
    await security(fresh.page).getByText('Email address changed').waitFor();
    await security(fresh.page).getByText('Email change requested').waitFor();
    await fresh.context.close();
  });

  it('signs out every other device: another browser’s older token is refused at once, this one stays', async () => {
    const here = await openPage(browser);
    const email = await aSignedUpPhotographer(here.page, 'devices-passw0rd');
    const other = await openPage(browser, 'phone');
    await signIn(other.page, email, 'devices-passw0rd');
    await waitForPath(other.page, '/dashboard');
    const otherToken = await tokenOf(other.page);
    expect(await meStatus(otherToken)).toBe(200);
    // A sign-in in the same second as the cutoff would still count as after it.
    await here.page.waitForTimeout(1_100);

    await security(here.page).getByRole('button', { name: 'Sign out of all other devices' }).click();
    const dialog = here.page.getByRole('dialog', { name: 'Sign out of all other devices' });
    await dialog.getByLabel(/^Password/).fill('devices-passw0rd');
    await expectSettledAccessible(here.page, 'the sign-out-everywhere dialog');
    await screenshot(here.page, 'security-sign-out-everywhere-dialog-desktop');
    await dialog.getByRole('button', { name: 'Sign out other devices' }).click();
    await toast(here.page, 'Every other device was signed out. This one stays signed in.');

    expect(await meStatus(otherToken)).toBe(401);
    await other.page.goto(`${webUrl}/profile`);
    await waitForPath(other.page, '/login');

    // This browser signed in again with the password it confirmed: its token works after a reload.
    expect(await meStatus(await tokenOf(here.page))).toBe(200);
    await security(here.page).getByRole('list', { name: 'Recent security activity' }).waitFor();
    await security(here.page).getByText('Signed out of all other devices', { exact: true }).waitFor();
    await screenshot(here.page, 'security-activity-desktop');
    await checkOnPhone(here.page, 'security-activity', { accessible: true });
    await here.context.close();
    await other.context.close();
  });
});
