import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants.js';
import { ledgerEntries, medicalRecords } from '../../db/schema.js';
import { auditRows, call, useCast } from '../../test/helpers.js';
import { multipartBody, samplePdf, samplePng, storedFiles, uploadRecord } from './testing.js';
import { saveUpload } from './service.js';
import { ledgerContentOf } from '../ledger/testing.js';

const t = useCast({
  options: { now: () => clock },
  patient: { firstName: 'Ada', lastName: 'Lovelace' },
  others: true,
});
let clock = new Date();

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const recordCount = async () => (await t.ctx.db.select().from(medicalRecords)).length;

/** Every refused upload must leave the database and the store as they were. */
let before: { records: number; files: string[] };
beforeEach(async () => {
  before = { records: await recordCount(), files: storedFiles(t.config.dataDir) };
});
async function expectNothingLeft() {
  expect(await recordCount()).toBe(before.records);
  // A refused stream's temporary file is removed as the request ends, which can be a moment after
  // the answer has been sent: wait for it (the invariant is that nothing stays).
  await expect
    .poll(() => storedFiles(t.config.dataDir).sort(), { timeout: 10_000 })
    .toEqual([...before.files].sort());
}

describe('uploading a record', () => {
  it('stores both files encrypted, enters the record in the ledger and audits it', async () => {
    const pdf = samplePdf();
    const png = samplePng();
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: {
        title: 'Chest X-ray',
        description: 'Two views',
        doctorName: 'Dr. Grey',
        department: 'cardiology',
        recordType: 'imaging',
        shareWithFamily: 'true',
      },
      files: [
        { fileName: 'report.pdf', bytes: pdf },
        { fileName: 'C:\\fakepath\\scan.PNG', bytes: png },
      ],
    });
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      title: 'Chest X-ray',
      status: 'final',
      hospitalId: t.hospital.userId,
      fileName: 'report.pdf',
      isBlockchainVerified: true,
      shareWithFamily: true,
      shareWithSpecialists: false,
      providerName: 'General Hospital',
      patient: { id: t.patientRow.id, mrn: t.patientRow.patientId, name: 'Ada Lovelace' },
    });
    expect(
      record.attachments.map((a: { fileName: string; mimeType: string; sha256: string }) => a),
    ).toMatchObject([
      {
        fileName: 'report.pdf',
        mimeType: 'application/pdf',
        sha256: sha(pdf),
        size: pdf.length,
        position: 0,
      },
      { fileName: 'scan.PNG', mimeType: 'image/png', sha256: sha(png), position: 1 },
    ]);
    expect(record.fileUrl).toBe(record.attachments[0].url);
    const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.recordId, record.id));
    expect(entry.hash).toBe(record.blockchainHash);
    expect(JSON.stringify(await ledgerContentOf(t.ctx.db, entry.seq))).toContain(sha(pdf));
    // At rest the bytes are encrypted.
    const key = record.attachments[0].url.split('/').pop();
    const onDisk = fs.readFileSync(path.join(t.config.dataDir, 'attachments', key));
    expect(onDisk.includes(Buffer.from('%PDF'))).toBe(false);
    const [audit] = await auditRows(t, { entityId: record.id, action: 'record_upload' });
    expect(audit).toMatchObject({
      hospitalId: t.hospital.userId,
      patientId: t.patientRow.id,
      blockchainHash: entry.hash,
    });
    expect(audit.ipAddress).toBeTruthy();
  });

  it("ignores the client's hospitalId, isBlockchainVerified and blockchainHash", async () => {
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: {
        hospitalId: t.otherHospital.userId,
        isBlockchainVerified: 'false',
        blockchainHash: 'f'.repeat(64),
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().hospitalId).toBe(t.hospital.userId);
    expect(res.json().blockchainHash).not.toBe('f'.repeat(64));
    expect(res.json().isBlockchainVerified).toBe(true);
  });

  it('accepts a record without files and a file of exactly 25 MB', async () => {
    const none = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { files: [] });
    expect(none.statusCode).toBe(201);
    expect(none.json()).toMatchObject({ fileName: null, fileUrl: null, attachments: [] });
    const big = Buffer.alloc(MAX_UPLOAD_BYTES, 7);
    samplePdf().copy(big);
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      files: [{ fileName: 'big.pdf', bytes: big }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().attachments[0]).toMatchObject({ size: MAX_UPLOAD_BYTES, sha256: sha(big) });
  });
});

