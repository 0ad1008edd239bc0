// GET /api/download/{fileName} over a real socket, with attachments on disk and in the database
// (the same tests, parametrised): a changed attachment is broken off before its first damaged
// chunk and audited as integrity_failure; Range answers 206/416; on disk, a file in the old
// single-GCM format still downloads, and `npm run ledger -- migrate-files` converts it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachments } from '../../db/schema.js';
import { CHUNK_SIZE, MAGIC, sealedSize } from '../../files/formats/chunked.js';
import {
  onDisk,
  readSealed,
  sealedChunk,
  STORES,
  swapChunks,
  writeLegacyFile,
  writeSealed,
} from '../../files/testing.js';
import {
  addPatient,
  auditRows,
  call,
  createTestApp,
  signedInHospital,
  signedInPatient,
  type TestApp,
} from '../../test/helpers.js';
import { parseLedgerArgs } from '../ledger/command.js';
import { parseRange } from './download.js';
import { runMigrateFiles } from './migrate-files.js';
import { samplePdf, uploadRecord } from './testing.js';

const KEY = 'cd'.repeat(32);
let t: TestApp;
let base: string;
let h: { cookie: string; userId: string };
let patientAccount: { cookie: string; userId: string };

function pattern(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += 32) crypto.createHash('sha256').update(`p${i}`).digest().copy(out, i);
  return out;
}
/** A PDF (by its signature) of exactly `size` bytes whose bytes differ at every position. */
function pdfOf(size: number): Buffer {
  const head = samplePdf('chunks');
  return Buffer.concat([head, pattern(size - head.length)]);
}

interface Upload {
  recordId: string;
  attachmentId: string;
  storageKey: string;
  url: string;
  plain: Buffer;
  sealed: Buffer;
}
async function upload(plain: Buffer): Promise<Upload> {
  const res = await uploadRecord(t.app, h.cookie, patientId, {
    files: [{ fileName: 'lab.pdf', bytes: plain }],
  });
  expect(res.statusCode).toBe(201);
  const record = res.json();
  const [row] = await t.ctx.db.select().from(attachments).where(eq(attachments.recordId, record.id));
  return {
    recordId: record.id,
    attachmentId: row.id,
    storageKey: row.storageKey,
    url: record.attachments[0].url,
    plain,
    sealed: await readSealed(t.ctx.files, row.storageKey),
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Whether the whole message arrived (false when the server broke the connection off). */
  complete: boolean;
}
function download(url: string, headers: Record<string, string> = {}, cookie = h.cookie): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { headers: { cookie, ...headers }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', () => {}); // "aborted": seen through `complete`
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts),
          complete: res.complete,
        }),
      );
    });
    req.on('error', reject);
  });
}

const integrityAudits = (attachmentId: string) =>
  auditRows(t, { action: 'integrity_failure', entityId: attachmentId });

/**
 * The answer is not the file: either broken off after at most the chunks before `chunk` (all of
 * them intact), or (when the first chunk is the bad one and nothing was sent yet) a 500 in JSON
 * that says so. Either way no byte of the bad chunk arrives, and the failure is audited.
 */
async function expectBrokenOff(file: Upload, res: Answer, chunk: number, auditsBefore: number) {
  if (res.status === 200) {
    expect(res.complete).toBe(false);
    expect(res.body.length).toBeLessThan(file.plain.length);
    expect(res.body.length).toBeLessThanOrEqual(chunk * CHUNK_SIZE);
    expect(res.body.equals(file.plain.subarray(0, res.body.length))).toBe(true);
  } else {
    expect(chunk).toBe(0);
    expect(res.status).toBe(500);
    expect(res.complete).toBe(true);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body.toString()).message).toBe(
      'This file failed its integrity check: it may have been altered since it was uploaded, so it is not sent.',
    );
    expect(res.headers['content-disposition']).toBeUndefined();
  }
  await vi.waitFor(async () =>
    expect((await integrityAudits(file.attachmentId)).length).toBe(auditsBefore + 1),
  );
  const audits = await integrityAudits(file.attachmentId);
  expect(audits.at(-1)).toMatchObject({
    userId: h.userId,
    entityType: 'attachment',
    hospitalId: h.userId,
    patientId,
  });
  expect(audits.at(-1)?.details).toContain(`at chunk ${chunk}`);
}

