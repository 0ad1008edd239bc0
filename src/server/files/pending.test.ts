// Uploads in flight are reserved in the database, so the start-up sweep of another process that
// shares DATA_DIR leaves them alone even with no grace period at all; leftovers of a process that
// died (reservation expired or never made) go. On PGlite here, on PostgreSQL with test:pg.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, pendingUploads } from '../db/schema.js';
import { uploadRecord } from '../features/records/testing.js';
import { addPatient, createTestApp, signedInHospital, type TestApp } from '../test/helpers.js';
import { onDisk } from './testing.js';
import {
  dropStaleReservations,
  PENDING_UPLOAD_TTL_MS,
  protectedKeys,
  releaseInTransaction,
} from './pending.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const pdf = () => Readable.from([Buffer.from('%PDF-1.7 in flight\n'.repeat(200))]);
const reserved = async (key: string) =>
  (await t.ctx.db.select().from(pendingUploads).where(eq(pendingUploads.storageKey, key))).length === 1;
/** The sweep another process would run at its start, with no grace period. */
const sweepNow = (now = new Date()) =>
  onDisk(t.ctx.files).sweep(protectedKeys(t.ctx.db, now), 0, now.getTime() + 1);

describe('reserved uploads and the start-up sweep', () => {
  it("never removes another process's upload in flight, streaming or renamed into place", async () => {
    const streaming = await t.ctx.files.write(pdf(), 1024 * 1024); // still a .part
    const renamed = await t.ctx.files.write(pdf(), 1024 * 1024);
    await renamed.commit(); // in place, its transaction not yet committed
    expect(await reserved(streaming.storageKey)).toBe(true);
    expect(await reserved(renamed.storageKey)).toBe(true);

    expect(await sweepNow()).toBe(0);
    expect(fs.readdirSync(onDisk(t.ctx.files).tmpDir)).toContain(`${streaming.storageKey}.part`);
    expect(await t.ctx.files.open(renamed)).not.toBeNull();

    // Given up: the file and its reservation both go.
    await streaming.discard();
    await renamed.discard();
    expect(await reserved(streaming.storageKey)).toBe(false);
    expect(await reserved(renamed.storageKey)).toBe(false);
  });

  it("ends the reservation in the record's own transaction; the committed file stays", async () => {
    const hospital = await signedInHospital(t.app);
    const patient = await addPatient(t.app, hospital.cookie);
    await uploadRecord(t.app, hospital.cookie, patient.id);
    const stored = fs.readdirSync(onDisk(t.ctx.files).dir).filter((n) => n !== '.tmp');
    expect(stored.length).toBeGreaterThan(0);
    expect(await t.ctx.db.select().from(pendingUploads)).toEqual([]);
    expect(await sweepNow()).toBe(0);
    expect(fs.readdirSync(onDisk(t.ctx.files).dir).filter((n) => n !== '.tmp')).toEqual(stored);
  });

  it('never gives up a file whose record committed though its answer was lost', async () => {
    const hospital = await signedInHospital(t.app);
    const patient = await addPatient(t.app, hospital.cookie);
    const record = (await uploadRecord(t.app, hospital.cookie, patient.id)).json<{ id: string }>();
    const file = await t.ctx.files.write(pdf(), 1024 * 1024);
    await file.commit();
    // The record's transaction commits (attachment row, reservation ended), but the connection is
    // lost with the COMMIT's answer: the upload code sees a failure and gives the file up.
    await t.ctx.db.transaction(async (tx) => {
      await tx.insert(attachments).values({
        recordId: record.id,
        storageKey: file.storageKey,
        fileName: 'late.pdf',
        mimeType: 'application/pdf',
        size: file.size,
        sha256: file.sha256,
        format: file.format,
        iv: '',
        authTag: '',
        position: 1,
      });
      await releaseInTransaction(tx, [file.storageKey]);
    });
    await file.discard();
    expect(await t.ctx.files.hashStored(file)).toEqual({ ok: true, sha256: file.sha256 });
  });

  it('removes the leftovers of a process that died: unreserved files, and expired reservations', async () => {
    // A file with no reservation and no attachment (written before reservations existed, or by
    // hand) is a leftover once older than the grace period, which is 0 here.
    const orphan = await t.ctx.files.write(pdf(), 1024 * 1024);
    await orphan.commit();
    await t.ctx.db.delete(pendingUploads).where(eq(pendingUploads.storageKey, orphan.storageKey));
    // A process died mid-upload long ago: its reservation outlived the time-to-live.
    const abandoned = await t.ctx.files.write(pdf(), 1024 * 1024);
    const later = new Date(Date.now() + PENDING_UPLOAD_TTL_MS + 60_000);

    expect(await sweepNow()).toBe(1); // only the orphan: the abandoned one is still reserved
    expect(await t.ctx.files.open(orphan)).toBeNull();
    expect(await sweepNow(later)).toBe(1);
    expect(fs.readdirSync(onDisk(t.ctx.files).tmpDir)).not.toContain(`${abandoned.storageKey}.part`);
    await dropStaleReservations(t.ctx.db, later);
    expect(await reserved(abandoned.storageKey)).toBe(false);
  });
});
