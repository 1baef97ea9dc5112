import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudOrigins, securityHeaders } from '../security-headers';
import { launchBrowser, openPage, signIn, waitForPath, webUrl } from './browser';

/**
 * The preview server sends the headers CloudFront sends (web/security-headers.ts), and the app
 * works under them: signing in against the auth emulator, the dashboards, the order form.
 */

const headerNames = Object.keys(
  securityHeaders(cloudOrigins({ photosBucketOrigin: 'https://b', firebaseAuthDomain: 'a' })),
).map((name) => name.toLowerCase());

const directivesOf = (policy: string) =>
  new Map(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources] as const;
    }),
  );

/** Records every content security policy violation the page reports, from before its first script. */
const watchViolations = async (page: Page) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} refused ${event.blockedURI}`),
    );
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
    ...consoleErrors,
  ];
};

describe('Security headers', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('are sent with the page, a client-side route and a built asset', async () => {
    const page = await fetch(`${webUrl}/`);
    const html = await page.text();
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    for (const path of ['/', '/orders/new', asset!]) {
      const response = await fetch(`${webUrl}${path}`);
      expect(response.status, path).toBe(200);
      for (const name of headerNames) expect(response.headers.get(name), `${name} on ${path}`).toBeTruthy();
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8}; includeSubDomains; preload$/);
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const csp = directivesOf(response.headers.get('content-security-policy')!);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // Scripts from this site and Stripe only: nothing inline, no eval.
      expect(csp.get('script-src')).toContain("'self'");
      expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
      expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
      expect(csp.get('default-src')).toEqual(["'self'"]);
    }
  });

  it('let the app sign in and show its pages without a single violation, and refuse an inline script', async () => {
    const { page, context } = await openPage(browser);
    const violations = await watchViolations(page);
    await signIn(page, 'photographer@example.com');
    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto(`${webUrl}/orders/new`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(500);
    expect(await violations()).toEqual([]);

    // The policy is really enforced: a script injected into the page does not run.
    await page.addScriptTag({ content: 'window.inlineScriptRan = true;' }).catch(() => undefined);
    expect(await page.evaluate(() => 'inlineScriptRan' in window)).toBe(false);
    expect((await violations()).some((v) => v.startsWith('script-src'))).toBe(true);
    await context.close();
  });
});
