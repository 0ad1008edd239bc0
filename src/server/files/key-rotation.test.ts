// Rotating FILE_ENCRYPTION_KEY (docs/decisions.md, "Rotating the attachment key"), on either store
// and on a real database under `npm run test:pg`: files sealed under the old key still open with it
// in FILE_ENCRYPTION_PREVIOUS_KEYS; migrate-files, stopped at its worst moment (a file replaced, its
// row not yet switched) and run again, reseals every file under the new key; the server then starts
// without the old key, every file downloads byte for byte, `ledger verify` is clean, and two-factor
// sign-in and an activation code issued before the rotation still work. With a key missing, the
// start, the downloads and `ledger verify` name its id.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import { attachments } from '../db/schema.js';
import { runLedgerVerify } from '../features/ledger/command.js';
import { keysAtStart, migrateFiles } from '../features/records/migrate-files.js';
import { uploadRecord } from '../features/records/testing.js';
import {
  addPatient,
  createTestAppOn,
  createTestDatabase,
  enableTwoFactor,
  loginWithCode,
  signedInHospital,
  signedInPatient,
  type TestApp,
} from '../test/helpers.js';
import { CHUNK_SIZE, headerKeyId } from './formats/chunked.js';
import { keyIdOf } from './keys.js';
import type { FileStore } from './store.js';
import { readSealed, STORES } from './testing.js';

const OLD = '1a'.repeat(32);
const NEW = '2b'.repeat(32);
const OTHER = '3c'.repeat(32);
const idOf = (hex: string) => keyIdOf(Buffer.from(hex, 'hex')).toString('hex');
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Stands for the process being killed. */
class Killed extends Error {}

