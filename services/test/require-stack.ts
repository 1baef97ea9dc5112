import { afterAll, beforeAll, vi } from 'vitest';

/**
 * Integration tests talk to the local stack that `npm test` starts; running them without it
 * would only produce connection errors, so say what to do instead.
 */
beforeAll(({ file }) => {
  const needsStack = /[\\/]test[\\/].*\.test\.ts$/.test(file.filepath);
  if (needsStack && !process.env.API_URL) {
    throw new Error('These tests need the local stack: run them with `npm test` (or `npm test -- services`).');
  }
});

// Files share a worker's module cache (isolate: false in vitest.config.ts): the AWS SDK, ElectroDB
// and the other libraries load once per worker, not once per file. What one file changes must not
// reach the next: the environment goes back to what it was when the file started, our own modules
// start afresh (their configuration, clients and caches are built again from that environment),
// and the clock, spies and stubbed globals are restored.
const environmentAtStart = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in environmentAtStart)) delete process.env[key];
  Object.assign(process.env, environmentAtStart);
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.resetModules();
});
