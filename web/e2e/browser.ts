import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

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

const axeScript = path.join(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming
 * the rule, its impact, the elements and what to fix. Call it once the page has settled.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname) {
  // A toast fading in or out is checked at its blended mid-animation colours; wait until every
  // toast is fully shown (its own and its ancestors' opacity 1) so what is checked is what stays.
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('.mantine-Notification-root')].every((toast) => {
          for (let el: Element | null = toast; el; el = el.parentElement) {
            if (Number(getComputedStyle(el).opacity) < 1) return false;
          }
          return true;
        }),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => {});
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated, not added as a <script>: the site's content security policy refuses inline scripts.
  if (!hasAxe) await page.evaluate(readFileSync(axeScript, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations as AxeViolation[];
  });
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (!blocking.length) return;
  const report = blocking
    .map((v) =>
      [
        `${v.id} (${v.impact}): ${v.help}`,
        ...v.nodes.map((n) => `  ${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
      ].join('\n'),
    )
    .join('\n');
  throw new Error(`Accessibility violations on ${label}:\n${report}`);
}

/**
 * Axe on the settled page: a fading toast or a modal still fading in has mid-transition colours,
 * so close the toasts (as a person would, rather than wait 4 s for each) and let a modal finish
 * its transition (200 ms) first.
 */
export async function expectSettledAccessible(page: Page, label: string) {
  const toasts = page.locator('.mantine-Notification-root');
  // dispatchEvent clicks the toast's own button only, never what lies under it (an open modal stays open).
  for (const close of await toasts.locator('.mantine-Notification-closeButton').all()) {
    await close.dispatchEvent('click').catch(() => undefined);
  }
  await toasts
    .first()
    .waitFor({ state: 'detached', timeout: 8_000 })
    .catch(() => undefined);
  await page.waitForTimeout(400);
  await expectAccessible(page, label);
}

/** The page at phone width: it must fit 390 px; a screenshot `<name>-phone`, optionally axe, then desktop again. */
export async function checkOnPhone(page: Page, name: string, { accessible = false } = {}) {
  await page.setViewportSize(viewports.phone);
  await page.waitForTimeout(300);
  expect(await pageFitsWidth(page), `${name} fits a 390 px phone`).toBe(true);
  await screenshot(page, `${name}-phone`);
  if (accessible) await expectSettledAccessible(page, `${name} on a phone`);
  await page.setViewportSize(viewports.desktop);
}

/** Waits for a toast saying this. */
export const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();

/** Real JPEGs drawn by the browser's canvas, one colour each, ready for `setInputFiles`. */
export async function jpegFiles(page: Page, names: string[]) {
  const encoded = await page.evaluate((count) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    return Array.from({ length: count }, (_, i) => {
      context.fillStyle = `hsl(${(i * 97) % 360} 60% 50%)`;
      context.fillRect(0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/jpeg', 0.8).split(',')[1] ?? '';
    });
  }, names.length);
  return names.map((name, i) => ({ name, mimeType: 'image/jpeg', buffer: Buffer.from(encoded[i] ?? '', 'base64') }));
}

/** True when the page is no wider than its viewport (nothing to scroll sideways). */
export const pageFitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
