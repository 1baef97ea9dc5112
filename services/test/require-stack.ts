import { beforeAll } from 'vitest';

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