describe.each(STORES)('rotating FILE_ENCRYPTION_KEY, attachments in the %s', (kind) => {
  let database: Database;
  let dataDir: string;
  let hospitalCookie = '';
  const urls: string[] = [];
  const running: TestApp[] = [];
  /** The server started on the same database and data folder with these keys. */
  const start = async (keys: Partial<Config>) => {
    const t = await createTestAppOn(
      { ...database, close: async () => {} },
      { dataDir, attachmentStore: kind, ...keys },
    );
    running.push(t);
    return t;
  };
  const stop = async (t: TestApp) => {
    running.splice(running.indexOf(t), 1);
    await t.close();
  };
  const verify = async (t: TestApp) => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const code = await runLedgerVerify({ skipRecords: false, batchSize: 100 }, t.ctx.db, t.ctx.files, io);
    return { code, out: out.join('\n') };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-rotation-'));
  });
  afterAll(async () => {
    for (const t of running) await t.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reseals every file under the new key, resumably; the old key can then go', async () => {
    // Before the rotation: files, a two-factor account and an outstanding activation code.
    const before = await start({ fileEncryptionKey: OLD });
    const hospital = await signedInHospital(before.app);
    hospitalCookie = hospital.cookie;
    const { auth } = await enableTwoFactor(before, hospital.cookie);
    const patient = await addPatient(before.app, hospital.cookie);
    const notYetSignedUp = await addPatient(before.app, hospital.cookie);
    const contents = [
      Buffer.from('%PDF-1.4 small'),
      Buffer.concat([Buffer.from('%PDF-1.4 '), crypto.randomBytes(3 * CHUNK_SIZE + 5)]),
    ];
    contents.push(Buffer.concat([Buffer.from('%PDF-1.4 '), crypto.randomBytes(CHUNK_SIZE)]));
    const upload = async (t: TestApp, bytes: Buffer) => {
      const res = await uploadRecord(t.app, hospital.cookie, patient.id, {
        files: [{ fileName: 'lab.pdf', bytes }],
      });
      expect(res.statusCode).toBe(201);
      urls.push(res.json<{ attachments: { url: string }[] }>().attachments[0].url);
    };
    for (const bytes of contents) await upload(before, bytes);
    await stop(before);

    // Rotated: the new key seals, the old one still opens.
    const rotatedKeys = { fileEncryptionKey: NEW, previousFileEncryptionKeys: [OLD], accountSecretsKey: OLD };
    const rotated = await start(rotatedKeys);
    const fresh = Buffer.concat([Buffer.from('%PDF-1.4 after'), crypto.randomBytes(1000)]);
    await upload(rotated, fresh);
    contents.push(fresh);
    const rows = await rotated.ctx.db.select().from(attachments).orderBy(attachments.createdAt);
    expect(rows.map((r) => r.keyId)).toEqual([idOf(OLD), idOf(OLD), idOf(OLD), idOf(NEW)]);
    const download = async (t: TestApp, i: number) =>
      t.app.inject({ method: 'GET', url: urls[i], headers: { cookie: hospital.cookie } });
    for (let i = 0; i < contents.length; i++)
      expect((await download(rotated, i)).rawPayload.equals(contents[i])).toBe(true);
    expect((await keysAtStart(rotated.ctx.db, rotated.ctx.files)).left).toMatch(/^3 attachment/);

    // migrate-files killed between replacing the second file and switching its row.
    let replaced = 0;
    const dying: FileStore = Object.create(rotated.ctx.files, {
      reseal: {
        value: async (ref: Parameters<FileStore['reseal']>[0]) => {
          const resealed = await rotated.ctx.files.reseal(ref);
          return {
            ...resealed,
            replace: async (tx?: Parameters<typeof resealed.replace>[0]) => {
              await resealed.replace(tx);
              if (++replaced === 2) throw new Killed();
            },
          };
        },
      },
    });
    await expect(migrateFiles(rotated.ctx.db, dying, 1)).rejects.toBeInstanceOf(Killed);
    expect((await keysAtStart(rotated.ctx.db, rotated.ctx.files)).left).toMatch(/^2 attachment/);
    // Every file still reads meanwhile, the one replaced under its old row included.
    for (let i = 0; i < contents.length; i++)
      expect((await download(rotated, i)).rawPayload.equals(contents[i])).toBe(true);

    const resumed = await migrateFiles(rotated.ctx.db, rotated.ctx.files, 1);
    expect(resumed).toMatchObject({ toReseal: 2, resealed: 2, failed: 0, left: 0 });
    expect(await migrateFiles(rotated.ctx.db, rotated.ctx.files)).toMatchObject({ toReseal: 0, left: 0 });
    for (const row of await rotated.ctx.db.select().from(attachments)) {
      expect(row.keyId).toBe(idOf(NEW));
      expect(headerKeyId((await readSealed(rotated.ctx.files, row.storageKey)).subarray(0, 29))).toBe(
        idOf(NEW),
      );
    }
    await stop(rotated);

    // The old key dropped (still the key account secrets are derived from).
    const after = await start({ fileEncryptionKey: NEW, accountSecretsKey: OLD });
    expect(await keysAtStart(after.ctx.db, after.ctx.files)).toEqual({ missing: null, left: null });
    for (let i = 0; i < contents.length; i++) {
      const res = await download(after, i);
      expect(res.statusCode).toBe(200);
      expect(sha(res.rawPayload)).toBe(sha(contents[i]));
    }
    const verified = await verify(after);
    expect(verified.out).toContain('Result: OK');
    expect(verified.code).toBe(0);
    expect(await loginWithCode(after.app, hospital.email, await auth.next())).toBeTruthy();
    expect((await signedInPatient(after.app, notYetSignedUp)).cookie).toBeTruthy();
    await stop(after);
  });

  it('names the key id that is missing: at the start, in a download and in ledger verify', async () => {
    const wrong = await start({ fileEncryptionKey: OTHER, accountSecretsKey: OLD });
    const missing = (await keysAtStart(wrong.ctx.db, wrong.ctx.files)).missing;
    expect(missing).toContain(`${idOf(NEW)} (4 file(s))`);
    expect(missing).toContain('FILE_ENCRYPTION_PREVIOUS_KEYS');

    const [row] = await wrong.ctx.db.select().from(attachments).limit(1);
    expect(await wrong.ctx.files.hashStored(row)).toEqual({
      ok: false,
      reason: 'key-missing',
      keyId: idOf(NEW),
    });
    const res = await wrong.app.inject({ method: 'GET', url: urls[0], headers: { cookie: hospitalCookie } });
    expect(res.statusCode).toBe(500);
    expect(res.json<{ message: string }>().message).toContain(`sealed with key id ${idOf(NEW)}`);

    const verified = await verify(wrong);
    expect(verified.code).not.toBe(0);
    expect(verified.out).toContain(`is sealed with key id ${idOf(NEW)}`);
    expect(verified.out).not.toContain('altered on disk');
    await stop(wrong);
  });
});
