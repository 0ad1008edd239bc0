// Corrections without erasure: an amendment supersedes the current version (ledgered with a link
// to the entry it replaces), "entered in error" retracts one; both are kept, shown in the record's
// history, hidden from default lists, and the whole ledger still verifies.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries } from '../../db/schema.js';
import { auditLedger } from '../ledger/integrity.js';
import { addPatient, auditRows, signedInHospital, useCast } from '../../test/helpers.js';
import { multipartBody, samplePdf, uploadRecord } from './testing.js';
import { ledgerContentOf } from '../ledger/testing.js';

const t = useCast({ hospitalName: 'Saint Amend', patient: { firstName: 'Ada', lastName: 'Lovelace' } });

interface Rec {
  id: string;
  title: string;
  documentStatus: string;
  supersedesId: string | null;
  supersededById: string | null;
  blockchainHash: string;
  enteredInError: { reason: string; byName: string | null } | null;
  attachments: { url: string; sha256: string }[];
}

async function upload(title: string, text = 'Potassium: 4.1') {
  const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
    fields: { title },
    files: [{ fileName: 'lab.pdf', bytes: samplePdf(text) }],
  });
  expect(res.statusCode).toBe(201);
  return res.json<Rec>();
}

function amend(
  id: string,
  fields: Record<string, string>,
  files: { fileName: string; bytes: Buffer }[] = [],
  cookie = t.hospital.cookie,
) {
  const { payload, headers } = multipartBody([
    ...Object.entries({ patientId: t.patientRow.id, recordType: 'lab-results', ...fields }).map(
      ([name, value]) => ({
        name,
        value,
      }),
    ),
    ...files.map((f) => ({ name: 'files', fileName: f.fileName, bytes: f.bytes })),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/medical-records/${id}/amend`,
    headers: { ...headers, cookie },
    payload,
  });
}

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const retract = (id: string, reason: unknown, cookie = t.hospital.cookie) =>
  t.app.inject({
    method: 'POST',
    url: `/api/medical-records/${id}/entered-in-error`,
    headers: { cookie },
    payload: { reason },
  });
const titles = async (url: string, cookie: string) =>
  (await get(url, cookie)).json<{ items: Rec[] }>().items.map((r) => `${r.title}:${r.documentStatus}`);

describe('amending a record', () => {
  it('makes a new version that supersedes the old; lists show the current one, history both', async () => {
    const original = await upload('Potassium panel');
    const res = await amend(original.id, { title: 'Potassium panel (corrected)' }, [
      { fileName: 'lab-corrected.pdf', bytes: samplePdf('Potassium: 4.9') },
    ]);
    expect(res.statusCode).toBe(201);
    const amended = res.json<Rec>();
    expect(amended).toMatchObject({
      documentStatus: 'current',
      supersedesId: original.id,
      supersededById: null,
    });

    const old = (await get(`/api/medical-records/record/${original.id}`, t.hospital.cookie)).json<Rec>();
    expect(old).toMatchObject({ documentStatus: 'superseded', supersededById: amended.id });

    // The new entry names the old record and its entry hash.
    const [entry] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.hash, amended.blockchainHash));
    expect((await ledgerContentOf(t.ctx.db, entry.seq))?.supersedes).toEqual({
      recordId: original.id,
      entryHash: original.blockchainHash,
    });

    for (const [url, cookie] of [
      [`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie],
      ['/api/medical-records', t.patient.cookie],
    ] as const) {
      const current = await titles(url, cookie);
      expect(current).toContain('Potassium panel (corrected):current');
      expect(current).not.toContain('Potassium panel:superseded');
      expect(await titles(`${url}?view=all`, cookie)).toContain('Potassium panel:superseded');
    }

    const history = await get(`/api/medical-records/${original.id}/history`, t.patient.cookie);
    expect(history.statusCode).toBe(200);
    expect(history.json().versions.map((v: Rec) => `${v.id}:${v.documentStatus}`)).toEqual([
      `${original.id}:superseded`,
      `${amended.id}:current`,
    ]);

    // Both versions verify against the ledger, files included.
    for (const id of [original.id, amended.id]) {
      const check = await get(`/api/medical-records/${id}/verification`, t.hospital.cookie);
      expect(check.json().verified, id).toBe(true);
    }
    const audit = await auditRows(t, { action: 'record_amend' });
    expect(audit.map((a) => a.entityId)).toContain(amended.id);
  });

  it('keeps the old files when the amendment brings none (the same bytes under a new key)', async () => {
    const original = await upload('Sodium panel', 'Sodium: 140');
    const res = await amend(original.id, { title: 'Sodium panel', description: 'Reviewed by Dr. Grey' });
    expect(res.statusCode).toBe(201);
    const amended = res.json<Rec>();
    expect(amended.attachments).toHaveLength(1);
    expect(amended.attachments[0].url).not.toBe(original.attachments[0].url);
    expect(amended.attachments[0].sha256).toBe(original.attachments[0].sha256);
    const [a, b] = await Promise.all([
      get(original.attachments[0].url, t.patient.cookie),
      get(amended.attachments[0].url, t.patient.cookie),
    ]);
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
  });

  it('accepts one amendment of a version: a second, racing or later, gets 409', async () => {
    const original = await upload('Calcium panel');
    const racing = await Promise.all([
      amend(original.id, { title: 'Calcium A' }),
      amend(original.id, { title: 'Calcium B' }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await amend(original.id, { title: 'Calcium C' })).statusCode).toBe(409);
    expect((await retract(original.id, 'Wrong patient')).statusCode).toBe(409);
  });

  it('refuses another patient, drafts, other parties and patients', async () => {
    const original = await upload('Iron panel');
    const other = await addPatient(t.app, t.hospital.cookie, { firstName: 'Grace', lastName: 'Hopper' });
    const moved = await amend(original.id, { title: 'Iron panel', patientId: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toMatch(/entered in error/);
    expect((await amend(original.id, { title: 'Iron panel', draft: 'true' })).statusCode).toBe(400);
    const stranger = await signedInHospital(t.app, 'Elsewhere');
    expect((await amend(original.id, { title: 'x' }, [], stranger.cookie)).statusCode).toBe(404);
    expect((await retract(original.id, 'Not mine', stranger.cookie)).statusCode).toBe(404);
    expect((await amend(original.id, { title: 'x' }, [], t.patient.cookie)).statusCode).toBe(403);
    expect((await retract(original.id, 'Not mine', t.patient.cookie)).statusCode).toBe(403);
    expect((await get(`/api/medical-records/${original.id}/history`, stranger.cookie)).statusCode).toBe(404);
  });
});

describe('an amendment’s sharing switches', () => {
  const sharingOf = (r: { shareWithSpecialists: boolean; shareWithFamily: boolean }) => [
    r.shareWithSpecialists,
    r.shareWithFamily,
  ];
  it('are its predecessor’s unless the amendment sets them', async () => {
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'Shared panel', shareWithSpecialists: 'true', shareWithFamily: 'true' },
      files: [{ fileName: 'lab.pdf', bytes: samplePdf('shared') }],
    });
    const original = res.json<Rec & { shareWithSpecialists: boolean; shareWithFamily: boolean }>();
    const kept = await amend(original.id, { title: 'Shared panel (corrected)' });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(sharingOf(kept.json())).toEqual([true, true]);
    const changed = await amend(kept.json<Rec>().id, { title: 'Third', shareWithFamily: 'false' });
    expect(changed.statusCode, changed.body).toBe(201);
    expect(sharingOf(changed.json())).toEqual([true, false]);
    // A new upload that says nothing has them off, as before.
    const plain = await upload('Plain');
    expect(
      sharingOf(plain as unknown as { shareWithSpecialists: boolean; shareWithFamily: boolean }),
    ).toEqual([false, false]);
  });
});

