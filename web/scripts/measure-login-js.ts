/**
 * How much JavaScript a first visit to /login downloads: builds the app as the browser tests build
 * it, serves it with `vite preview`, and measures /login with login-js-size.ts (the browser tests'
 * size budget uses the same code). Run from the repository root: npx tsx web/scripts/measure-login-js.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { kilobytes, loginJsSummary, measureLoginJs } from './login-js-size';

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
  const size = await measureLoginJs(browser, `http://127.0.0.1:${port}`);
  for (const script of size.scripts) {
    console.log(
      `${script.path.padEnd(48)} ${kilobytes(script.bytes).padStart(10)} ${kilobytes(script.gzipBytes).padStart(10)} gzip`,
    );
  }
  console.log(loginJsSummary(size));
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  rmSync(outDir, { recursive: true, force: true });
}
