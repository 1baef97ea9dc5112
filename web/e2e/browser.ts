import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** The built app, served with /api proxied to the local stack; scripts/test.ts sets it. */
export const webUrl = (() => {
  const url = process.env.WEB_URL;
  if (!url) {
    throw new Error('WEB_URL is not set. Run the browser tests through the harness: npx tsx scripts/test.ts e2e');
  }
  return url.replace(/\/$/, '');
})();

const screenshotDir = path.join(import.meta.dirname, 'screenshots');
mkdirSync(screenshotDir, { recursive: true });

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

export const demoPassword = 'demo-password';

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

/** A fresh browser profile (nobody signed in) at the given size. */
export async function openPage(browser: Browser, viewport: keyof typeof viewports = 'desktop') {
  const context: BrowserContext = await browser.newContext({ viewport: viewports[viewport] });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });

export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export async function signIn(page: Page, email: string, password = demoPassword) {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export async function signUp(page: Page, { name, email, password }: { name: string; email: string; password: string }) {
  await page.goto(`${webUrl}/signup`);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Waits until the page's address has this path. */
export const waitForPath = (page: Page, pathname: string) => page.waitForURL((url) => url.pathname === pathname);
