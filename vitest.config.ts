import { defineConfig } from 'vitest/config';

/** Every test project; `npm test` (scripts/test.ts) starts the local stack they need and runs them. */
export default defineConfig({
  test: {
    projects: [
      'events/vitest.config.ts',
      'services/vitest.config.ts',
      'web/vitest.config.ts',
      'infra/vitest.config.ts',
      'web/vitest.e2e.config.ts',
    ],
  },
});
