import { defineConfig } from 'vitest/config';

// chDB is one engine per process and per data path, so every test file runs in its own
// child process (pool: forks) and opens at most one engine data directory.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.ts'],
          exclude: ['test/browser/**'],
          // One PostgreSQL and one ClickHouse HTTP endpoint for the whole run, started in the background.
          globalSetup: ['test/support/global-services.ts'],
        },
      },
      {
        // The console in a real browser: one server and one Chromium for every file, started by
        // the global setup only when a browser test runs.
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], globalSetup: ['test/browser/support/global-setup.ts'] },
      },
    ],
  },
});
