import { defineConfig } from 'vitest/config';

// Unit and API tests: each file gets a fresh PGlite database (or a fresh schema on TEST_DATABASE_URL).
// The client's component tests (*.test.tsx) run in happy-dom, with Testing Library; everything else
// keeps Node's environment.
export default defineConfig({
  test: {
    globalSetup: ['scripts/build-for-tests.ts'],
    // Generous: a slow, shared CI machine makes a healthy test slow, and a timeout tells nothing more
    // than a failed assertion would; a hung test still fails, after a minute.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'eslint-rules/**/*.test.js'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['src/client/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['src/client/test/setup.ts'],
        },
      },
    ],
  },
});
