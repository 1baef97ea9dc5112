import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  test: {
    name: 'infra',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Synthesis (and esbuild bundling in one file) takes seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
