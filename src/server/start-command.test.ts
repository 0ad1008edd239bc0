// `npm start` runs the server with the arguments the journeys and benches use (start-command.ts).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from './start-command.js';

describe('the server start command', () => {
  it("is package.json's start script, exec'd so the shell npm starts becomes the server", () => {
    const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(`exec node ${SERVER_NODE_ARGS.join(' ')}`);
  });
});
