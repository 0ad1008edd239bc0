import { defineConfig } from 'vitest/config';

// Unit and API tests: each file gets a fresh PGlite database (or a fresh schema on TEST_DATABASE_URL).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    globalSetup: ['scripts/build-for-tests.ts'],
    // Generous: a slow, shared CI machine makes a healthy test slow, and a timeout tells nothing more
    // than a failed assertion would; a hung test still fails, after a minute.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
