import { defineConfig } from 'vitest/config';

// Browser journeys: Playwright (playwright-core) drives Debian's Chromium against the started app.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/build-for-journeys.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default; a loaded CI machine can take longer than that to render a list.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
