// Signed checkpoints: the C2SP encoding checked by an independent reading (by hand, node:crypto,
// a known answer from the Go sumdb/note documentation), the key file, batching, the list of
// checkpoints, and their consistency.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyConsistency } from '../../../shared/ledger/merkle.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { ledgerOrigin, noteSigner } from './signing.js';
import { appendTestEntries } from './testing.js';

/** An independent reading of a verifier key: name, hex id, and a node:crypto public KeyObject. */
function independentKey(vkey: string) {
  const [name, idHex, b64] = [vkey.split('+')[0], vkey.split('+')[1], vkey.split('+').slice(2).join('+')];
  const typed = Buffer.from(b64, 'base64');
  expect(typed.length).toBe(33);
  expect(typed[0]).toBe(0x01);
  const raw = typed.subarray(1);
  const expectedId = crypto
    .createHash('sha256')
    .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, 0x01]), raw]))
    .digest()
    .subarray(0, 4);
  expect(idHex).toBe(expectedId.toString('hex'));
  const key = crypto.createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
  return { name, keyId: expectedId, key };
}

/** Splits a signed note by hand and verifies its one signature with node:crypto. */
function independentVerify(note: string, vkey: string) {
  const { name, keyId, key } = independentKey(vkey);
  const cut = note.lastIndexOf('\n\n');
  const text = note.slice(0, cut + 1);
  const sigLines = note.slice(cut + 2).split('\n');
  expect(sigLines.pop()).toBe(''); // the note ends with a newline
  expect(sigLines).toHaveLength(1);
  const line = Buffer.from(sigLines[0], 'utf8');
  expect([...line.subarray(0, 4)]).toEqual([0xe2, 0x80, 0x94, 0x20]); // U+2014 EM DASH, space
  const [signer, b64] = sigLines[0].slice(2).split(' ');
  expect(signer).toBe(name);
  const blob = Buffer.from(b64, 'base64');
  expect(blob.length).toBe(68);
  expect(blob.subarray(0, 4).equals(keyId)).toBe(true);
  expect(crypto.verify(null, Buffer.from(text, 'utf8'), key, blob.subarray(4))).toBe(true);
  return { text, signature: blob.subarray(4) };
}

