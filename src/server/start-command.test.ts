// `npm start` runs the server with the arguments the journeys and benches use (start-command.ts).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from './start-command.js';

const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  scripts: Record<string, string>;
};

describe('the server start command', () => {
  it("is package.json's start script, exec'd so the shell npm starts becomes the server", () => {
    expect(scripts.start).toBe(`exec node ${SERVER_NODE_ARGS.join(' ')}`);
  });

  it('runs the compiled server with plain node, after a build of what is stale only', () => {
    expect(SERVER_NODE_ARGS.at(-1)).toBe('dist/server/main.js');
    expect(SERVER_NODE_ARGS.filter((arg) => arg === '--import' || arg.includes('tsx'))).toEqual([]);
    expect(scripts.prestart).toBe('tsx scripts/build.ts --if-stale');
    expect(scripts.dev).toBe('tsx watch src/server/main.ts');
  });
});
