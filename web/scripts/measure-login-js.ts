/**
 * How much JavaScript a first visit to /login downloads: builds the app, serves it with
 * `vite preview`, opens /login in headless Chromium, and sums the gzip size (level 9) of every
 * .js file the page requested. Run from the repository root: npx tsx web/scripts/measure-login-js.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const webRoot = path.resolve(import.meta.dirname, '..');
const configFile = path.join(webRoot, 'vite.config.ts');
const outDir = mkdtempSync(path.join(tmpdir(), 'login-js-'));
const port = 4399;

// Built as the tests build it: a configured project pointed at an emulator that need not be running.
Object.assign(process.env, {
  VITE_FIREBASE_API_KEY: 'demo-api-key',
  VITE_FIREBASE_AUTH_DOMAIN: 'demo-marketplace.firebaseapp.com',
  VITE_FIREBASE_PROJECT_ID: 'demo-marketplace',
  VITE_FIREBASE_APP_ID: 'demo-app',
  VITE_FIREBASE_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099',
});

await build({ configFile, root: webRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
const server = await preview({
  configFile,
  root: webRoot,
  build: { outDir },
  preview: { port, strictPort: true, host: '127.0.0.1' },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

try {
  const page = await browser.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith('.js')) scripts.add(pathname);
  });
  await page.goto(`http://127.0.0.1:${port}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();

  let rawBytes = 0;
  let gzipBytes = 0;
  for (const script of [...scripts].sort()) {
    const content = readFileSync(path.join(outDir, script));
    const gzipped = gzipSync(content, { level: 9 }).length;
    rawBytes += content.length;
    gzipBytes += gzipped;
    console.log(
      `${script.padEnd(48)} ${(content.length / 1024).toFixed(1).padStart(7)} KB ${(gzipped / 1024).toFixed(1).padStart(7)} KB gzip`,
    );
  }
  console.log(`${scripts.size} files: ${(rawBytes / 1024).toFixed(1)} KB, ${(gzipBytes / 1024).toFixed(1)} KB gzip`);
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  rmSync(outDir, { recursive: true, force: true });
}
