import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { consentSettings } from '../../db/schema.js';
import { auditRows, call, expectOneAuditByPatient, ledgerRows, useCast } from '../../test/helpers.js';
import { ledgerContentOf } from '../ledger/testing.js';

const t = useCast({ others: true, admin: true });

const get = (userId: string, cookie?: string) => call(t.app, 'GET', `/api/consent/${userId}`, cookie);
const put = (userId: string, payload: unknown, cookie?: string) =>
  call(t.app, 'PUT', `/api/consent/${userId}`, cookie, payload);
const rowsOf = (patientId: string) =>
  t.ctx.db
    .select()
    .from(consentSettings)
    .where(and(eq(consentSettings.patientId, patientId), isNull(consentSettings.recordId)));
const ledgerOf = (patientId: string) => ledgerRows(t, patientId, 'consent_change');
const auditsOf = (patientId: string) => auditRows(t, { patientId, action: 'consent_change' });

describe('GET /api/consent/{userId}', () => {
  it('answers 401 when signed out and 403 to an administrator', async () => {
    expect((await get(t.patient.userId)).statusCode).toBe(401);
    expect((await get(t.patient.userId, t.admin.cookie)).statusCode).toBe(403);
  });

  it('gives both switches on (the dashboard defaults) until the patient saves a choice', async () => {
    const res = await get(t.patient.userId, t.patient.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      shareWithSpecialists: true,
      shareWithFamily: true,
      blockchainHash: null,
      updatedAt: null,
    });
  });

  it("answers 404 for another patient's user id and for malformed ids", async () => {
    const malformed = ['x', '00000000-0000-4000-8000-000000000000'];
    for (const id of [t.otherPatient.userId, t.hospital.userId, ...malformed]) {
      expect((await get(id, t.patient.cookie)).statusCode, id).toBe(404);
    }
  });

  it('lets the hospital that created the patient read it, and no other hospital', async () => {
    expect((await get(t.patient.userId, t.hospital.cookie)).statusCode).toBe(200);
    expect((await get(t.patient.userId, t.otherHospital.cookie)).statusCode).toBe(404);
  });
});

describe('PUT /api/consent/{userId}', () => {
  it('answers 401 when signed out, 403 to a hospital and an administrator', async () => {
    const body = { shareWithSpecialists: false, shareWithFamily: false };
    expect((await put(t.patient.userId, body)).statusCode).toBe(401);
    expect((await put(t.patient.userId, body, t.hospital.cookie)).statusCode).toBe(403);
    expect((await put(t.patient.userId, body, t.admin.cookie)).statusCode).toBe(403);
  });

  it("answers 404 for another patient's user id and stores nothing", async () => {
    const res = await put(
      t.otherPatient.userId,
      { shareWithSpecialists: false, shareWithFamily: false },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(404);
    const [{ n }] = await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(consentSettings);
    expect(n).toBe(0);
  });

  it('refuses a body without both booleans with 400 and a message', async () => {
    const missing = await put(t.patient.userId, { shareWithSpecialists: true }, t.patient.cookie);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('shareWithFamily must be true or false');
    const text = await put(
      t.patient.userId,
      { shareWithSpecialists: 'yes', shareWithFamily: true },
      t.patient.cookie,
    );
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe('shareWithSpecialists must be true or false');
  });

  it('stores the choice, ledgers it as consent_change and audits it with the ledger hash and IP', async () => {
    const res = await put(
      t.patient.userId,
      { shareWithSpecialists: true, shareWithFamily: false, blockchainHash: 'a'.repeat(64) },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(200);
    const ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(1);
    expect(await ledgerContentOf(t.ctx.db, ledger[0].seq)).toEqual({
      scope: 'patient',
      patientId: t.patientRow.id,
      shareWithSpecialists: true,
      shareWithFamily: false,
    });
    expect(res.json()).toMatchObject({
      shareWithSpecialists: true,
      shareWithFamily: false,
      blockchainHash: ledger[0].hash,
    });
    const rows = await rowsOf(t.patientRow.id);
    expect(rows.map((r) => [r.consentType, r.isGranted, r.blockchainHash]).sort()).toEqual([
      ['share_with_family', false, ledger[0].hash],
      ['share_with_specialists', true, ledger[0].hash],
    ]);
    expectOneAuditByPatient(t, await auditsOf(t.patientRow.id), ledger[0].hash);
    expect((await get(t.patient.userId, t.patient.cookie)).json()).toMatchObject({
      shareWithSpecialists: true,
      shareWithFamily: false,
    });
  });

  it('updates the same two rows on the next save (no duplicates) with a new ledger entry', async () => {
    const res = await put(
      t.patient.userId,
      { shareWithSpecialists: false, shareWithFamily: true },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf(t.patientRow.id);
    expect(rows).toHaveLength(2);
    const ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(2);
    expect(rows.every((r) => r.blockchainHash === ledger[1].hash)).toBe(true);
    expect(res.json()).toMatchObject({ shareWithSpecialists: false, shareWithFamily: true });
    const trail = await call(t.app, 'GET', '/api/audit-logs/patient?action=consent_change', t.patient.cookie);
    expect(trail.json().items[0]).toMatchObject({ blockchainVerified: true, blockchainHash: ledger[1].hash });
  });

  it('keeps record-level sharing apart from the patient-wide settings', async () => {
    const rows = await t.ctx.db.select().from(consentSettings);
    expect(rows.every((r) => r.recordId === null)).toBe(true);
  });

  it('stores neither the settings nor the ledger entry when the audit entry cannot be written', async () => {
    await t.ctx.db.execute(
      sql`alter table audit_logs add constraint test_no_consent check (action <> 'consent_change') not valid`,
    );
    try {
      const res = await put(
        t.patient.userId,
        { shareWithSpecialists: true, shareWithFamily: true },
        t.patient.cookie,
      );
      expect(res.statusCode).toBe(500);
    } finally {
      await t.ctx.db.execute(sql`alter table audit_logs drop constraint test_no_consent`);
    }
    expect(await ledgerOf(t.patientRow.id)).toHaveLength(2);
    expect((await get(t.patient.userId, t.patient.cookie)).json()).toMatchObject({
      shareWithSpecialists: false,
      shareWithFamily: true,
    });
  });
});
