// A full disk for real: DATA_DIR on a small tmpfs of this test's own (mounted as root; the test
// fails, loudly, where it cannot mount one), filled to its last byte. An upload then answers 507
// with a message and leaves no file and no reservation; readiness says storage is full; once room
// is made again, uploads and readiness are back. And the database's own "disk full" (SQLSTATE
// 53100, raised by PostgreSQL itself where a full disk would raise it) is the same 507.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../shared/constants.js';
import { sql } from 'drizzle-orm';
import { attachmentChunks, medicalRecords, pendingUploads } from '../db/schema.js';
import { storedFiles, uploadRecord } from '../features/records/testing.js';
import { addPatient, createTestApp, signedInHospital, type TestApp } from '../test/helpers.js';
import { randomPdf } from '../test/server-process.js';

let mountPoint: string;
let dataDir: string;
let t: TestApp;
let cookie: string;
let patientId: string;

beforeAll(async () => {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-full-disk-'));
  // Room for the key and an empty store, and a little more than one upload at the limit, so that
  // readiness starts "ok".
  const size = `${Math.ceil((MAX_UPLOAD_BYTES * 1.2) / 1024 / 1024)}m`;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', mountPoint], {
      stdio: 'pipe',
    });
  } catch (err) {
    fs.rmdirSync(mountPoint);
    const reason = (err as { stderr?: Buffer }).stderr?.toString() || (err as Error).message;
    throw new Error(`The full-disk test mounts a small tmpfs and must run as root: ${reason}`, {
      cause: err,
    });
  }
  dataDir = path.join(mountPoint, 'data');
  t = await createTestApp({ dataDir, attachmentStore: 'directory' });
  cookie = (await signedInHospital(t.app)).cookie;
  patientId = (await addPatient(t.app, cookie)).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mountPoint) {
    execFileSync('umount', [mountPoint]);
    fs.rmdirSync(mountPoint);
  }
});

const readiness = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });

/** Writes filler until the file system refuses the next byte. */
function fillDisk(file: string) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // The last partial block: byte by byte, to the very end.
  const tail = fs.openSync(file, 'a');
  try {
    for (;;) fs.writeSync(tail, Buffer.alloc(1));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(tail);
  }
}

describe('a full disk', () => {
  it('answers 507 with a message, keeps nothing of the upload, and readiness says storage is full', async () => {
    expect((await readiness()).json().checks.storage).toBe('ok');
    const uploadFile = () =>
      uploadRecord(t.app, cookie, patientId, {
        files: [{ fileName: 'scan.pdf', bytes: randomPdf(300 * 1024) }],
      });
    const filler = path.join(mountPoint, 'filler');
    fillDisk(filler);

    const res = await uploadFile();
    expect(res.statusCode).toBe(507);
    expect(res.json().message).toMatch(/run out of storage space/);
    expect(res.json().message).not.toMatch(/ENOSPC|went wrong/);
    expect(storedFiles(dataDir)).toEqual([]);
    expect(await t.ctx.db.select().from(pendingUploads)).toEqual([]);
    expect(await t.ctx.db.select().from(medicalRecords)).toEqual([]);

    const full = await readiness();
    expect(full.statusCode).toBe(503);
    expect(full.json()).toMatchObject({
      status: 'not ready',
      checks: { database: 'ok', migrations: 'ok', storage: 'full' },
    });

    // Some room, but less than one file at the limit: still "full" for readiness, while a small
    // upload fits.
    fs.truncateSync(filler, fs.statSync(filler).size - 2 * 1024 * 1024);
    expect((await readiness()).json().checks.storage).toBe('full');
    expect((await uploadFile()).statusCode).toBe(201);

    fs.rmSync(filler);
    expect((await readiness()).json()).toMatchObject({ status: 'ready', checks: { storage: 'ok' } });
    expect((await uploadFile()).statusCode).toBe(201);
  });
});

describe("the database's disk full (SQLSTATE 53100)", () => {
  let db: TestApp;
  beforeAll(async () => {
    db = await createTestApp({ attachmentStore: 'database' });
  });
  afterAll(() => db?.close());

  it('is the same 507 for an upload, leaving nothing, and readiness says storage is full', async () => {
    const hospital = (await signedInHospital(db.app)).cookie;
    const patient = (await addPatient(db.app, hospital)).id;
    // PostgreSQL's own error, raised by the database where a full disk would raise it: on the
    // first stored row of an attachment.
    await db.ctx.db.execute(sql`
      create function pretend_disk_full() returns trigger language plpgsql as $$
      begin
        raise exception 'could not extend file "base/1/2": No space left on device' using errcode = 'disk_full';
      end $$`);
    await db.ctx.db.execute(
      sql`create trigger disk_full before insert on attachment_chunks for each row execute function pretend_disk_full()`,
    );
    const res = await uploadRecord(db.app, hospital, patient, {
      files: [{ fileName: 'scan.pdf', bytes: randomPdf(100 * 1024) }],
    });
    expect(res.statusCode).toBe(507);
    expect(res.json().message).toMatch(/run out of storage space/);
    expect(await db.ctx.db.select().from(pendingUploads)).toEqual([]);
    expect(await db.ctx.db.select().from(attachmentChunks)).toEqual([]);
    expect(await db.ctx.db.select().from(medicalRecords)).toEqual([]);
    const ready = await db.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect([ready.statusCode, ready.json().checks.storage]).toEqual([503, 'full']);

    await db.ctx.db.execute(sql`drop trigger disk_full on attachment_chunks`);
    expect((await db.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});
