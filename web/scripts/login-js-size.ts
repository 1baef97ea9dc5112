/**
 * How much JavaScript a first visit to /login downloads: opens /login in a fresh browser profile
 * (nobody signed in), waits until the network is idle, and sums the gzip size (level 9) of every
 * .js file the page requested. Used by measure-login-js.ts and by the browser tests' size budget.
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';

export interface ScriptSize {
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface LoginJsSize {
  scripts: ScriptSize[];
  bytes: number;
  gzipBytes: number;
}

export async function measureLoginJs(browser: Browser, webUrl: string): Promise<LoginJsSize> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const bodies = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.endsWith('.js') && !bodies.has(pathname)) bodies.set(pathname, response.body());
    });
    await page.goto(`${webUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    const scripts: ScriptSize[] = [];
    for (const [path, body] of [...bodies].sort(([a], [b]) => a.localeCompare(b))) {
      const content = await body;
      scripts.push({ path, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length });
    }
    return {
      scripts,
      bytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
      gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    };
  } finally {
    await context.close();
  }
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line: '21 files: 389.4 KB, 130.3 KB gzip'. */
export const loginJsSummary = (size: LoginJsSize) =>
  `${size.scripts.length} files: ${kilobytes(size.bytes)}, ${kilobytes(size.gzipBytes)} gzip`;
