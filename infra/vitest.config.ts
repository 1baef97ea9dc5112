import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  test: {
    name: 'infra',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Synthesis with cdk-nag (and esbuild bundling in one file) takes seconds, and minutes on a busy machine.
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