describe('signed-note encoding', () => {
  it('reproduces the Go sumdb/note example byte for byte (a known answer)', () => {
    // From the documentation of golang.org/x/mod/sumdb/note: key, text and signed note.
    const skey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
    const seed = Buffer.from(skey.split('+').slice(4).join('+'), 'base64').subarray(1);
    const signer = noteSigner('PeterNeumann', seed);
    expect(signer.verifierKey).toBe('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
    const text =
      "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
    const note = signer.sign(text);
    expect(note).toBe(
      `${text}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
    );
    independentVerify(note, signer.verifierKey);
  });

  it('names the log after PUBLIC_URL', () => {
    expect(ledgerOrigin('https://records.example.org')).toBe('records.example.org/medledger');
    expect(ledgerOrigin('https://Example.org:8443/clinic/')).toBe('example.org:8443/clinic/medledger');
    expect(ledgerOrigin('http://localhost:3000')).toBe('localhost:3000/medledger');
  });
});

describe('checkpoint routes', () => {
  let t: TestApp;
  let clock = new Date('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp(
      { publicUrl: 'https://records.example.org', ledgerCheckpointSeconds: 5 },
      { now: () => clock },
    );
  });
  afterAll(async () => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('keeps the key in DATA_DIR/secrets/ledger.key, readable by the owner only', () => {
    const file = path.join(t.config.dataDir, 'secrets', 'ledger.key');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('publishes the verifier key and a checkpoint in the C2SP formats', async () => {
    const keyRes = await get('/api/ledger/public-key');
    expect(keyRes.statusCode).toBe(200);
    expect(keyRes.headers['content-type']).toBe('text/plain; charset=utf-8');
    const vkey = keyRes.body.trim();
    expect(vkey).toMatch(/^records\.example\.org\/medledger\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);

    await appendTestEntries(t.ctx.db, 3);
    const res = await get('/api/ledger/checkpoint');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const { text } = independentVerify(res.body, vkey);
    const [origin, size, root, end] = text.split('\n');
    expect(origin).toBe('records.example.org/medledger');
    expect(size).toBe('3');
    expect(end).toBe('');
    const head = (await get('/api/ledger/head')).json();
    expect(Buffer.from(root, 'base64').toString('hex')).toBe(head.rootHash);
    // No ids or content of entries: exactly the three lines and the signature.
    expect(text.split('\n')).toHaveLength(4);
  });

  it('signs at most every LEDGER_CHECKPOINT_SECONDS while the tree grows', async () => {
    const first = (await get('/api/ledger/checkpoint')).body;
    await appendTestEntries(t.ctx.db, 2);
    // Younger than 5 seconds: the stored checkpoint (size 3) is served although the tree has 5.
    clock = new Date(clock.getTime() + 4_000);
    const second = (await get('/api/ledger/checkpoint')).body;
    expect(second).toBe(first);
    // Older: a new one of the grown tree.
    clock = new Date(clock.getTime() + 2_000);
    const third = (await get('/api/ledger/checkpoint')).body;
    expect(third.split('\n')[1]).toBe('5');
    // The tree has not grown: the same checkpoint, however old it is.
    clock = new Date(clock.getTime() + 60_000);
    expect((await get('/api/ledger/checkpoint')).body).toBe(third);
  });

  it('lists every signed checkpoint, paged, and they are consistent with each other', async () => {
    const vkey = (await get('/api/ledger/public-key')).body.trim();
    const all = (await get('/api/ledger/checkpoints')).json();
    expect(all.checkpoints.map((c: { treeSize: number }) => c.treeSize)).toEqual([3, 5]);
    expect(all.next).toBeNull();
    for (const c of all.checkpoints) independentVerify(c.note, vkey);

    const page = (await get('/api/ledger/checkpoints?after=-1&limit=1')).json();
    expect(page.checkpoints.map((c: { treeSize: number }) => c.treeSize)).toEqual([3]);
    expect(page.next).toBe(3);
    const rest = (await get(`/api/ledger/checkpoints?after=${page.next}&limit=1`)).json();
    expect(rest.checkpoints.map((c: { treeSize: number }) => c.treeSize)).toEqual([5]);
    expect(rest.next).toBeNull();

    const [a, b] = all.checkpoints;
    const proof = (await get(`/api/ledger/consistency?from=${a.treeSize}&to=${b.treeSize}`)).json();
    expect(
      verifyConsistency(
        a.treeSize,
        b.treeSize,
        Buffer.from(a.rootHash, 'hex'),
        Buffer.from(b.rootHash, 'hex'),
        proof.proof.map((h: string) => Buffer.from(h, 'hex')),
      ),
    ).toBe(true);
  });

  it('stores one checkpoint per size when many requests sign at once', async () => {
    await appendTestEntries(t.ctx.db, 1);
    clock = new Date(clock.getTime() + 60_000);
    const bodies = await Promise.all(Array.from({ length: 8 }, () => get('/api/ledger/checkpoint')));
    expect(new Set(bodies.map((r) => r.body)).size).toBe(1);
    expect(bodies[0].body.split('\n')[1]).toBe('6');
    const sizes = (await get('/api/ledger/checkpoints'))
      .json()
      .checkpoints.map((c: { treeSize: number }) => c.treeSize);
    expect(sizes).toEqual([3, 5, 6]);
  });

  it('refuses bad paging with a 400 and a message', async () => {
    for (const q of ['after=x', 'after=-2', 'limit=0', 'limit=101', 'limit=1.5']) {
      const res = await get(`/api/ledger/checkpoints?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('refuses to change or remove a stored checkpoint', async () => {
    await expect(t.ctx.db.execute(sql`update ledger_checkpoints set note = 'x'`)).rejects.toThrow();
  });
});

describe('the signing key from LEDGER_SIGNING_KEY', () => {
  it('is the same key in every process given it, and no key file is made', async () => {
    const seed = crypto.randomBytes(32).toString('hex');
    const a = await createTestApp({ ledgerSigningKey: seed });
    const b = await createTestApp({ ledgerSigningKey: seed });
    try {
      const ka = (await a.app.inject({ method: 'GET', url: '/api/ledger/public-key' })).body;
      const kb = (await b.app.inject({ method: 'GET', url: '/api/ledger/public-key' })).body;
      expect(ka).toBe(kb);
      expect(fs.existsSync(path.join(a.config.dataDir, 'secrets', 'ledger.key'))).toBe(false);
      const note = (await a.app.inject({ method: 'GET', url: '/api/ledger/checkpoint' })).body;
      independentVerify(note, kb.trim());
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});

describe('the public checkpoint routes', () => {
  it('are rate-limited per address like the other public ledger reads (300 a minute)', async () => {
    const t = await createTestApp();
    try {
      for (const url of ['/api/ledger/public-key', '/api/ledger/checkpoint', '/api/ledger/checkpoints']) {
        const statuses: number[] = [];
        for (let i = 0; i < 301; i++) statuses.push((await t.app.inject({ method: 'GET', url })).statusCode);
        expect(
          statuses.slice(0, 300).every((s) => s === 200),
          url,
        ).toBe(true);
        expect(statuses[300], url).toBe(429);
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});
