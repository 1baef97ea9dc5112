import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kilobytes, loginJsSummary, measureLoginJs } from '../scripts/login-js-size';
import { launchBrowser, webUrl } from './browser';

/**
 * The gzip size a first visit to /login may download, set just above what it downloads now
 * (130.3 KB, see docs/performance.md): a growth fails the run and is looked at, not found later.
 * Raise it only with a reason recorded there.
 */
const LOGIN_JS_BUDGET_KB = 135;

describe('What a first visit to /login downloads', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it(`stays within ${LOGIN_JS_BUDGET_KB} KB of JavaScript (gzip)`, async () => {
    const size = await measureLoginJs(browser, webUrl);
    // scripts/test.ts prints this line in its report at the end of the run.
    const report = `${loginJsSummary(size)} (budget ${LOGIN_JS_BUDGET_KB} KB gzip)`;
    if (process.env.LOGIN_JS_REPORT) writeFileSync(process.env.LOGIN_JS_REPORT, report);
    const largest = [...size.scripts].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 5);
    expect(
      size.gzipBytes / 1024,
      `First visit to /login: ${report}; largest: ${largest.map((s) => `${s.path} ${kilobytes(s.gzipBytes)}`).join(', ')}`,
    ).toBeLessThanOrEqual(LOGIN_JS_BUDGET_KB);
  });
});
