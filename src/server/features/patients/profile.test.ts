import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ONLY_PROFILE_FIELDS, PHONE_MESSAGE } from '../../../shared/patient-profile.js';
import { patients } from '../../db/schema.js';
import { auditRows, call, expectOneAuditByPatient, ledgerRows, useCast } from '../../test/helpers.js';
import { ledgerContentOf } from '../ledger/testing.js';

const t = useCast({
  patient: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1990-12-10',
    gender: 'female',
    phone: '555-0100',
  },
  others: true,
  admin: true,
});

const get = (url: string, cookie?: string) => call(t.app, 'GET', url, cookie);
const put = (url: string, payload: unknown, cookie?: string) => call(t.app, 'PUT', url, cookie, payload);

const ledgerOf = (patientId: string) => ledgerRows(t, patientId, 'profile_change');
const auditsOf = (patientId: string) => auditRows(t, { patientId, action: 'profile_change' });

describe('GET /api/patients/profile/{userId}', () => {
  it('answers 401 when signed out and 403 to an administrator', async () => {
    expect((await get(`/api/patients/profile/${t.patient.userId}`)).statusCode).toBe(401);
    expect((await get(`/api/patients/profile/${t.patient.userId}`, t.admin.cookie)).statusCode).toBe(403);
  });

  it("gives a patient their own patient object (section 7's fields)", async () => {
    const res = await get(`/api/patients/profile/${t.patient.userId}`, t.patient.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: t.patientRow.id,
      patientId: t.patientRow.patientId,
      dateOfBirth: '1990-12-10',
      gender: 'female',
      phone: '555-0100',
      insuranceProvider: null,
      insurancePolicy: null,
      primaryCarePhysician: null,
    });
  });

  it("answers 404 for another patient's user id, a hospital's id and malformed ids", async () => {
    for (const id of [
      t.otherPatient.userId,
      t.hospital.userId,
      'not-a-uuid',
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await get(`/api/patients/profile/${id}`, t.patient.cookie);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('Patient not found.');
    }
  });

  it('gives a hospital the profile of a patient it created, and another hospital 404', async () => {
    const own = await get(`/api/patients/profile/${t.patient.userId}`, t.hospital.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json().id).toBe(t.patientRow.id);
    expect((await get(`/api/patients/profile/${t.patient.userId}`, t.otherHospital.cookie)).statusCode).toBe(
      404,
    );
  });
});

