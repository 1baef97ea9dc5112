import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Every test project; `npm test` (scripts/test.ts) starts the local stack they need and runs them. */
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a two-core machine,
    // running ~85 files one after another while the CPU waits on the local stack or on each file's
    // start-up. At least two workers overlap them; the browser project stays one file at a time
    // (fileParallelism: false). VITEST_MAX_WORKERS overrides this.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      'events/vitest.config.ts',
      'services/vitest.config.ts',
      'web/vitest.config.ts',
      'infra/vitest.config.ts',
      'web/vitest.e2e.config.ts',
    ],
  },
});
