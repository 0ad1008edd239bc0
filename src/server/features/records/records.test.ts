import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, medicalRecords } from '../../db/schema.js';
import { addPatient, auditRows, call, signedInAdmin, signedInPatient, useCast } from '../../test/helpers.js';
import { samplePdf, samplePng, uploadRecord } from './testing.js';
import { contentDisposition } from './routes.js';

const t = useCast({ patient: { firstName: 'Ada', email: null }, others: true });
let record: { id: string; attachments: { url: string; fileName: string }[]; title: string };
let draft: { id: string; attachments: { url: string }[] };
const pdf = samplePdf('download me');
const png = samplePng();

beforeAll(async () => {
  record = (
    await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'Scan', description: 'Knee' },
      files: [
        { fileName: 'Ünïcode report.pdf', bytes: pdf },
        { fileName: 'photo.png', bytes: png },
      ],
    })
  ).json();
  draft = (
    await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { draft: 'true', title: 'Unfinished' },
    })
  ).json();
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const auditsOf = (action: string, userId: string) => auditRows(t, { action: action, userId: userId });

describe("listing a patient's records", () => {
  it('gives the hospital its records of the patient, drafts included, and audits the read with the IP', async () => {
    const before = (await auditsOf('record_access', t.hospital.userId)).length;
    const res = await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(
      res
        .json()
        .items.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([record.id, draft.id].sort());
    const entries = await auditsOf('record_access', t.hospital.userId);
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({ hospitalId: t.hospital.userId, patientId: t.patientRow.id });
    expect(entries.at(-1)?.ipAddress).toBeTruthy();
  });

  it('gives the patient only final records, by user id, by patient id and without an id', async () => {
    for (const url of [
      `/api/medical-records/${t.patient.userId}`,
      `/api/medical-records/${t.patientRow.id}`,
      '/api/medical-records',
    ]) {
      const res = await get(url, t.patient.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().items.map((r: { id: string }) => r.id)).toEqual([record.id]);
      expect(res.json().total).toBe(1);
    }
    const entries = await auditsOf('record_access', t.patient.userId);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries[0]).toMatchObject({ hospitalId: t.hospital.userId, patientId: t.patientRow.id });
  });

  it('answers 404 to another hospital and another patient, 403 to an administrator, 401 signed out', async () => {
    expect((await get(`/api/medical-records/${t.patientRow.id}`, t.otherHospital.cookie)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/medical-records/${t.patientRow.id}`, t.otherPatient.cookie)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/medical-records/${t.patient.userId}`, t.otherPatient.cookie)).statusCode).toBe(
      404,
    );
    expect((await get('/api/medical-records/nope', t.hospital.cookie)).statusCode).toBe(404);
    const admin = await signedInAdmin(t);
    expect((await get(`/api/medical-records/${t.patientRow.id}`, admin.cookie)).statusCode).toBe(403);
    expect((await get('/api/medical-records', t.hospital.cookie)).statusCode).toBe(403);
    expect((await get('/api/medical-records/drafts', t.patient.cookie)).statusCode).toBe(403);
    expect((await get(`/api/medical-records/${t.patientRow.id}`)).statusCode).toBe(401);
    expect((await get('/api/medical-records')).statusCode).toBe(401);
  });

  it('reports a record as not verified once its row was changed behind the application', async () => {
    const made = (
      await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { fields: { title: 'Original' } })
    ).json();
    expect(made.isBlockchainVerified).toBe(true);
    // Listed once while intact, so a remembered answer would be there to (wrongly) reuse.
    const before = (await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie)).json().items;
    expect(before.find((r: { id: string }) => r.id === made.id).isBlockchainVerified).toBe(true);
    await t.ctx.db.update(medicalRecords).set({ title: 'Forged' }).where(eq(medicalRecords.id, made.id));
    const listed = (await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie)).json().items;
    expect(listed.find((r: { id: string }) => r.id === made.id).isBlockchainVerified).toBe(false);
    await t.ctx.db.update(medicalRecords).set({ title: 'Original' }).where(eq(medicalRecords.id, made.id));
    const back = (await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie)).json().items;
    expect(back.find((r: { id: string }) => r.id === made.id).isBlockchainVerified).toBe(true);
  });
});

describe('viewing one record', () => {
  it('audits the view as record_view and marks a patient’s first view', async () => {
    const res = await get(`/api/medical-records/record/${record.id}`, t.patient.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: record.id,
      viewedByPatient: true,
      providerName: 'General Hospital',
    });
    const views = await auditsOf('record_view', t.patient.userId);
    expect(views[0]).toMatchObject({
      entityId: record.id,
      hospitalId: t.hospital.userId,
      patientId: t.patientRow.id,
    });
    const hospitalView = await get(`/api/medical-records/record/${record.id}`, t.hospital.cookie);
    expect(hospitalView.statusCode).toBe(200);
    expect((await auditsOf('record_view', t.hospital.userId))[0].entityId).toBe(record.id);
  });

  it('answers 404 to another hospital, another patient and for a draft to the patient', async () => {
    expect((await get(`/api/medical-records/record/${record.id}`, t.otherHospital.cookie)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/medical-records/record/${record.id}`, t.otherPatient.cookie)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/medical-records/record/${draft.id}`, t.patient.cookie)).statusCode).toBe(404);
    expect(
      (await get(`/api/medical-records/record/${crypto.randomUUID()}`, t.hospital.cookie)).statusCode,
    ).toBe(404);
  });
});