describe('PUT /api/patients/{patientId} by the patient', () => {
  it('answers 401 when signed out and 403 to an administrator', async () => {
    expect((await put(`/api/patients/${t.patientRow.id}`, { phone: '1' })).statusCode).toBe(401);
    expect((await put(`/api/patients/${t.patientRow.id}`, { phone: '1' }, t.admin.cookie)).statusCode).toBe(
      403,
    );
  });

  it("answers 404 for another patient's row, leaving it unchanged", async () => {
    const res = await put(`/api/patients/${t.otherPatientRow.id}`, { phone: '555 0199' }, t.patient.cookie);
    expect(res.statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, t.otherPatientRow.id));
    expect(row.phone).toBeNull();
  });

  it('changes the four profile fields, ledgers the change and audits it with the ledger hash and IP', async () => {
    const changes = {
      phone: '+1 (555) 010-2030',
      insuranceProvider: 'Acme Health',
      insurancePolicy: 'POL-42',
      primaryCarePhysician: 'Dr. Grey',
    };
    // Integrity fields from a client are ignored.
    const ignored = { blockchainHash: 'f'.repeat(64), isBlockchainVerified: true };
    const res = await put(`/api/patients/${t.patientRow.id}`, { ...changes, ...ignored }, t.patient.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: t.patientRow.id, ...changes, firstName: 'Ada' });
    const ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0].userId).toBe(t.patient.userId);
    expect(await ledgerContentOf(t.ctx.db, ledger[0].seq)).toEqual({ patientId: t.patientRow.id, changes });
    expectOneAuditByPatient(t, await auditsOf(t.patientRow.id), ledger[0].hash, {
      entityId: t.patientRow.id,
    });
  });

  it('shows the change in the patient’s activity trail as blockchain verified', async () => {
    const res = await get('/api/audit-logs/patient?action=profile_change', t.patient.cookie);
    expect(res.json().items[0]).toMatchObject({ action: 'profile_change', blockchainVerified: true });
  });

  it('ledgers only the fields that changed, and nothing when nothing changed', async () => {
    const res = await put(
      `/api/patients/${t.patientRow.id}`,
      { phone: '+1 (555) 010-2030', insurancePolicy: '' },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().insurancePolicy).toBeNull();
    let ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(2);
    expect((await ledgerContentOf(t.ctx.db, ledger[1].seq))?.changes).toEqual({ insurancePolicy: null });
    expect(ledger[1].canonical).not.toContain('insurancePolicy');
    expect(
      (await put(`/api/patients/${t.patientRow.id}`, { phone: '+1 (555) 010-2030' }, t.patient.cookie))
        .statusCode,
    ).toBe(200);
    ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(2);
    expect(await auditsOf(t.patientRow.id)).toHaveLength(2);
  });

  it('refuses fields other than the four with 400 and changes nothing', async () => {
    for (const body of [
      { firstName: 'Eve' },
      { dateOfBirth: '2000-01-01', phone: '1' },
      { email: 'x@example.test' },
    ]) {
      const res = await put(`/api/patients/${t.patientRow.id}`, body, t.patient.cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(ONLY_PROFILE_FIELDS);
    }
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, t.patientRow.id));
    expect(row.firstName).toBe('Ada');
  });

  it('refuses a phone that is not a phone number, and over-long values, with 400', async () => {
    const bad = await put(`/api/patients/${t.patientRow.id}`, { phone: 'call me maybe' }, t.patient.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(PHONE_MESSAGE);
    const long = await put(
      `/api/patients/${t.patientRow.id}`,
      { insuranceProvider: 'x'.repeat(201) },
      t.patient.cookie,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/at most 200 characters/);
    const notText = await put(`/api/patients/${t.patientRow.id}`, { insurancePolicy: 42 }, t.patient.cookie);
    expect(notText.statusCode).toBe(400);
  });

  it('writes neither the change nor its ledger entry when the audit entry cannot be written', async () => {
    await t.ctx.db.execute(
      sql`alter table audit_logs add constraint test_no_profile_change check (action <> 'profile_change') not valid`,
    );
    try {
      const res = await put(`/api/patients/${t.patientRow.id}`, { phone: '555 9999' }, t.patient.cookie);
      expect(res.statusCode).toBe(500);
    } finally {
      await t.ctx.db.execute(sql`alter table audit_logs drop constraint test_no_profile_change`);
    }
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, t.patientRow.id));
    expect(row.phone).toBe('+1 (555) 010-2030');
    expect(await ledgerOf(t.patientRow.id)).toHaveLength(2);
  });

  it('still lets the hospital edit the demographics of its patient', async () => {
    const res = await put(`/api/patients/${t.patientRow.id}`, { firstName: 'Ada M.' }, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().firstName).toBe('Ada M.');
  });
});

describe('the patient file’s contact details (issue 57)', () => {
  it('changes the address, preferred language (canonical BCP 47) and emergency contact, ledgered; a bad tag is 400', async () => {
    const before = (await ledgerOf(t.patientRow.id)).length;
    const res = await put(
      `/api/patients/${t.patientRow.id}`,
      {
        address: '12 Rue de la Paix, Paris',
        preferredLanguage: 'PT-br',
        emergencyContactName: 'Byron Lovelace',
        emergencyContactPhone: '+44 20 7946 0000',
      },
      t.patient.cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      address: '12 Rue de la Paix, Paris',
      preferredLanguage: 'pt-BR',
      emergencyContactName: 'Byron Lovelace',
      emergencyContactPhone: '+44 20 7946 0000',
    });
    const ledger = await ledgerOf(t.patientRow.id);
    expect(ledger).toHaveLength(before + 1);
    expect((await ledgerContentOf(t.ctx.db, ledger.at(-1)!.seq))?.changes).toMatchObject({
      preferredLanguage: 'pt-BR',
    });
    for (const preferredLanguage of ['not a language', 'x'.repeat(40), 'en_US!']) {
      const bad = await put(`/api/patients/${t.patientRow.id}`, { preferredLanguage }, t.patient.cookie);
      expect(bad.statusCode, preferredLanguage).toBe(400);
      expect(bad.json().message).toMatch(/Preferred language must be a language tag/);
    }
    // The hospital sees them on the patient file.
    const file = await call(t.app, 'GET', `/api/patients/${t.patientRow.id}`, t.hospital.cookie);
    expect(file.json()).toMatchObject({ preferredLanguage: 'pt-BR', emergencyContactName: 'Byron Lovelace' });
  });
});
