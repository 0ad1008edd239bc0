// The witness against real servers on real sockets: three databases that share a common prefix
// and then diverge (a split view), one server that rewrites a signed checkpoint, and a wrong key.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { noteSigner } from './signing.js';
import { appendTestEntries } from './testing.js';
import { parseWitnessArgs, runWitness } from './witness.js';

const seed = crypto.randomBytes(32).toString('hex');
const publicUrl = 'https://records.example.org';
let a: TestApp; // the honest log
let b: TestApp; // the same prefix, then other entries
let c: TestApp; // the prefix only (a tree that shrank)
const urls: Record<string, string> = {};
let key: string;
let dir: string;

async function serve(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function witness(url: string, state: string, withKey = key) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWitness(
    { url, key: withKey, statePath: state },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  // One log identity (name and key) served from three databases: what a split view looks like.
  const config = { publicUrl, ledgerSigningKey: seed, ledgerCheckpointSeconds: 0 };
  [a, b, c] = [await createTestApp(config), await createTestApp(config), await createTestApp(config)];
  for (const t of [a, b, c]) await appendTestEntries(t.ctx.db, 3, { tag: 'common prefix' });
  await appendTestEntries(a.ctx.db, 2, { tag: 'history' });
  urls.a = await serve(a);
  urls.b = await serve(b);
  urls.c = await serve(c);
  key = (await fetch(`${urls.a}/api/ledger/public-key`).then((r) => r.text())).trim();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-witness-'));
});
afterAll(async () => {
  for (const t of [a, b, c]) await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the witness', () => {
  it('keeps the first checkpoint, then accepts a tree that grew consistently', async () => {
    const state = path.join(dir, 'honest.json');
    const first = await witness(urls.a, state);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toMatch(/first checkpoint kept, 5 entries/);
    expect(JSON.parse(fs.readFileSync(state, 'utf8'))).toMatchObject({
      origin: 'records.example.org/medledger',
      treeSize: 5,
    });

    await appendTestEntries(a.ctx.db, 1, { tag: 'later' });
    const second = await witness(urls.a, state);
    expect(second).toMatchObject({ code: 0, err: '' });
    expect(second.out).toMatch(/5 -> 6 entries, consistent/);
    // Asking again without growth is fine too.
    expect((await witness(urls.a, state)).code).toBe(0);
  });

  it('refuses a split view: the same size with another root, then a tree that does not extend', async () => {
    const state = path.join(dir, 'split.json');
    expect((await witness(urls.a, state)).code).toBe(0); // sees the honest tree of 6
    const kept = fs.readFileSync(state, 'utf8');

    await appendTestEntries(b.ctx.db, 3, { tag: 'another history' }); // also 6 entries
    const sameSize = await witness(urls.b, state);
    expect(sameSize.code).toBe(1);
    expect(sameSize.err).toMatch(/^witness: REJECTED: two different signed roots for 6 entries/);
    expect(sameSize.err.split('\n')).toHaveLength(1);

    await appendTestEntries(b.ctx.db, 1, { tag: 'another history, later' }); // 7 entries
    const grown = await witness(urls.b, state);
    expect(grown.code).toBe(1);
    expect(grown.err).toMatch(/does not extend the one of 6 this witness saw/);
    // The state still holds what the witness accepted; the refused checkpoint is kept as evidence.
    expect(fs.readFileSync(state, 'utf8')).toBe(kept);
    expect(fs.readFileSync(`${state}.rejected`, 'utf8')).toMatch(/^records\.example\.org\/medledger\n7\n/);
  });

  it('refuses a tree that shrank', async () => {
    const state = path.join(dir, 'shrink.json');
    expect((await witness(urls.a, state)).code).toBe(0);
    const res = await witness(urls.c, state);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/the tree shrank from 6 to 3 entries/);
  });

  it('refuses a checkpoint signed by another key, and a key that does not match its id', async () => {
    const other = noteSigner('records.example.org/medledger', crypto.randomBytes(32)).verifierKey;
    const res = await witness(urls.a, path.join(dir, 'other-key.json'), other);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/is not signed by the key records\.example\.org\/medledger\+/);
    expect(fs.existsSync(path.join(dir, 'other-key.json'))).toBe(false);

    const [name, , ...b64parts] = key.split('+');
    const b64 = b64parts.join('+');
    const badId = await witness(urls.a, path.join(dir, 'bad-id.json'), `${name}+00000000+${b64}`);
    expect(badId.code).toBe(2);
    expect(badId.err).toMatch(/key id does not match/);
  });

  it('refuses a checkpoint whose text was altered after signing', async () => {
    const state = path.join(dir, 'forged.json');
    expect((await witness(urls.a, state)).code).toBe(0);
    const note = await fetch(`${urls.a}/api/ledger/checkpoint`).then((r) => r.text());
    const [origin, size, root, ...rest] = note.split('\n');
    const otherRoot = Buffer.from(root, 'base64');
    otherRoot[0] ^= 1;
    const forged = [origin, size, otherRoot.toString('base64'), ...rest].join('\n');
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(forged);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await witness(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, state);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/signature by records\.example\.org\/medledger does not verify/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('does not trust a state file edited by hand, and says when the log cannot be reached', async () => {
    const state = path.join(dir, 'edited.json');
    expect((await witness(urls.a, state)).code).toBe(0);
    const saved = JSON.parse(fs.readFileSync(state, 'utf8'));
    saved.checkpoint = saved.checkpoint.replace('\n6\n', '\n2\n');
    fs.writeFileSync(state, JSON.stringify(saved));
    const res = await witness(urls.a, state);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/does not hold a checkpoint signed by this key/);

    const down = await witness('http://127.0.0.1:9', path.join(dir, 'down.json'));
    expect(down.code).toBe(3);
    expect(down.err).toMatch(/could not reach/);
  });

  it('parses its options', () => {
    expect(parseWitnessArgs([])).toHaveProperty('error');
    expect(parseWitnessArgs(['--url', 'x', '--key'])).toHaveProperty('error');
    expect(parseWitnessArgs(['--url', 'u', '--key', 'k', '--state', 's'])).toEqual({
      options: { url: 'u', key: 'k', statePath: 's' },
    });
  });

  it('runs as `npm run ledger -- witness` with its exit codes', async () => {
    const state = path.join(dir, 'cli.json');
    const run = (url: string) =>
      promisify(execFile)(
        path.resolve('node_modules/.bin/tsx'),
        ['src/server/cli/ledger.ts', 'witness', '--url', url, '--key', key, '--state', state],
        { env: { ...process.env, DATABASE_URL: '' } },
      ).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const ok = await run(urls.a);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^OK records\.example\.org\/medledger: first checkpoint kept/);
    const bad = await run(urls.c); // the prefix only: fewer entries than the witness saw
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^witness: REJECTED: the tree shrank from \d+ to 3 entries[^\n]*\n$/);
  });
});
