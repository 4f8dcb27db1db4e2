import { defineConfig } from 'vitest/config';
import { MAX_WORKERS } from './test/support/global-setup.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: MAX_WORKERS,
    // Files of one worker share its migrated database; tests isolate by team, not by wiping.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