describe('sharing switches', () => {
  it('saves the switches as a ledgered, audited consent change', async () => {
    const res = await call(t.app, 'PUT', `/api/medical-records/${record.id}/sharing`, t.patient.cookie, {
      shareWithSpecialists: true,
      shareWithFamily: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      shareWithSpecialists: true,
      shareWithFamily: true,
      isBlockchainVerified: true,
    });
    const [entry] = await auditsOf('consent_change', t.patient.userId);
    expect(entry.blockchainHash).toMatch(/^[0-9a-f]{64}$/);
    const ledger = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.hash, entry.blockchainHash!));
    expect(ledger[0].kind).toBe('consent_change');
    const refused = await call(
      t.app,
      'PUT',
      `/api/medical-records/${record.id}/sharing`,
      t.otherHospital.cookie,
      { shareWithSpecialists: false, shareWithFamily: false },
    );
    expect(refused.statusCode).toBe(404);
    const bad = await call(t.app, 'PUT', `/api/medical-records/${record.id}/sharing`, t.hospital.cookie, {
      shareWithSpecialists: 'yes',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('downloading an attachment', () => {
  it('serves the same bytes with the original name and type to the hospital and to the patient, audited', async () => {
    for (const who of [t.hospital, t.patient]) {
      const res = await get(record.attachments[0].url, who.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(pdf)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(contentDisposition('Ünïcode report.pdf'));
      expect(res.headers['cache-control']).toBe('private, no-store');
      const downloads = await auditsOf('record_download', who.userId);
      expect(downloads.at(-1)?.entityType).toBe('attachment');
      expect(downloads.at(-1)).toMatchObject({ hospitalId: t.hospital.userId, patientId: t.patientRow.id });
      expect(downloads.at(-1)?.details).toContain('Ünïcode report.pdf');
    }
    const image = await get(record.attachments[1].url, t.patient.cookie);
    expect(image.rawPayload.equals(png)).toBe(true);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('answers 404 to another hospital and another patient, 403 to an administrator, 401 signed out', async () => {
    const url = record.attachments[0].url;
    expect((await get(url, t.otherHospital.cookie)).statusCode).toBe(404);
    expect((await get(url, t.otherPatient.cookie)).statusCode).toBe(404);
    expect((await get(draft.attachments[0].url, t.patient.cookie)).statusCode).toBe(404);
    expect((await get(url, (await signedInAdmin(t)).cookie)).statusCode).toBe(403);
    expect((await get(url)).statusCode).toBe(401);
  });

  it('refuses path traversal and names that are not opaque ids', async () => {
    for (const name of [
      '..%2F..%2Fetc%2Fpasswd',
      '..%252F..%252Fetc%252Fpasswd',
      '%2E%2E%2F%2E%2E%2Fsecrets%2Ffile.key',
      'file.key',
    ]) {
      const res = await get(`/api/download/${name}`, t.hospital.cookie);
      expect(res.statusCode, name).toBe(404);
      expect(res.body).not.toContain('root:');
    }
    expect((await get('/api/download/../../etc/passwd', t.hospital.cookie)).statusCode).toBe(404);
  });

  it('answers 404 when the file is gone from the store', async () => {
    const made = (await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id)).json();
    const key = made.attachments[0].url.split('/').pop();
    fs.rmSync(path.join(t.config.dataDir, 'attachments', key));
    const res = await get(made.attachments[0].url, t.hospital.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('File not available.');
  });
});

describe('after the hospital deletes the patient', () => {
  it("keeps the patient's own access to records and files while the hospital loses it", async () => {
    const p = await addPatient(t.app, t.hospital.cookie, { firstName: 'Leaving' });
    const acc = await signedInPatient(t.app, p.patientId);
    const made = (await uploadRecord(t.app, t.hospital.cookie, p.id)).json();
    const del = await call(t.app, 'DELETE', `/api/patients/${p.id}`, t.hospital.cookie);
    expect(del.statusCode).toBe(200);
    expect((await get(`/api/medical-records/${p.id}`, t.hospital.cookie)).statusCode).toBe(404);
    expect((await get(made.attachments[0].url, t.hospital.cookie)).statusCode).toBe(404);
    const own = await get('/api/medical-records', acc.cookie);
    expect(own.json().items.map((r: { id: string }) => r.id)).toEqual([made.id]);
    expect(own.json().items[0].isBlockchainVerified).toBe(true);
    const file = await get(made.attachments[0].url, acc.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(samplePdf())).toBe(true);
  });
});

describe('Content-Disposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('a "b".pdf')).toBe(
      `attachment; filename="a _b_.pdf"; filename*=UTF-8''a%20%22b%22.pdf`,
    );
    expect(contentDisposition('ö.png')).toBe(`attachment; filename="_.png"; filename*=UTF-8''%C3%B6.png`);
  });
});

describe('file names from the client', () => {
  it('keep only the last path segment, without control characters', async () => {
    const { cleanFileName } = await import('./upload.js');
    expect(cleanFileName('C:\\fakepath\\scan.png')).toBe('scan.png');
    expect(cleanFileName('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(cleanFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    expect(cleanFileName(`${'x'.repeat(300)}.pdf`)).toHaveLength(200);
    expect(cleanFileName(`${'x'.repeat(300)}.pdf`).endsWith('.pdf')).toBe(true);
  });
});