let patientId: string;
/** Replaces the stored bytes of `file` (the file on disk, or its rows). */
const store = (file: Upload, bytes: Buffer) => writeSealed(t.ctx.files, file.storageKey, bytes);

describe.each(STORES)('attachments in the %s', (kind) => {
  beforeAll(async () => {
    t = await createTestApp({ fileEncryptionKey: KEY, attachmentStore: kind });
    h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie, { firstName: 'Rosalind', lastName: 'Franklin' });
    patientId = patient.id;
    patientAccount = await signedInPatient(t.app, patient.patientId);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  describe('downloading a changed attachment over a real socket', () => {
    let file: Upload;
    beforeAll(async () => {
      file = await upload(pdfOf(3 * CHUNK_SIZE)); // three full chunks
    });
    beforeEach(() => store(file, file.sealed));

    it('sends an intact file whole, with its length', async () => {
      const res = await download(file.url);
      expect(res.status).toBe(200);
      expect(res.complete).toBe(true);
      expect(res.headers['content-length']).toBe(String(file.plain.length));
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.body.equals(file.plain)).toBe(true);
      expect(file.sealed.length).toBe(sealedSize(file.plain.length));
    });

    async function damagedDownload(change: (b: Buffer) => Buffer, chunk: number) {
      const before = (await integrityAudits(file.attachmentId)).length;
      await store(file, change(Buffer.from(file.sealed)));
      await expectBrokenOff(file, await download(file.url), chunk, before);
    }

    it('a byte flipped in chunk 2: at most chunk 1 arrives, then the connection is broken off', async () => {
      await damagedDownload((b) => {
        b[sealedChunk(1, b.length).start + 1000] ^= 0x01;
        return b;
      }, 1);
    });

    it('the last chunk cut short', async () => {
      await damagedDownload((b) => b.subarray(0, b.length - 100), 2);
    });

    it('the last chunk dropped (cut at a chunk boundary)', async () => {
      await damagedDownload((b) => b.subarray(0, sealedChunk(2, b.length).start), 1);
    });

    it('two chunks swapped', async () => {
      await damagedDownload((b) => swapChunks(b, 1, 2), 1);
    });

    it('garbage appended', async () => {
      await damagedDownload((b) => Buffer.concat([b, crypto.randomBytes(500)]), 2);
    });

    it('the first chunk changed: nothing of the file is sent', async () => {
      await damagedDownload((b) => {
        b[sealedChunk(0, b.length).start] ^= 0x80;
        return b;
      }, 0);
    });

    it.runIf(kind === 'database')(
      'a row changed, dropped or moved in the database: refused at that chunk',
      async () => {
        const audits = async () => (await integrityAudits(file.attachmentId)).length;
        let before = await audits();
        await t.ctx.db.execute(
          sql`update attachment_chunks set bytes = set_byte(bytes, 1000, get_byte(bytes, 1000) # 1) where storage_key = ${file.storageKey} and idx = 1`,
        );
        await expectBrokenOff(file, await download(file.url), 1, before);
        await store(file, file.sealed);
        before = await audits();
        await t.ctx.db.execute(
          sql`delete from attachment_chunks where storage_key = ${file.storageKey} and idx = 1`,
        );
        await expectBrokenOff(file, await download(file.url), 1, before);
        await store(file, file.sealed);
        before = await audits();
        // Rows 1 and 2 swap places (through a spare index: the primary key is checked per row).
        for (const [from, to] of [
          [1, 100],
          [2, 1],
          [100, 2],
        ])
          await t.ctx.db.execute(
            sql`update attachment_chunks set idx = ${to} where storage_key = ${file.storageKey} and idx = ${from}`,
          );
        await expectBrokenOff(file, await download(file.url), 1, before);
      },
    );

    it('a large file changed far in: the answer has started (200) and is broken off', async () => {
      const big = await upload(pdfOf(24 * CHUNK_SIZE + 10));
      const bytes = Buffer.from(big.sealed);
      bytes[sealedChunk(20, bytes.length).start + 3] ^= 0x04;
      await store(big, bytes);
      const res = await download(big.url);
      expect(res.status).toBe(200);
      expect(res.complete).toBe(false);
      await expectBrokenOff(big, res, 20, 0);
    });

    it('the record then shows as not verified on its own view, and verified again once the file is restored', async () => {
      await store(file, Buffer.concat([file.sealed, Buffer.from('x')]));
      const view = await call(t.app, 'GET', `/api/medical-records/record/${file.recordId}`, h.cookie);
      expect(view.statusCode).toBe(200);
      expect(view.json().isBlockchainVerified).toBe(false);
      await store(file, file.sealed);
      const again = await call(
        t.app,
        'GET',
        `/api/medical-records/record/${file.recordId}`,
        patientAccount.cookie,
      );
      expect(again.json().isBlockchainVerified).toBe(true);
    });
  });

  describe('ranges', () => {
    let file: Upload;
    beforeAll(async () => {
      file = await upload(pdfOf(3 * CHUNK_SIZE + 777));
    });
    beforeEach(() => store(file, file.sealed));
    const size = () => file.plain.length;

    it('answers 206 with exactly the bytes asked for', async () => {
      for (const [header, start, end] of [
        ['bytes=65530-65545', 65530, 65545],
        ['bytes=0-0', 0, 0],
        ['bytes=131072-', 131072, size() - 1],
        ['bytes=-10', size() - 10, size() - 1],
        ['bytes=100-99999999', 100, size() - 1],
      ] as const) {
        const res = await download(file.url, { range: header });
        expect(res.status, header).toBe(206);
        expect(res.complete).toBe(true);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size()}`);
        expect(res.headers['content-length']).toBe(String(end - start + 1));
        expect(res.headers['accept-ranges']).toBe('bytes');
        expect(res.body.equals(file.plain.subarray(start, end + 1)), header).toBe(true);
      }
    });

    it('answers 416 outside the file, and the whole file for ranges it does not serve', async () => {
      const outside = await download(file.url, { range: `bytes=${size()}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${size()}`);
      expect(JSON.parse(outside.body.toString()).message).toMatch(/outside the file/);
      for (const header of ['bytes=5-1', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-']) {
        const res = await download(file.url, { range: header });
        expect(res.status, header).toBe(200);
        expect(res.body.equals(file.plain)).toBe(true);
      }
    });

    it('reads only the chunks it needs: a damaged chunk elsewhere does not matter, one inside breaks it off', async () => {
      const bytes = Buffer.from(file.sealed);
      bytes[sealedChunk(2, bytes.length).start + 50] ^= 0x10;
      await store(file, bytes);
      const first = await download(file.url, { range: 'bytes=10-65600' });
      expect(first.status).toBe(206);
      expect(first.body.equals(file.plain.subarray(10, 65601))).toBe(true);
      const before = (await integrityAudits(file.attachmentId)).length;
      const res = await download(file.url, { range: `bytes=${CHUNK_SIZE + 5}-${3 * CHUNK_SIZE}` });
      expect(res.complete === false || res.status === 500).toBe(true);
      if (res.status === 206) {
        expect(res.body.length).toBeLessThanOrEqual(CHUNK_SIZE - 5);
        expect(res.body.equals(file.plain.subarray(CHUNK_SIZE + 5, CHUNK_SIZE + 5 + res.body.length))).toBe(
          true,
        );
      }
      await vi.waitFor(async () =>
        expect((await integrityAudits(file.attachmentId)).length).toBe(before + 1),
      );
    });

    it('parses Range as RFC 9110 says', () => {
      expect(parseRange(undefined, 10)).toBeNull();
      expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
      expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
      expect(parseRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 });
      expect(parseRange(' bytes = 2 - 3 ', 10)).toEqual({ start: 2, end: 3 });
      expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    });
  });

  describe.runIf(kind === 'directory')('files in the old single-GCM format', () => {
    const pathOf = (file: Upload) => onDisk(t.ctx.files).pathFor(file.storageKey);
    async function makeLegacy(file: Upload) {
      const legacy = writeLegacyFile(onDisk(t.ctx.files), KEY, file.storageKey, file.plain);
      await t.ctx.db.update(attachments).set(legacy).where(eq(attachments.id, file.attachmentId));
    }
    async function migrate() {
      const parsed = parseLedgerArgs(['migrate-files']);
      expect(parsed).toEqual({ command: 'migrate-files' });
      const out: string[] = [];
      const code = await runMigrateFiles(t.ctx.db, t.ctx.files, {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
      });
      return { code, out: out.join('\n') };
    }
    const formatOf = async (file: Upload) =>
      (await t.ctx.db.select().from(attachments).where(eq(attachments.id, file.attachmentId)))[0];

    it('still download whole (Range is ignored for them), and migrate-files converts them byte for byte', async () => {
      // Rows the earlier tests left are already chunked; make two old-format files, one damaged.
      const file = await upload(pdfOf(2 * CHUNK_SIZE + 4321));
      const damaged = await upload(pdfOf(CHUNK_SIZE + 1));
      await makeLegacy(file);
      await makeLegacy(damaged);
      const damagedBytes = fs.readFileSync(pathOf(damaged));
      damagedBytes[10] ^= 1;
      fs.writeFileSync(pathOf(damaged), damagedBytes);

      const whole = await download(file.url, { range: 'bytes=0-9' });
      expect(whole.status).toBe(200);
      expect(whole.complete).toBe(true);
      expect(whole.headers['accept-ranges']).toBe('none');
      expect(whole.body.equals(file.plain)).toBe(true);

      const first = await migrate();
      expect(first.code).toBe(1);
      expect(first.out).toContain('Attachments to reseal under it: 2 (in the old single-GCM format: 2)');
      expect(first.out).toContain('Resealed: 1');
      expect(first.out).toContain('Failed: 1');
      expect(first.out).toMatch(/fails its integrity check/);
      const row = await formatOf(file);
      expect(row).toMatchObject({
        format: 'stream1',
        iv: '',
        authTag: '',
        sha256: crypto.createHash('sha256').update(file.plain).digest('hex'),
      });
      const onDisk = fs.readFileSync(pathOf(file));
      expect(onDisk.subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);
      expect(onDisk.length).toBe(sealedSize(file.plain.length));
      // The damaged file is left exactly as it was, still in the old format.
      expect((await formatOf(damaged)).format).toBe('gcm');
      expect(fs.readFileSync(pathOf(damaged)).equals(damagedBytes)).toBe(true);

      const after = await download(file.url);
      expect(after.status).toBe(200);
      expect(after.complete).toBe(true);
      expect(after.body.equals(file.plain)).toBe(true);
      const part = await download(file.url, { range: 'bytes=70000-70009' });
      expect(part.status).toBe(206);
      expect(part.body.equals(file.plain.subarray(70000, 70010))).toBe(true);
      // The ledger still matches: the plaintext, and so its SHA-256, did not change.
      const verification = await call(
        t.app,
        'GET',
        `/api/medical-records/${file.recordId}/verification`,
        h.cookie,
      );
      expect(verification.json()).toMatchObject({ verified: true });

      // Again: nothing left to convert but the damaged file.
      fs.rmSync(pathOf(damaged));
      const second = await migrate();
      expect(second.out).toContain('Attachments to reseal under it: 1 (in the old single-GCM format: 1)');
      expect(second.out).toContain('Resealed: 0');
      expect(second.out).toMatch(/missing from storage/);
      await t.ctx.db
        .delete(attachments)
        .where(eq(attachments.id, damaged.attachmentId))
        .catch(() => undefined);
    });

    it('completes a conversion stopped between the rename and the commit', async () => {
      const file = await upload(pdfOf(CHUNK_SIZE * 2));
      // The new file is in place but the row still says "gcm" (as a crash would leave it).
      await t.ctx.db
        .update(attachments)
        .set({ format: 'gcm', iv: '00'.repeat(12), authTag: '00'.repeat(16) })
        .where(eq(attachments.id, file.attachmentId));
      const { out } = await migrate();
      expect(out).toMatch(/Completed \(resealed by a run that was stopped\): 1/);
      expect((await formatOf(file)).format).toBe('stream1');
      expect((await download(file.url)).body.equals(file.plain)).toBe(true);
    });
  });
});
