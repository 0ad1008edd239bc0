import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants.js';
import { attachments, ledgerEntries } from '../../db/schema.js';
import { addPatient, auditRows, call, signedInPatient, useCast } from '../../test/helpers.js';
import { prepareUpload, saveUpload } from './service.js';
import { onDisk } from '../../files/testing.js';
import { samplePng, uploadRecord } from './testing.js';

const t = useCast({ patient: { firstName: 'Ada', lastName: 'Lovelace' } });

describe('drafts', () => {
  it('keeps a draft for the hospital only, unledgered, until it is uploaded', async () => {
    const own = await addPatient(t.app, t.hospital.cookie);
    const p = await signedInPatient(t.app, own.patientId);
    const res = await uploadRecord(t.app, t.hospital.cookie, own.id, {
      fields: { draft: 'true', title: 'Draft note' },
    });
    expect(res.statusCode).toBe(201);
    const draft = res.json();
    expect(draft).toMatchObject({ status: 'draft', blockchainHash: null, isBlockchainVerified: false });
    expect(
      await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.recordId, draft.id)),
    ).toHaveLength(0);
    const [draftAudit] = await auditRows(t, { entityId: draft.id });
    expect(draftAudit.action).toBe('record_draft');

    const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect((await get(`/api/medical-records/${p.userId}`, p.cookie)).json()).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await get(`/api/medical-records/record/${draft.id}`, p.cookie)).statusCode).toBe(404);
    expect((await get(draft.attachments[0].url, p.cookie)).statusCode).toBe(404);
    const drafts = (await get('/api/medical-records/drafts', t.hospital.cookie)).json();
    expect(drafts.map((d: { id: string }) => d.id)).toContain(draft.id);

    const fin = await call(t.app, 'POST', `/api/medical-records/${draft.id}/finalize`, t.hospital.cookie);
    expect(fin.statusCode).toBe(200);
    expect(fin.json()).toMatchObject({ status: 'final', isBlockchainVerified: true });
    const again = await call(t.app, 'POST', `/api/medical-records/${draft.id}/finalize`, t.hospital.cookie);
    expect(again.statusCode).toBe(409);
    expect(
      (await get(`/api/medical-records/${p.userId}`, p.cookie)).json().items.map((r: { id: string }) => r.id),
    ).toEqual([draft.id]);
  });

  it('continues a draft with more files and uploads it in the same form', async () => {
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { draft: 'true', title: 'Part one' },
    });
    const draft = res.json();
    const next = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { draftId: draft.id, title: 'Complete', description: 'now with the scan' },
      files: [{ fileName: 'scan.png', bytes: samplePng() }],
    });
    expect(next.statusCode).toBe(201);
    expect(next.json()).toMatchObject({
      id: draft.id,
      status: 'final',
      title: 'Complete',
      isBlockchainVerified: true,
    });
    expect(next.json().attachments.map((a: { fileName: string }) => a.fileName)).toEqual([
      'report.pdf',
      'scan.png',
    ]);
    const reuse = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { draftId: draft.id },
    });
    expect(reuse.statusCode).toBe(409);
  });

  it('refuses to save a draft read before another save changed it, and removes the new files', async () => {
    const actor = {
      id: t.hospital.userId,
      role: 'hospital' as const,
      ip: '127.0.0.1',
      hospitalId: t.hospital.userId,
      staffRole: 'hospital_admin' as const,
    };
    const draft = (
      await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { fields: { draft: 'true' } })
    ).json();
    const fields = {
      patientId: t.patientRow.id,
      draftId: draft.id,
      recordType: 'lab-results',
      title: 'Stale',
      consentProvided: true,
      shareWithFamily: false,
      shareWithSpecialists: false,
      draft: true,
    } as const;
    const stale = await prepareUpload(t.ctx.db, actor, fields);
    const saved = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { draftId: draft.id, draft: 'true', title: 'Saved meanwhile' },
      files: [{ fileName: 'scan.png', bytes: samplePng() }],
    });
    expect(saved.statusCode).toBe(201);
    const pending = await t.ctx.files.write(Readable.from([samplePng()]), MAX_UPLOAD_BYTES);
    await expect(
      saveUpload(
        t.ctx.db,
        actor,
        fields,
        stale,
        [{ pending, fileName: 'late.png', mimeType: 'image/png' }],
        new Date(),
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(fs.existsSync(onDisk(t.ctx.files).pathFor(pending.storageKey))).toBe(false);
    const rows = await t.ctx.db.select().from(attachments).where(eq(attachments.recordId, draft.id));
    expect(rows.map((a) => [a.fileName, a.position])).toEqual([
      ['report.pdf', 0],
      ['scan.png', 1],
    ]);
  });

  it('discards a draft with its files but never an uploaded record', async () => {
    const draft = (
      await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { fields: { draft: 'true' } })
    ).json();
    const key = draft.attachments[0].url.split('/').pop();
    const del = await call(t.app, 'DELETE', `/api/medical-records/${draft.id}`, t.hospital.cookie);
    expect(del.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(attachments).where(eq(attachments.recordId, draft.id))).toHaveLength(
      0,
    );
    expect(fs.existsSync(path.join(t.config.dataDir, 'attachments', key))).toBe(false);
    const final = (await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id)).json();
    const refused = await call(t.app, 'DELETE', `/api/medical-records/${final.id}`, t.hospital.cookie);
    expect(refused.statusCode).toBe(409);
  });
});
