import { defineConfig } from 'vitest/config';

// chDB is one engine per process and per data path, so every test file runs in its own
// child process (pool: forks) and opens at most one engine data directory.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
