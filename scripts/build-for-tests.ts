// Vitest's global set-up (vitest.config.ts): tests that start server processes run the compiled
// server, as `npm start` does, so it is first rebuilt when its sources changed since its last
// build (after a quick check, nothing is done when they did not).
import { buildParts } from './build.js';

export async function setup() {
  await buildParts({ ifStale: true, parts: ['server'] });
}