describe('refused uploads leave nothing behind', () => {
  it('answers 400 with the spec message when a required field is missing', async () => {
    for (const missing of ['patientId', 'recordType', 'title']) {
      const fields: Record<string, string> = {
        patientId: t.patientRow.id,
        recordType: 'lab-results',
        title: 'T',
      };
      fields[missing] = '';
      const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { fields });
      expect(res.statusCode, missing).toBe(400);
      expect(res.json().message).toBe('Please fill in all required fields.');
    }
    await expectNothingLeft();
  });

  it('answers 413 with a clear message for a file over 25 MB, after a good file was written', async () => {
    const over = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1);
    samplePdf().copy(over);
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      files: [
        { fileName: 'fine.pdf', bytes: samplePdf() },
        { fileName: 'huge.pdf', bytes: over },
      ],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File is too large. The limit is 25 MB per file.');
    await expectNothingLeft();
  });

  it('answers 415 for a type outside the list and for content that is not what its name says, 400 for an empty file', async () => {
    const exe = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      files: [{ fileName: 'tool.exe', bytes: Buffer.from('MZ\x90\x00') }],
    });
    expect(exe.statusCode).toBe(415);
    expect(exe.json().message).toMatch(/Accepted types: PDF, DOCX, JPG, JPEG and PNG/);
    const fake = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      files: [
        { fileName: 'ok.png', bytes: samplePng() },
        { fileName: 'fake.pdf', bytes: samplePng() },
      ],
    });
    expect(fake.statusCode).toBe(415);
    expect(fake.json().message).toBe('"fake.pdf" is named as a PDF file, but its contents are not PDF.');
    const empty = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      files: [{ fileName: 'e.pdf', bytes: Buffer.alloc(0) }],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('"e.pdf" is empty.');
    await expectNothingLeft();
  });

  it('refuses a form whose files come before its fields', async () => {
    const { payload, headers } = multipartBody([
      { name: 'files', fileName: 'a.pdf', bytes: samplePdf() },
      { name: 'patientId', value: t.patientRow.id },
      { name: 'recordType', value: 'lab-results' },
      { name: 'title', value: 'Late fields' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/medical-records',
      headers: { ...headers, cookie: t.hospital.cookie },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please fill in all required fields.');
    const partly = multipartBody([
      { name: 'patientId', value: t.patientRow.id },
      { name: 'recordType', value: 'lab-results' },
      { name: 'title', value: 'Fields' },
      { name: 'files', fileName: 'a.pdf', bytes: samplePdf() },
      { name: 'description', value: 'after the file' },
    ]);
    const res2 = await t.app.inject({
      method: 'POST',
      url: '/api/medical-records',
      headers: { ...partly.headers, cookie: t.hospital.cookie },
      payload: partly.payload,
    });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().message).toBe("Send the record's fields before its files.");
    await expectNothingLeft();
  });

  it('refuses more than 10 files with 413', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ fileName: `f${i}.png`, bytes: samplePng() }));
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { files });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/up to 10 files/);
    await expectNothingLeft();
  });

  it('answers 415 to a JSON body', async () => {
    const res = await call(t.app, 'POST', '/api/medical-records', t.hospital.cookie, {
      patientId: t.patientRow.id,
      recordType: 'lab-results',
      title: 'x',
    });
    expect(res.statusCode).toBe(415);
    await expectNothingLeft();
  });

  it("answers 404 for another hospital's t.patientRow, 403 to a patient and 401 when signed out", async () => {
    const other = t.otherHospital;
    expect((await uploadRecord(t.app, other.cookie, t.patientRow.id)).statusCode).toBe(404);
    expect((await uploadRecord(t.app, other.cookie, 'not-a-uuid')).statusCode).toBe(404);
    expect((await uploadRecord(t.app, t.otherPatient.cookie, t.otherPatientRow.id)).statusCode).toBe(403);
    expect((await uploadRecord(t.app, '', t.patientRow.id)).statusCode).toBe(401);
    await expectNothingLeft();
  });

  it('answers 402 after the trial', async () => {
    clock = new Date(Date.now() + 8 * 86400_000);
    try {
      const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id);
      expect(res.statusCode).toBe(402);
    } finally {
      clock = new Date();
    }
    await expectNothingLeft();
  });

  it('removes the written files when the database transaction fails', async () => {
    const pending = await t.ctx.files.write(Readable.from([samplePdf()]), MAX_UPLOAD_BYTES);
    const fakePatient = { id: crypto.randomUUID() } as never;
    await expect(
      saveUpload(
        t.ctx.db,
        {
          id: t.hospital.userId,
          role: 'hospital',
          ip: '127.0.0.1',
          hospitalId: t.hospital.userId,
          staffRole: 'hospital_admin',
        },
        {
          patientId: 'x',
          recordType: 'lab-results',
          title: 'T',
          consentProvided: true,
          shareWithFamily: false,
          shareWithSpecialists: false,
          draft: false,
        },
        { patient: fakePatient, draft: null, existing: [] },
        [{ pending, fileName: 'a.pdf', mimeType: 'application/pdf' }],
        new Date(),
      ),
    ).rejects.toThrow();
    await expectNothingLeft();
  });

  it('answers 413 over a real socket while the client is still sending', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const over = Buffer.alloc(MAX_UPLOAD_BYTES + 1024 * 1024, 2);
    samplePdf().copy(over);
    const form = new FormData();
    form.append('patientId', t.patientRow.id);
    form.append('recordType', 'lab-results');
    form.append('title', 'Too big');
    form.append('files', new Blob([over]), 'huge.pdf');
    const res = await fetch(`${address}/api/medical-records`, {
      method: 'POST',
      // As the app's own page sends it: state-changing requests must come from PUBLIC_URL.
      headers: { cookie: t.hospital.cookie, origin: new URL(t.config.publicUrl).origin },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/25 MB/);
    await expectNothingLeft();
  });
});
