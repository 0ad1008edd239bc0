// Rotating the ledger signing key: `rotate-signing-key` announces the new key in a checkpoint
// signed by both keys (checked here by hand with node:crypto, independently of the server's note
// code), a process still holding the old key refuses to sign, the witness pinned to the old key
// follows the announcement to the new key, `ledger verify` accepts the old key up to the
// announcement and the new one after it, and forged or late old-key checkpoints are refused.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followSigningKey, rotationCheckpointText } from '../../../shared/ledger/key-rotation.js';
import { formatSignedNote, parseVerifierKey } from '../../../shared/ledger/note.js';
import type { Database } from '../../db/connect.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import { createTestAppOn, createTestDatabase, type TestApp } from '../../test/helpers.js';
import { runLedgerVerify } from './command.js';
import { runRotateSigningKey } from './key-rotation.js';
import { ledgerOrigin, noteSigner } from './signing.js';
import { appendTestEntries } from './testing.js';
import { runWitness } from './witness.js';

const publicUrl = 'https://records.example.org';
const origin = ledgerOrigin(publicUrl);
const oldSeed = crypto.randomBytes(32).toString('hex');
const newSeed = crypto.randomBytes(32).toString('hex');
const oldKey = noteSigner(origin, Buffer.from(oldSeed, 'hex')).verifierKey;
const newKey = noteSigner(origin, Buffer.from(newSeed, 'hex')).verifierKey;

let database: Database;
let before: TestApp; // a process with the old key
let after: TestApp | null = null; // a process restarted with the new key
let dir: string;

async function serve(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

function lines() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

async function witness(url: string, state: string, key = oldKey) {
  const { io, out, err } = lines();
  const code = await runWitness({ url, key, statePath: state }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A verifier key read by hand: its name, id and a node:crypto public key. */
function independentKey(vkey: string) {
  const [name, idHex, ...rest] = vkey.split('+');
  const typed = Buffer.from(rest.join('+'), 'base64');
  expect(typed[0]).toBe(0x01);
  const key = crypto.createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: typed.subarray(1).toString('base64url') },
    format: 'jwk',
  });
  return { name, keyId: Buffer.from(idHex, 'hex'), key };
}

/** Splits a signed note by hand; which of `vkeys` signed its text (each signature checked). */
function signersByHand(note: string, vkeys: string[]) {
  const cut = note.lastIndexOf('\n\n');
  const text = note.slice(0, cut + 1);
  const sigLines = note
    .slice(cut + 2)
    .split('\n')
    .slice(0, -1);
  const signed: string[] = [];
  for (const line of sigLines) {
    expect(line.startsWith('\u2014 ')).toBe(true);
    const [name, b64] = line.slice(2).split(' ');
    const blob = Buffer.from(b64, 'base64');
    for (const vkey of vkeys) {
      const k = independentKey(vkey);
      if (k.name !== name || !blob.subarray(0, 4).equals(k.keyId)) continue;
      expect(crypto.verify(null, Buffer.from(text, 'utf8'), k.key, blob.subarray(4))).toBe(true);
      signed.push(vkey);
    }
  }
  return { text, signed, signatureLines: sigLines.length };
}

