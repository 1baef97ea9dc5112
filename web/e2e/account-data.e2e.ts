import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOnPhone,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signUp,
  uniqueEmail,
  waitForPath,
  webUrl,
} from './browser';
import { emailTo } from './editor-setup';

/**
 * 'Download my data' and 'Delete my account' against the local stack: the export worker's zip and
 * the SES stand-in's email with its link, then a throwaway account deleted end to end, after which
 * the auth emulator refuses its sign-in.
 */
const security = (page: Page) => page.getByRole('region', { name: 'Security' });
const card = (page: Page, name: string) => security(page).getByRole('region', { name });

async function aSignedUpPhotographer(page: Page, label: string, password: string) {
  const email = uniqueEmail(label);
  await signUp(page, { name: 'Dana Data', email, password });
  await waitForPath(page, '/dashboard');
  await page.goto(`${webUrl}/profile`);
  await card(page, 'Download my data').waitFor();
  return email;
}

/** A password sign-in at the auth emulator, as the app's sign-in makes it: the error code when refused. */
const emulatorSignIn = async (email: string, password: string) => {
  const response = await fetch(
    `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { error?: { message: string } };
  return response.ok ? 'signed-in' : (body.error?.message ?? String(response.status));
};

describe("'Download my data' and 'Delete my account'", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('prepares the data, emails a link that expires, and the zip downloads', async () => {
    const { page, context } = await openPage(browser);
    const password = 'data-passw0rd';
    const email = await aSignedUpPhotographer(page, 'data', password);
    const data = card(page, 'Download my data');
    await expectSettledAccessible(page, '/profile with Download my data and Delete my account');
    await screenshot(page, 'account-data-desktop');
    await checkOnPhone(page, 'account-data', { accessible: true });

    await data.getByRole('button', { name: 'Download my data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download my data' });
    await dialog.getByLabel(/^Password/).fill(password);
    await expectSettledAccessible(page, 'the download-my-data dialog');
    await dialog.getByRole('button', { name: 'Prepare my data' }).click();
    await data.getByText('Preparing your data…').waitFor();
    await screenshot(page, 'account-data-preparing-desktop');

    const link = data.getByRole('link', { name: 'Download your data' });
    await link.waitFor({ timeout: 30_000 });
    await expectSettledAccessible(page, 'a ready data download');
    await screenshot(page, 'account-data-ready-desktop');
    const fromPage = await link.getAttribute('href');
    expect(fromPage).toContain('X-Amz-Expires=');

    const mail = await emailTo(email, 20_000);
    expect(mail.subject).toMatch(/data is ready to download/);
    const emailed = (mail.body?.text ?? '').match(/Download it: (\S+)/)?.[1];
    expect(emailed).toBeTruthy();
    expect(Number(new URL(emailed!).searchParams.get('X-Amz-Expires'))).toBeGreaterThan(6 * 24 * 60 * 60);
    for (const url of [emailed!, fromPage!]) {
      const zip = Buffer.from(await (await fetch(url)).arrayBuffer());
      // A zip (its local header's signature) holding the README and the profile.
      expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
      expect(zip.includes(Buffer.from('README.txt'))).toBe(true);
      expect(zip.includes(Buffer.from(email))).toBe(true);
    }
    // The request is in the account's security activity.
    await security(page).getByText('Data download requested').waitFor();
    await context.close();
  });

  it('deletes a throwaway account: it signs out, lands on a page that says so, and cannot sign in again', async () => {
    const { page, context } = await openPage(browser);
    const password = 'gone-passw0rd';
    const email = await aSignedUpPhotographer(page, 'throwaway', password);
    const deletion = card(page, 'Delete my account');
    await deletion.getByText(/tax law requires us to keep invoices/).waitFor();

    await deletion.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete my account' });
    await dialog.getByLabel(/^Password/).fill(password);
    await dialog.getByLabel(/^Type DELETE to confirm/).fill('delete');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Type DELETE in capital letters to confirm.').waitFor();
    await expectSettledAccessible(page, 'the delete-my-account dialog with a wrong confirmation');
    await screenshot(page, 'account-delete-dialog-desktop');

    await dialog.getByLabel(/^Type DELETE to confirm/).fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await waitForPath(page, '/account-deleted');
    await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
    await expectSettledAccessible(page, '/account-deleted');
    await screenshot(page, 'account-deleted-desktop');
    await checkOnPhone(page, 'account-deleted', { accessible: true });

    // Signed out: the profile sends the browser to sign in.
    await page.goto(`${webUrl}/profile`);
    await waitForPath(page, '/login');
    // The identity worker turns the sign-in off at the emulator within seconds.
    let answer = '';
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      answer = await emulatorSignIn(email, password);
      if (answer !== 'signed-in') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(answer).toMatch(/USER_DISABLED/);
    await context.close();
  });
});
