import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestAccount } from '../../services/test/support';
import {
  checkOnPhone,
  expectSettledAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

/**
 * Email preferences end to end: a photographer turns 'Photos ready' off on /profile, and the
 * unsubscribe link in an email the stack sent earlier, opened in a browser nobody is signed in
 * to, turns it off with one press.
 */
interface StoredEmail {
  destination?: { to?: string[] };
  subject?: string;
  body?: { text?: string; html?: string };
  headers?: { name: string; value: string }[];
}

const photosReadyEmail = async (to: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const store = (await (await fetch(`${process.env.SES_ENDPOINT}/store`)).json()) as { emails?: StoredEmail[] };
    const found = (store.emails ?? []).find(
      (email) => email.destination?.to?.includes(to) && email.subject?.includes('your edited photos are ready'),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no 'photos ready' email to ${to} in the SES stand-in`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

const switches = async (account: TestAccount) => {
  const { body } = await as(account).get('/api/account/notifications');
  return Object.fromEntries((body.switchable as { kind: string; enabled: boolean }[]).map((s) => [s.kind, s.enabled]));
};

const notificationsSection = (page: Page) => page.getByRole('region', { name: 'Notifications' });
/** The switch's visible label: the checkbox itself is drawn as the track beside it. */
const photosReadyLabel = (page: Page) => notificationsSection(page).getByText('“Photos ready” emails', { exact: true });

describe('A photographer stops the photos ready emails', () => {
  let browser: Browser;
  let photographer: TestAccount & { displayName: string };
  let unsubscribeLink: string;

  beforeAll(async () => {
    [browser, photographer] = await Promise.all([launchBrowser(), aSignedUpPhotographer('Nia Notify')]);
    await aCompletedOrder({
      photographer,
      name: '12 Elm Row',
      editedFiles: [
        {
          name: 'kitchen.jpg',
          mimeType: 'image/jpeg',
          buffer: await sharp({ create: { width: 400, height: 300, channels: 3, background: 'hsl(30, 50%, 60%)' } })
            .jpeg()
            .toBuffer(),
        },
      ],
    });
    // The earlier email: sent by the stack when the order was completed, while the switch was on.
    const email = await photosReadyEmail(photographer.email);
    const header = email.headers?.find((h) => h.name === 'List-Unsubscribe')?.value ?? '';
    expect(header).toMatch(/^<http.+\/api\/unsubscribe\?token=.+>$/);
    const href = (email.body?.html ?? '')
      .replaceAll('&amp;', '&')
      .match(/href="([^"]+\/unsubscribe\?token=[^"]+)"/)?.[1];
    expect(href, 'the footer links to the unsubscribe page').toBeTruthy();
    unsubscribeLink = href!;
    expect(unsubscribeLink.startsWith(`${webUrl}/unsubscribe?token=`)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("switches off 'Photos ready' on /profile, saved at once", async () => {
    const { context, page } = await openPage(browser);
    try {
      await signIn(page, photographer.email, testAccountPassword);
      await waitForPath(page, '/dashboard');
      await page.goto(`${webUrl}/profile`);
      const section = notificationsSection(page);
      const photosReady = section.getByRole('switch', { name: '“Photos ready” emails' });
      await expect.poll(() => photosReady.isChecked()).toBe(true);
      await expect.poll(() => section.getByText('Always on').count()).toBe(2);
      await screenshot(page, 'notifications-profile-desktop');
      await expectSettledAccessible(page, '/profile notifications');

      const saved = page.waitForResponse(
        (response) => response.url().endsWith('/api/account/notifications') && response.request().method() === 'PATCH',
      );
      await photosReadyLabel(page).click();
      expect((await saved).status()).toBe(200);
      expect(await photosReady.isChecked()).toBe(false);
      expect(await switches(photographer)).toEqual({ editor_started: true, photos_ready: false });

      // Kept: a fresh load shows it off.
      await page.reload();
      await expect
        .poll(() => notificationsSection(page).getByRole('switch', { name: '“Photos ready” emails' }).isChecked())
        .toBe(false);
      await checkOnPhone(page, 'notifications-profile', { accessible: true });

      // Back on, so the email's link below has something to turn off.
      const again = page.waitForResponse(
        (response) => response.url().endsWith('/api/account/notifications') && response.request().method() === 'PATCH',
      );
      await photosReadyLabel(page).click();
      expect((await again).status()).toBe(200);
      expect(await switches(photographer)).toEqual({ editor_started: true, photos_ready: true });
    } finally {
      await context.close();
    }
  }, 120_000);

  it("turns it off from the earlier email's link without signing in; opening the link alone changes nothing", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(unsubscribeLink);
      await page.getByRole('heading', { name: 'Unsubscribe from “Photos ready” emails?' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/unsubscribe');
      // Opened, not pressed: a mail scanner that follows links changes nothing.
      expect(await switches(photographer)).toEqual({ editor_started: true, photos_ready: true });
      await screenshot(page, 'unsubscribe-desktop');
      await expectSettledAccessible(page, '/unsubscribe');
      await checkOnPhone(page, 'unsubscribe', { accessible: true });

      await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
      await page.getByText('You will no longer get “Photos ready” emails.').waitFor();
      expect(await switches(photographer)).toEqual({ editor_started: true, photos_ready: false });
      await screenshot(page, 'unsubscribe-done-desktop');
      await expectSettledAccessible(page, '/unsubscribe done');
      await checkOnPhone(page, 'unsubscribe-done', { accessible: true });

      // The way back: the profile's switch, behind sign-in.
      await page.getByRole('link', { name: 'Go to your profile' }).click();
      await waitForPath(page, '/login');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says so when the link has been tampered with, and writes nothing', async () => {
    const { context, page } = await openPage(browser, 'phone');
    try {
      await as(photographer).patch('/api/account/notifications', { emails: { photos_ready: true } });
      const url = new URL(unsubscribeLink);
      const token = url.searchParams.get('token')!;
      url.searchParams.set('token', `${token.slice(0, -3)}xyz`);
      await page.goto(url.toString());
      await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
      await page.getByText('This unsubscribe link is not valid.').waitFor();
      await screenshot(page, 'unsubscribe-bad-link-phone');
      await expectSettledAccessible(page, '/unsubscribe with a bad link');
      expect(await switches(photographer)).toEqual({ editor_started: true, photos_ready: true });
    } finally {
      await context.close();
    }
  }, 60_000);
});
