// Vitest's global set-up for the journeys (vitest.e2e.config.ts): the harness starts the compiled
// server, which serves the built client, so both are first rebuilt where their sources changed
// since their last build (after a quick check, nothing is done when they did not).
import { buildParts } from '../scripts/build.js';

export async function setup() {
  await buildParts({ ifStale: true });
}
