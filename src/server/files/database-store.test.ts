// Attachments in the database (files/database-store.ts) beyond what the parametrised stream and
// download tests cover: the start-up sweep of rows, and `npm run ledger -- migrate-files` copying
// the files of DATA_DIR into the database. On PGlite here, on PostgreSQL with test:pg.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, pendingUploads } from '../db/schema.js';
import { copyLeftoverFilesAtStart, runMigrateFiles } from '../features/records/migrate-files.js';
import { samplePdf, uploadRecord } from '../features/records/testing.js';
import { addPatient, createTestApp, signedInHospital, type TestApp } from '../test/helpers.js';
import { DatabaseStore } from './backends/database.js';
import { onDisk, writeLegacyFile } from './testing.js';

const KEY = 'ef'.repeat(32);
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
async function readAll(stream: Readable | null) {
  const parts: Buffer[] = [];
  for await (const part of stream!) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('the start-up sweep of rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ fileEncryptionKey: KEY, attachmentStore: 'database' });
  });
  afterAll(async () => t?.close());

  it('keeps uploads in flight and committed attachments, removes rows nobody claims', async () => {
    const h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie);
    expect((await uploadRecord(t.app, h.cookie, patient.id)).statusCode).toBe(201);
    const bytes = samplePdf('in flight');
    const inFlight = await t.ctx.files.write(Readable.from([bytes]), 1024 * 1024);
    const orphan = await t.ctx.files.write(Readable.from([bytes]), 1024 * 1024);
    await t.ctx.db.delete(pendingUploads).where(eq(pendingUploads.storageKey, orphan.storageKey));

    expect(await t.ctx.files.sweepUnfinished(t.ctx.db, 0, new Date())).toBe(1);
    expect(await t.ctx.files.open(orphan)).toBeNull();
    expect((await readAll(await t.ctx.files.open(inFlight))).equals(bytes)).toBe(true);
    const [row] = await t.ctx.db.select().from(attachments);
    expect(await t.ctx.files.hashStored(row)).toEqual({ ok: true, sha256: row.sha256 });
    // Given up: its rows and its reservation go.
    await inFlight.discard();
    expect(await t.ctx.files.open(inFlight)).toBeNull();
    expect(await t.ctx.db.select().from(pendingUploads)).toEqual([]);
  });
});

describe('npm run ledger -- migrate-files with attachments in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Attachments on disk first, as an installation that switches to the database store has them.
    t = await createTestApp({ fileEncryptionKey: KEY, attachmentStore: 'directory' });
  });
  afterAll(async () => t?.close());

  it('copies every file into the database, old-format ones sealed anew, and says which it could not', async () => {
    const h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie);
    const contents = ['stream', 'legacy', 'missing'].map((name) =>
      Buffer.concat([samplePdf(name), crypto.randomBytes(150_000)]),
    );
    for (const [i, bytes] of contents.entries())
      expect(
        (await uploadRecord(t.app, h.cookie, patient.id, { files: [{ fileName: `f${i}.pdf`, bytes }] }))
          .statusCode,
      ).toBe(201);
    const rows = await Promise.all(
      contents.map(
        async (bytes) =>
          (
            await t.ctx.db
              .select()
              .from(attachments)
              .where(eq(attachments.sha256, sha(bytes)))
          )[0],
      ),
    );
    const disk = onDisk(t.ctx.files);
    const legacy = writeLegacyFile(disk, KEY, rows[1].storageKey, contents[1]);
    await t.ctx.db.update(attachments).set(legacy).where(eq(attachments.id, rows[1].id));
    fs.rmSync(disk.pathFor(rows[2].storageKey));

    const target = new DatabaseStore(t.ctx.db, t.config.dataDir, KEY);
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(await runMigrateFiles(t.ctx.db, target, io, disk)).toBe(1);
    expect(out).toContain('Attachments not yet in the database: 3');
    expect(out).toContain(`Copied from ${disk.dir}: 2`);
    expect(out.join('\n')).toMatch(/missing from DATA_DIR\/attachments/);

    for (const i of [0, 1]) {
      const [row] = await t.ctx.db.select().from(attachments).where(eq(attachments.id, rows[i].id));
      expect(row.format).toBe('stream1');
      expect((await readAll(await target.open(row))).equals(contents[i])).toBe(true);
      expect(await target.hashStored(row)).toEqual({ ok: true, sha256: sha(contents[i]) });
    }
    // Again: only the missing one is left, and nothing is copied twice.
    out.length = 0;
    expect(await runMigrateFiles(t.ctx.db, target, io, disk)).toBe(1);
    expect(out).toContain('Attachments not yet in the database: 1');
  });
});

describe('the start-up copy into the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ fileEncryptionKey: KEY, attachmentStore: 'directory' });
  });
  afterAll(async () => t?.close());

  it('copies files left in DATA_DIR once the store is the database, and does nothing without them', async () => {
    const disk = onDisk(t.ctx.files);
    const target = new DatabaseStore(t.ctx.db, t.config.dataDir, KEY);
    // Nothing on disk yet: no copy at all, and none for a directory store.
    expect(await copyLeftoverFilesAtStart(t.ctx.db, target, disk)).toBeNull();
    const h = await signedInHospital(t.app);
    const patient = await addPatient(t.app, h.cookie);
    const bytes = Buffer.concat([samplePdf('left on disk'), crypto.randomBytes(70_000)]);
    await uploadRecord(t.app, h.cookie, patient.id, { files: [{ fileName: 'disk.pdf', bytes }] });
    expect(await copyLeftoverFilesAtStart(t.ctx.db, disk, disk)).toBeNull();

    expect(await copyLeftoverFilesAtStart(t.ctx.db, target, disk)).toMatchObject({ missing: 1, copied: 1 });
    const [row] = await t.ctx.db
      .select()
      .from(attachments)
      .where(eq(attachments.sha256, sha(bytes)));
    expect((await readAll(await target.open(row))).equals(bytes)).toBe(true);
    // The next start finds everything copied.
    expect(await copyLeftoverFilesAtStart(t.ctx.db, target, disk)).toMatchObject({ missing: 0, copied: 0 });
  });
});
