import { defineConfig } from 'vitest/config';

// Unit and API tests: each file gets a fresh PGlite database (or a fresh schema on TEST_DATABASE_URL).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
