import { profileMessages } from '@marketplace/events/users';
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
  viewportScreenshot,
  viewports,
  waitForPath,
  webUrl,
} from './browser';
import { aCompletedOrder, aSignedUpPhotographer, testAccountPassword } from './orders-setup';

const BUSINESS = 'Harbour Light Studio';
const PROPERTY = '9 Quay Street';

/** A wide logo on a transparent ground, and a portrait: real pictures for the thumbnail worker. */
const aLogo = async () => ({
  name: 'harbour-light-logo.png',
  mimeType: 'image/png',
  buffer: await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200">
        <rect x="10" y="40" width="120" height="120" rx="24" fill="#1c7ed6"/>
        <text x="150" y="125" font-family="sans-serif" font-size="56" font-weight="700" fill="#1c3d5a">HARBOUR</text>
      </svg>`,
    ),
  )
    .png()
    .toBuffer(),
});

const aPortrait = async () => ({
  name: 'me.jpg',
  mimeType: 'image/jpeg',
  buffer: await sharp({ create: { width: 800, height: 600, channels: 3, background: 'hsl(20, 60%, 60%)' } })
    .jpeg({ quality: 85 })
    .toBuffer(),
});

/** Chooses a file with a picture's Upload or Replace button (the browser's file chooser). */
const choosePicture = async (page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: button }).click(),
  ]);
  await chooser.setFiles(file);
};

/** Every image on the page (or within `scope`) has loaded. */
const imagesLoaded = (page: Page, scope = 'body') =>
  page.waitForFunction(
    (selector) =>
      [...document.querySelectorAll(`${selector} img`)].every(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      ),
    scope,
  );

describe('A photographer sets up their profile', () => {
  let browser: Browser;
  let photographer: TestAccount & { displayName: string };
  let orderId: string;

  beforeAll(async () => {
    [browser, photographer] = await Promise.all([launchBrowser(), aSignedUpPhotographer('Pia Portside')]);
    ({ orderId } = await aCompletedOrder({
      photographer,
      name: PROPERTY,
      editedFiles: [
        {
          name: 'front.jpg',
          mimeType: 'image/jpeg',
          buffer: await sharp({ create: { width: 600, height: 400, channels: 3, background: 'hsl(200, 45%, 55%)' } })
            .jpeg()
            .toBuffer(),
        },
      ],
    }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('sets a business name, phone, logo and profile image; the shell shows the avatar and the share page the business', async () => {
    const { page } = await openPage(browser);
    await signIn(page, photographer.email, testAccountPassword);
    await waitForPath(page, '/dashboard');
    await page.goto(`${webUrl}/profile`);
    const profile = page.getByRole('region', { name: 'Profile', exact: true });
    await profile.getByLabel('Display name').waitFor();
    expect(await profile.getByLabel('Display name').inputValue()).toBe('Pia Portside');
    // Before any picture, the shell shows the generated initials.
    await page.locator('.mantine-AppShell-navbar').getByText('PP', { exact: true }).waitFor();

    // A phone the server refuses: its message under the field, nothing saved.
    await profile.getByLabel(/^Phone/).fill('020 7946 0958');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText(profileMessages.phone).waitFor();
    expect((await as(photographer).get('/api/auth/me')).body.phone).toBeNull();

    await profile.getByLabel(/^Phone/).fill('+44 20 7946 0958');
    await profile.getByLabel(/^Business name/).fill(BUSINESS);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Profile saved.').waitFor();
    expect(await profile.getByLabel(/^Phone/).inputValue()).toBe('+442079460958');

    await choosePicture(page, 'Upload logo', await aLogo());
    const logo = profile.getByRole('region', { name: 'Business logo' });
    await logo.getByRole('img', { name: 'Your business logo' }).waitFor({ timeout: 30_000 });
    await choosePicture(page, 'Upload image', await aPortrait());
    const image = profile.getByRole('region', { name: 'Profile image' });
    await image.getByRole('img', { name: 'Your profile image' }).waitFor({ timeout: 30_000 });

    // The navigation shell's avatar is the uploaded image's small size, presigned.
    const avatar = page.locator('.mantine-AppShell-navbar').getByRole('img', { name: 'Pia Portside' });
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).toMatch(/profiles\/sizes\/[A-Za-z0-9_-]+\.small\.webp/);
    await imagesLoaded(page);
    await screenshot(page, 'profile-details-desktop');
    await expectSettledAccessible(page, 'the profile with a logo and an image');
    await checkOnPhone(page, 'profile-details', { accessible: true });

    // On a phone the shell shows the user in its drawer: the avatar is there too.
    await page.setViewportSize(viewports.phone);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawerAvatar = page.getByRole('dialog').getByRole('img', { name: 'Pia Portside' });
    await drawerAvatar.waitFor();
    expect(await drawerAvatar.getAttribute('src')).toMatch(/\.small\.webp/);
    await imagesLoaded(page, '[role="dialog"]');
    await page.waitForTimeout(400);
    await viewportScreenshot(page, 'profile-shell-drawer-phone');
    await expectSettledAccessible(page, 'the navigation drawer with the avatar');
    await page.setViewportSize(viewports.desktop);

    // The client opens a share link: the business above the property, nothing else of the account.
    const link = await as(photographer).post(`/api/orders/${orderId}/share-links`, {});
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const client = await openPage(browser);
    await client.page.goto(`${webUrl}${link.body.path}`);
    const heading = client.page.getByRole('heading', { level: 1, name: PROPERTY });
    await heading.waitFor();
    const business = client.page.getByRole('group', { name: 'Photographer' });
    await business.getByText(BUSINESS).waitFor();
    const shownLogo = business.getByRole('img', { name: `${BUSINESS} logo` });
    await shownLogo.waitFor();
    await imagesLoaded(client.page, '[role="group"]');
    const [businessBox, headingBox] = [await business.boundingBox(), await heading.boundingBox()];
    expect(businessBox!.y + businessBox!.height).toBeLessThanOrEqual(headingBox!.y);
    const text = await client.page.locator('body').innerText();
    for (const hidden of ['Pia', 'Portside', photographer.email, '7946', '+44']) expect(text).not.toContain(hidden);
    await screenshot(client.page, 'profile-share-business-desktop');
    await expectSettledAccessible(client.page, 'the share page with the business');
    await checkOnPhone(client.page, 'profile-share-business', { accessible: true });

    // Removing the logo takes it off the share page.
    await logo.getByRole('button', { name: 'Remove logo' }).click();
    await logo.getByText('Your logo was removed.').waitFor();
    await client.page.reload();
    await client.page.getByRole('group', { name: 'Photographer' }).getByText(BUSINESS).waitFor();
    expect(await client.page.getByRole('img', { name: `${BUSINESS} logo` }).count()).toBe(0);
    await client.context.close();
  }, 180_000);
});
