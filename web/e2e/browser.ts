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

/** A phone, and the narrowest common laptop: a layout that fits 1280 px fits the wider screens too. */
export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
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
      // Some test port offsets put a stand-in (the S3 emulator) on a port browsers refuse as unsafe (6665-6669).
      '--explicitly-allowed-ports=6665,6666,6667,6668,6669',
    ],
  });

/** A fresh browser profile (nobody signed in) at the given size. */
export async function openPage(browser: Browser, viewport: keyof typeof viewports = 'desktop') {
  const context: BrowserContext = await browser.newContext({ viewport: viewports[viewport] });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/**
 * The visible part only, for a page that is not ours (the local mail inbox): it grows with every
 * email the suite sends, and a full-page capture of it outlasted the timeout on a busy machine.
 */
export async function viewportScreenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** A full-page screenshot `<name>.png`; then every label on the page must fit its control. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
  await expectLabelsFit(page, name);
}

/**
 * Waits until the page's running animations end (a second at most): a modal still scaling in
 * moves its buttons, and a click aimed while it moves can land beside them on a busy machine.
 */
export async function animationsSettled(page: Page) {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
      .map((animation) => animation.finished.catch(() => undefined));
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  });
}

/**
 * Fails when the text of a visible button, badge or tab is cut off: a label that needs more room
 * than its control gives it, so the reader sees 'Download Edited Phot'. Each run of text is laid
 * out in full even where it is clipped or ends in an ellipsis, so its box must lie inside the
 * control and inside every box between them that hides overflow. Names each clipped label, its
 * control and the page.
 */
export async function expectLabelsFit(page: Page, where = new URL(page.url()).pathname) {
  // Measure where things come to rest: a button leaving its busy state slides its label back in.
  await animationsSettled(page);
  const clipped = await page.evaluate(async () => {
    const controls =
      'button, [role="button"], [role="tab"], a.mantine-Button-root, .mantine-Badge-root, .mantine-Pill-root';
    // A pixel of rounding either way is layout, not clipping.
    const slack = 1;
    const kindOf = (control: Element) => {
      if (control.classList.contains('mantine-Badge-root')) return 'badge';
      if (control.classList.contains('mantine-Pill-root')) return 'pill';
      return control.getAttribute('role') ?? control.tagName.toLowerCase();
    };
    const found: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>(controls)) {
      const box = control.getBoundingClientRect();
      const label = control.innerText.replace(/\s+/g, ' ').trim();
      // Closed, hidden or icon-only controls have no label to cut.
      if (!label || box.width < 2 || box.height < 2 || getComputedStyle(control).visibility === 'hidden') continue;
      const cut: string[] = [];
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const parent = node.parentElement;
        if (!text || !parent) continue;
        const parentBox = parent.getBoundingClientRect();
        // Text for screen readers only sits in a 1 px box on purpose.
        if (parentBox.width <= 1 || parentBox.height <= 1) continue;
        let clip = { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
        let shown = true;
        for (let el: HTMLElement | null = parent; el && el !== control.parentElement; el = el.parentElement) {
          const style = getComputedStyle(el);
          // A busy button hides its label behind the spinner on purpose.
          if (style.opacity === '0') shown = false;
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const inner = el.getBoundingClientRect();
          const left = inner.left + el.clientLeft;
          const top = inner.top + el.clientTop;
          clip = {
            left: Math.max(clip.left, left),
            right: Math.min(clip.right, left + el.clientWidth),
            top: Math.max(clip.top, top),
            bottom: Math.min(clip.bottom, top + el.clientHeight),
          };
        }
        if (!shown) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const overflowing = [...range.getClientRects()].find(
          (rect) =>
            rect.width > 0 &&
            (rect.left < clip.left - slack ||
              rect.right > clip.right + slack ||
              rect.top < clip.top - slack ||
              rect.bottom > clip.bottom + slack),
        );
        if (overflowing) {
          cut.push(
            `'${text}' needs ${Math.round(overflowing.width)}x${Math.round(overflowing.height)} px, ` +
              `${Math.max(0, Math.round(clip.right - clip.left))}x${Math.max(0, Math.round(clip.bottom - clip.top))} px shown`,
          );
        }
      }
      if (cut.length) found.push(`${kindOf(control)} '${label}': ${cut.join('; ')}`);
    }
    return found;
  });
  if (clipped.length) {
    const at = `${new URL(page.url()).pathname}, ${page.viewportSize()?.width} px wide`;
    throw new Error(`Clipped labels on ${where} (${at}):\n  ${clipped.join('\n  ')}`);
  }
}

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
  await expectLabelsFit(page, label);
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
