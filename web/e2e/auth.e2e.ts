import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  signUp,
  uniqueEmail,
  waitForPath,
  webUrl,
} from './browser';

describe('Signing up, in and out', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs a new user up and lands them on their dashboard, then signs them out', async () => {
    const { page, context } = await openPage(browser);
    const email = uniqueEmail('new-photographer');
    await signUp(page, { name: 'Avery Lens', email, password: 'a-strong-password' });

    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByText('Avery Lens').first().waitFor();
    expect(await page.getByText('Photographer', { exact: true }).first().isVisible()).toBe(true);
    await screenshot(page, 'signup-dashboard-desktop');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('Signed out successfully').waitFor();
    await waitForPath(page, '/login');
    await screenshot(page, 'signed-out-desktop');
    await expectAccessible(page);
    await context.close();
  });

  it('says when a password is wrong', async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, 'photographer@example.com', 'not-the-password');
    await page.getByText(/Incorrect password|Invalid email or password/).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page, '/login with a sign-in error');
    await context.close();
  });

  it("shows 'Access Denied' to a photographer who opens the admin page", async () => {
    const { page, context } = await openPage(browser);
    await signIn(page, 'photographer@example.com');
    await waitForPath(page, '/dashboard');

    await page.goto(`${webUrl}/admin`);
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    expect(await page.getByText("You don't have permission to access this page.").isVisible()).toBe(true);
    await screenshot(page, 'access-denied-desktop');
    await expectAccessible(page, '/admin (Access Denied)');

    await page.getByRole('button', { name: 'Go Back' }).click();
    await waitForPath(page, '/dashboard');
    await context.close();
  });

  it('lands an admin on the admin page and an editor on the editor page', async () => {
    const admin = await openPage(browser);
    await signIn(admin.page, 'admin@example.com');
    await waitForPath(admin.page, '/admin');
    await admin.page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await expectAccessible(admin.page);
    await admin.context.close();

    const editor = await openPage(browser);
    await signIn(editor.page, 'editor@example.com');
    await waitForPath(editor.page, '/editor');
    await editor.page.getByRole('heading', { name: 'Editor Dashboard' }).waitFor();
    await expectAccessible(editor.page);
    await editor.context.close();
  });

  it('sends a signed-out visitor to the login page and back after signing in', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${webUrl}/feedback`);
    await waitForPath(page, '/login');
    await page.getByLabel('Email').fill('photographer@example.com');
    await page.getByLabel(/^Password/).fill('demo-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    // A photographer lands on the dashboard first: the role rule comes before the remembered page.
    await waitForPath(page, '/dashboard');
    await context.close();
  });

  it('signs in with Google through the auth emulator', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${webUrl}/login`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await waitForPath(page, '/dashboard');
    await context.close();
  });
});
