import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  test: {
    name: 'services',
    environment: 'node',
    include: ['src/**/*.test.ts', 'local/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/require-stack.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
