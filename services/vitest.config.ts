import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  test: {
    name: 'services',
    environment: 'node',
    include: ['src/**/*.test.ts', 'local/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/require-stack.ts'],
    // One module cache per worker: a file's start-up no longer loads the libraries again
    // (docs/decisions/0115-services-tests-share-a-module-cache.md). test/require-stack.ts puts back what a file changes.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
