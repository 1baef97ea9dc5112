import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  viewports,
  waitForPath,
  webUrl,
} from './browser';

describe('Pages and layout', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows 'Page not found' with a link home for an unknown address", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${webUrl}/this/page/does-not-exist`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    const home = page.getByRole('link', { name: 'Go back home' });
    expect(await home.getAttribute('href')).toBe('/');
    await screenshot(page, 'not-found-desktop');
    await expectAccessible(page);
    await context.close();
  });

  for (const size of Object.keys(viewports) as (keyof typeof viewports)[]) {
    it(`shows the login and info pages on a ${size}`, async () => {
      const { page, context } = await openPage(browser, size);
      await page.goto(`${webUrl}/login`);
      await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
      await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
      await screenshot(page, `login-${size}`);
      await expectAccessible(page);

      await page.goto(`${webUrl}/signup`);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await screenshot(page, `signup-${size}`);
      await expectAccessible(page);

      await page.goto(`${webUrl}/info`);
      await page.getByRole('heading', { name: 'How it works', level: 1 }).waitFor();
      expect(await page.getByText(/^Step \d$/).count()).toBe(4);
      await screenshot(page, `info-${size}`);
      await expectAccessible(page);
      await context.close();
    });
  }

  it('opens the navigation drawer from the burger button on a phone', async () => {
    const { page, context } = await openPage(browser, 'phone');
    await signIn(page, 'photographer@example.com');
    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await screenshot(page, 'shell-dashboard-phone');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Report Problem' }).waitFor();
    await page.waitForTimeout(400); // let the slide-in finish so the screenshot shows the open drawer
    await screenshot(page, 'shell-drawer-phone');
    await expectAccessible(page);

    await drawer.getByRole('link', { name: 'Report Problem' }).click();
    await waitForPath(page, '/feedback');
    await drawer.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('shows the shell with its sidebar on a desktop', async () => {
    const { page, context } = await openPage(browser, 'desktop');
    await signIn(page, 'admin@example.com');
    await waitForPath(page, '/admin');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Admin Panel' }).waitFor();
    expect(await page.getByRole('button', { name: 'Open navigation' }).isVisible()).toBe(false);
    await screenshot(page, 'shell-admin-desktop');
    await expectAccessible(page);

    await page.goto(`${webUrl}/profile`);
    await page.getByRole('region', { name: 'Security' }).waitFor();
    await screenshot(page, 'profile-desktop');
    await expectAccessible(page);
    await context.close();
  });
});