describe('entered in error', () => {
  it('retracts the record: kept, ledgered, named in history, hidden from default lists', async () => {
    const record = await upload('Wrong patient X-ray');
    expect((await retract(record.id, '  ')).statusCode).toBe(400);
    expect((await retract(record.id, 'x\u0000y')).statusCode).toBe(400);
    const res = await retract(record.id, 'Uploaded to the wrong patient');
    expect(res.statusCode).toBe(200);
    expect(res.json<Rec>()).toMatchObject({
      documentStatus: 'entered-in-error',
      enteredInError: { reason: 'Uploaded to the wrong patient', byName: 'Hana Ward' },
    });
    expect(await titles(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie)).not.toContain(
      'Wrong patient X-ray:entered-in-error',
    );
    expect(await titles('/api/medical-records?view=all', t.patient.cookie)).toContain(
      'Wrong patient X-ray:entered-in-error',
    );
    // Still readable and still verified: nothing uploaded was changed.
    expect((await get(record.attachments[0].url, t.patient.cookie)).statusCode).toBe(200);
    expect(
      (await get(`/api/medical-records/${record.id}/verification`, t.patient.cookie)).json().verified,
    ).toBe(true);
    const entries = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.recordId, record.id));
    expect(entries.map((e) => e.kind).sort()).toEqual(['record_entered_in_error', 'record_upload']);
    expect((await retract(record.id, 'Again')).statusCode).toBe(409);
    expect((await amend(record.id, { title: 'Too late' })).statusCode).toBe(409);
  });

  it('tells /verify what became of a file: current, superseded by an amendment, entered in error', async () => {
    const lookup = async (sha256: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/ledger/files/${sha256}` })).json();
    const original = await upload('Glucose', 'Glucose: 5.1');
    const amended = (
      await amend(original.id, { title: 'Glucose' }, [
        { fileName: 'g.pdf', bytes: samplePdf('Glucose: 5.8') },
      ])
    ).json<Rec>();
    const old = await lookup(original.attachments[0].sha256);
    expect(old.fate).toMatchObject({
      documentStatus: 'superseded',
      supersededBy: { hash: amended.blockchainHash },
      enteredInError: null,
    });
    expect(old.entry.hash).toBe(original.blockchainHash);
    expect((await lookup(amended.attachments[0].sha256)).fate.documentStatus).toBe('current');
    await retract(amended.id, 'Wrong sample');
    const retracted = await lookup(amended.attachments[0].sha256);
    expect(retracted.fate.documentStatus).toBe('entered-in-error');
    expect(retracted.fate.enteredInError.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(retracted)).not.toContain('Wrong sample'); // the reason stays private
  });

  it('leaves the whole ledger verifiable (every amendment and retraction checked)', async () => {
    const report = await auditLedger(t.ctx.db, t.ctx.files);
    expect(report.problems).toEqual([]);
    expect(report.records).toBeGreaterThan(5);
  });
});