beforeAll(async () => {
  database = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-rotation-'));
  before = await createTestAppOn(database, {
    publicUrl,
    ledgerSigningKey: oldSeed,
    ledgerCheckpointSeconds: 0,
  });
  await appendTestEntries(before.ctx.db, 3, { tag: 'before the rotation' });
});
afterAll(async () => {
  await after?.app.close();
  await before?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('rotating the ledger signing key', () => {
  let oldUrl: string;
  let rotationSize: number;

  it('announces the new key in a checkpoint signed by both keys', async () => {
    oldUrl = await serve(before);
    const statePath = path.join(dir, 'witness.json');
    expect((await witness(oldUrl, statePath)).code).toBe(0);

    const { io, out, err } = lines();
    const code = await runRotateSigningKey(
      before.ctx.db,
      { dataDir: before.config.dataDir, publicUrl, ledgerSigningKey: oldSeed, nextSigningKey: newSeed },
      io,
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(newKey);

    const list = (await before.app.inject({ method: 'GET', url: '/api/ledger/checkpoints' })).json();
    const announcement = list.checkpoints.at(-1);
    rotationSize = announcement.treeSize;
    expect(rotationSize).toBe(4); // the three entries and the rotation's own entry
    const byHand = signersByHand(announcement.note, [oldKey, newKey]);
    expect(byHand.signatureLines).toBe(2);
    expect(byHand.signed.sort()).toEqual([oldKey, newKey].sort());
    const [name, size, root, extension, end] = byHand.text.split('\n');
    expect([name, size, end]).toEqual([origin, '4', '']);
    expect(Buffer.from(root, 'base64')).toHaveLength(32);
    expect(extension).toBe(`medledger-key-rotation ${newKey}`);

    // Run again (an interrupted rotation resumed): nothing new.
    const again = lines();
    expect(
      await runRotateSigningKey(
        before.ctx.db,
        { dataDir: before.config.dataDir, publicUrl, ledgerSigningKey: oldSeed, nextSigningKey: newSeed },
        again.io,
      ),
    ).toBe(0);
    expect(again.out[0]).toMatch(/^Already announced/);
  });

  it('has a process still holding the old key refuse to sign (503), not sign with it', async () => {
    await appendTestEntries(before.ctx.db, 2, { tag: 'after the rotation' });
    const res = await before.app.inject({ method: 'GET', url: '/api/ledger/checkpoint' });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/rotated/);
  });

  it('signs with the new key once restarted, and the witness pinned to the old key follows', async () => {
    after = await createTestAppOn(database, {
      publicUrl,
      ledgerSigningKey: newSeed,
      ledgerCheckpointSeconds: 0,
    });
    const newUrl = await serve(after);
    const note = (await after.app.inject({ method: 'GET', url: '/api/ledger/checkpoint' })).body;
    const byHand = signersByHand(note, [oldKey, newKey]);
    expect(byHand.signed).toEqual([newKey]);
    expect(byHand.text.split('\n')[1]).toBe('6');

    const statePath = path.join(dir, 'witness.json');
    const followed = await witness(newUrl, statePath);
    expect(followed.err).toBe('');
    expect(followed.code).toBe(0);
    expect(followed.out).toContain(`signing key is now ${newKey}`);
    const kept = JSON.parse(fs.readFileSync(statePath, 'utf8'));
    expect(kept.verifierKey).toBe(newKey);
    expect(kept.rotations).toHaveLength(1);
    // The next run reads the state back through the kept announcement, still pinned to the old key.
    await appendTestEntries(after.ctx.db, 1);
    expect((await witness(newUrl, statePath)).code).toBe(0);

    // A witness that never ran follows from the first checkpoint; another key is refused.
    expect((await witness(newUrl, path.join(dir, 'fresh.json'))).code).toBe(0);
    const stranger = noteSigner(origin, crypto.randomBytes(32)).verifierKey;
    expect((await witness(newUrl, path.join(dir, 'stranger.json'), stranger)).code).toBe(1);
  });

  it('verifies the history: the old key up to the announcement, the new one after it', async () => {
    const files = new DirectoryStore(before.config.dataDir, before.config.fileEncryptionKey);
    const ok = lines();
    expect(
      await runLedgerVerify(
        { skipRecords: true, batchSize: 100 },
        after!.ctx.db,
        files,
        ok.io,
        undefined,
        newKey,
      ),
    ).toBe(0);
    expect(ok.out.join('\n')).toMatch(/Checkpoints: \d+ checked .*1 signing-key rotation/);
    const stale = lines();
    expect(
      await runLedgerVerify(
        { skipRecords: true, batchSize: 100 },
        after!.ctx.db,
        files,
        stale.io,
        undefined,
        oldKey,
      ),
    ).toBe(1);
    expect(stale.out.join('\n')).toContain(`this server signs with ${oldKey}`);
  });
});

describe('following a signing key', () => {
  const oldSigner = noteSigner(origin, Buffer.from(oldSeed, 'hex'));
  const newSigner = noteSigner(origin, Buffer.from(newSeed, 'hex'));
  const root = new Uint8Array(32).fill(9);
  const announcement = (signers: (typeof oldSigner)[]) => {
    const text = rotationCheckpointText({ origin, treeSize: 5, rootHash: root }, newKey);
    return formatSignedNote(
      text,
      signers.map((s) => s.signature(text)),
    );
  };
  const plain = (signer: typeof oldSigner, treeSize: number) =>
    signer.sign(`${origin}\n${treeSize}\n${Buffer.from(root).toString('base64')}\n`);

  it('hands over at a doubly signed announcement', async () => {
    const followed = await followSigningKey(
      [plain(oldSigner, 4), announcement([oldSigner, newSigner]), plain(newSigner, 6)],
      parseVerifierKey(oldKey),
    );
    expect(followed.key.keyId).toEqual(parseVerifierKey(newKey).keyId);
  });

  it('refuses an announcement the new key did not sign, and the old key after the announcement', async () => {
    await expect(followSigningKey([announcement([oldSigner])], parseVerifierKey(oldKey))).rejects.toThrow(
      /did not sign it/,
    );
    await expect(
      followSigningKey([announcement([oldSigner, newSigner]), plain(oldSigner, 6)], parseVerifierKey(oldKey)),
    ).rejects.toThrow(/not signed by the key/);
    // The new key alone cannot announce itself to a follower of the old one.
    await expect(followSigningKey([announcement([newSigner])], parseVerifierKey(oldKey))).rejects.toThrow(
      /not signed by the key/,
    );
  });
});
