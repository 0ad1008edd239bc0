import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES, type Appointment } from '../../../shared/appointments.js';
import type { Paged } from '../../../shared/paging.js';
import { appointments, ledgerEntries } from '../../db/schema.js';
import { addPatient, auditRows, callerOf, useCast } from '../../test/helpers.js';
import { ledgerContentOf } from '../ledger/testing.js';

const t = useCast({ patient: { firstName: 'Ada', lastName: 'Lovelace' }, others: true, admin: true });
let secondPatient: { id: string };
let otherHospitalsPatient: { id: string };

beforeAll(async () => {
  secondPatient = await addPatient(t.app, t.hospital.cookie, { firstName: 'Bob', lastName: 'Stone' });
  otherHospitalsPatient = await addPatient(t.app, t.otherHospital.cookie);
});

// A fixed day well in the future, so "not in the past" holds whatever the clock says.
const at = (hhmm: string) => `2031-03-04T${hhmm}:00.000Z`;
const body = (over: Record<string, unknown> = {}) => ({
  patientId: t.patientRow.id,
  hospitalId: 'ignored',
  appointmentType: 'consultation',
  doctorName: 'Dr. Smith',
  department: 'cardiology',
  appointmentDate: at('10:00'),
  location: 'Room 4',
  notes: '',
  status: 'completed',
  ...over,
});
const call = callerOf(t);
const create = (over: Record<string, unknown> = {}, cookie = t.hospital.cookie) =>
  call('POST', '/api/appointments', cookie, body(over));
async function created(over: Record<string, unknown> = {}) {
  const res = await create(over);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Appointment>();
}

describe('POST /api/appointments', () => {
  it('schedules an appointment for the hospital’s patient, status scheduled, audited', async () => {
    const a = await created({ appointmentDate: at('09:00'), doctorName: 'Dr. First' });
    expect(a).toMatchObject({
      patientId: t.patientRow.id,
      hospitalId: t.hospital.userId,
      patientName: 'Ada Lovelace',
      doctorName: 'Dr. First',
      status: 'scheduled',
      location: 'Room 4',
      notes: null,
      appointmentDate: at('09:00'),
    });
    const audits = await auditRows(t, { entityId: a.id });
    expect(audits.map((x) => x.action)).toEqual(['appointment_create']);
    expect(audits[0]).toMatchObject({ hospitalId: t.hospital.userId, patientId: t.patientRow.id });
  });

  it('refuses the same doctor 30 minutes later with 409 naming the doctor', async () => {
    await created({ appointmentDate: at('12:00'), doctorName: 'Dr. Busy' });
    const res = await create({
      appointmentDate: at('12:30'),
      doctorName: ' dr. busy ',
      patientId: secondPatient.id,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Conflict with: Dr. Busy');
  });

  it('books only one of two simultaneous requests for the same doctor and hour', async () => {
    const results = await Promise.all([
      create({ appointmentDate: '2031-03-06T10:00:00.000Z', doctorName: 'Dr. Race' }),
      create({
        appointmentDate: '2031-03-06T10:30:00.000Z',
        doctorName: 'Dr. Race',
        patientId: secondPatient.id,
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('allows the same doctor exactly an hour later', async () => {
    await created({ appointmentDate: at('14:00'), doctorName: 'Dr. Hourly' });
    await created({ appointmentDate: at('15:00'), doctorName: 'Dr. Hourly', patientId: secondPatient.id });
  });

  it('allows another doctor at the same time for another patient, but not for the same patient', async () => {
    await created({ appointmentDate: at('16:00'), doctorName: 'Dr. A' });
    await created({ appointmentDate: at('16:00'), doctorName: 'Dr. B', patientId: secondPatient.id });
    const res = await create({ appointmentDate: at('16:30'), doctorName: 'Dr. C' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Dr. A');
  });

  it('does not count another hospital’s appointments of a doctor with the same name', async () => {
    const res = await create(
      { appointmentDate: at('12:00'), doctorName: 'Dr. Busy', patientId: otherHospitalsPatient.id },
      t.otherHospital.cookie,
    );
    expect(res.statusCode).toBe(201);
  });

  it('answers 400 with the required-fields message', async () => {
    for (const missing of ['patientId', 'appointmentType', 'doctorName', 'department', 'appointmentDate']) {
      const res = await create({ [missing]: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please fill in all required fields');
    }
  });

  it('refuses a date in the past', async () => {
    const res = await create({ appointmentDate: '2001-01-01T10:00:00.000Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/past/);
  });

  it('answers 404 for another hospital’s patient or a malformed patient id', async () => {
    expect((await create({ patientId: otherHospitalsPatient.id })).statusCode).toBe(404);
    expect((await create({ patientId: 'nope' })).statusCode).toBe(404);
  });

  it('is for hospitals only', async () => {
    expect((await call('POST', '/api/appointments', undefined, body())).statusCode).toBe(401);
    expect((await create({}, t.patient.cookie)).statusCode).toBe(403);
    expect((await create({}, t.admin.cookie)).statusCode).toBe(403);
  });
});

describe('GET /api/appointments/hospital/{id}', () => {
  it('lists the hospital’s own appointments in date order, within from/to', async () => {
    const res = await call('GET', `/api/appointments/hospital/${t.hospital.userId}`, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    const page = res.json<Paged<Appointment>>();
    const list = page.items;
    expect(list.length).toBeGreaterThan(3);
    expect(page).toMatchObject({ total: list.length, page: 1, pageSize: 50 });
    expect(list.every((a) => a.hospitalId === t.hospital.userId)).toBe(true);
    expect(list.map((a) => a.appointmentDate)).toEqual([...list.map((a) => a.appointmentDate)].sort());
    const ranged = await call(
      'GET',
      `/api/appointments/hospital/${t.hospital.userId}?from=${at('13:00')}&to=${at('15:30')}`,
      t.hospital.cookie,
    );
    expect(ranged.json<Paged<Appointment>>().items.map((a) => a.appointmentDate)).toEqual([
      at('14:00'),
      at('15:00'),
    ]);
    expect(ranged.json<Paged<Appointment>>().total).toBe(2);
    // Pages of one follow the same order and never overlap.
    const pages: string[] = [];
    for (let n = 1; n <= list.length + 1; n++) {
      const one = await call(
        'GET',
        `/api/appointments/hospital/${t.hospital.userId}?pageSize=1&page=${n}`,
        t.hospital.cookie,
      );
      expect(one.json<Paged<Appointment>>().total).toBe(list.length);
      pages.push(...one.json<Paged<Appointment>>().items.map((a) => a.id));
    }
    expect(pages).toEqual(list.map((a) => a.id));
  });

  it('leaves a removed (archived) patient’s appointments out of the items and of the total', async () => {
    const leaving = await addPatient(t.app, t.hospital.cookie, { firstName: 'Leaving', lastName: 'Soon' });
    const day = (hhmm: string) => `2031-05-06T${hhmm}:00.000Z`;
    for (const time of ['09:00', '11:00']) {
      await created({ patientId: leaving.id, appointmentDate: day(time), doctorName: `Dr. ${time}` });
    }
    await created({ appointmentDate: day('10:00'), doctorName: 'Dr. Stays' });
    const url = `/api/appointments/hospital/${t.hospital.userId}?from=${day('00:00')}&to=${day('23:00')}`;
    const before = (await call('GET', url, t.hospital.cookie)).json<Paged<Appointment>>();
    expect(before.total).toBe(3);
    expect((await call('DELETE', `/api/patients/${leaving.id}`, t.hospital.cookie)).statusCode).toBe(200);
    const after = (await call('GET', url, t.hospital.cookie)).json<Paged<Appointment>>();
    expect(after.items.map((a) => a.doctorName)).toEqual(['Dr. Stays']);
    expect(after.total).toBe(1);
    // A page past the end counts apart (db/paging.ts), with the same rule.
    const past = (await call('GET', `${url}&page=2&pageSize=1`, t.hospital.cookie)).json<
      Paged<Appointment>
    >();
    expect(past).toMatchObject({ items: [], total: 1 });
  });

  it('answers 404 for another hospital’s id, 403 for other roles, 401 signed out, 400 for a bad range', async () => {
    expect(
      (await call('GET', `/api/appointments/hospital/${t.otherHospital.userId}`, t.hospital.cookie))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/appointments/hospital/${t.hospital.userId}`, t.patient.cookie)).statusCode,
    ).toBe(403);
    expect((await call('GET', `/api/appointments/hospital/${t.hospital.userId}`)).statusCode).toBe(401);
    const bad = await call(
      'GET',
      `/api/appointments/hospital/${t.hospital.userId}?from=yesterday`,
      t.hospital.cookie,
    );
    expect(bad.statusCode).toBe(400);
  });
});

describe('PUT /api/appointments/{id}', () => {
  it('changes the appointment; moving it within its own hour is not a conflict with itself', async () => {
    const a = await created({
      appointmentDate: at('17:00'),
      doctorName: 'Dr. Move',
      patientId: secondPatient.id,
    });
    const res = await call(
      'PUT',
      `/api/appointments/${a.id}`,
      t.hospital.cookie,
      body({
        appointmentDate: at('17:30'),
        doctorName: 'Dr. Move',
        patientId: secondPatient.id,
        notes: 'Fasting',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ appointmentDate: at('17:30'), notes: 'Fasting', status: 'scheduled' });
    const audits = await auditRows(t, { entityId: a.id });
    expect(audits.map((x) => x.action).sort()).toEqual(['appointment_create', 'appointment_update']);
  });

  it('refuses moving onto another appointment of the same doctor (409)', async () => {
    const a = await created({
      appointmentDate: at('13:00'),
      doctorName: 'Dr. Hourly',
      patientId: secondPatient.id,
    });
    const res = await call(
      'PUT',
      `/api/appointments/${a.id}`,
      t.hospital.cookie,
      body({ ...a, appointmentDate: at('14:30') }),
    );
    expect(res.statusCode).toBe(409);
  });

  it('answers 404 to another hospital and 400 with the message for missing fields', async () => {
    const a = await created({
      appointmentDate: at('11:00'),
      doctorName: 'Dr. Own',
      patientId: secondPatient.id,
    });
    expect((await call('PUT', `/api/appointments/${a.id}`, t.otherHospital.cookie, body())).statusCode).toBe(
      404,
    );
    const res = await call('PUT', `/api/appointments/${a.id}`, t.hospital.cookie, body({ doctorName: '  ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please fill in all required fields');
  });
});

describe('PATCH /api/appointments/{id}/status', () => {
  it('sets confirmed; checked in, completed and no-show only from the visit time on; audits each and refuses other values', async () => {
    const a = await created({
      appointmentDate: at('09:00'),
      doctorName: 'Dr. Status',
      patientId: secondPatient.id,
    });
    const setStatus = (status: string) =>
      call('PATCH', `/api/appointments/${a.id}/status`, t.hospital.cookie, { status });
    expect((await setStatus('confirmed')).json().status).toBe('confirmed');
    for (const status of ['checked_in', 'completed', 'no_show']) {
      const early = await setStatus(status);
      expect(early.statusCode).toBe(400);
      expect(early.json().message).toBe(APPOINTMENT_MESSAGES.notYet);
    }
    // The visit's time has come (moved in the database: a booking cannot be made in the past).
    await t.ctx.db
      .update(appointments)
      .set({ appointmentDate: new Date(Date.now() - 60_000) })
      .where(eq(appointments.id, a.id));
    for (const status of ['checked_in', 'completed', 'no_show', 'scheduled']) {
      const res = await setStatus(status);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(status);
    }
    expect((await setStatus('cancelled')).statusCode).toBe(400);
    expect(await auditRows(t, { entityId: a.id, action: 'appointment_status' })).toHaveLength(5);
  });

  it('answers 404 to another hospital and 403 to a patient', async () => {
    const [a] = await t.ctx.db
      .select()
      .from(appointments)
      .where(eq(appointments.hospitalId, t.hospital.userId));
    expect(
      (
        await call('PATCH', `/api/appointments/${a.id}/status`, t.otherHospital.cookie, {
          status: 'confirmed',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call('PATCH', `/api/appointments/${a.id}/status`, t.patient.cookie, { status: 'confirmed' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('DELETE /api/appointments/{id} (cancel)', () => {
  it('keeps the row as cancelled, ledgers it and audits it with the same hash; the slot frees up', async () => {
    const a = await created({
      appointmentDate: '2031-03-05T10:00:00.000Z',
      doctorName: 'Dr. Cancel',
      patientId: secondPatient.id,
    });
    expect((await call('DELETE', `/api/appointments/${a.id}`, t.otherHospital.cookie)).statusCode).toBe(404);
    const res = await call('DELETE', `/api/appointments/${a.id}`, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    const cancelled = res.json<Appointment>();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.blockchainHash).toMatch(/^[0-9a-f]{64}$/);

    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, a.id));
    expect(row).toMatchObject({ status: 'cancelled', blockchainHash: cancelled.blockchainHash });
    const [entry] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.hash, cancelled.blockchainHash!));
    expect(entry).toMatchObject({
      kind: 'appointment_cancel',
      patientId: secondPatient.id,
      userId: t.hospital.userId,
    });
    expect(await ledgerContentOf(t.ctx.db, entry.seq)).toMatchObject({ appointmentId: a.id });
    const [audit] = await auditRows(t, { entityId: a.id, action: 'appointment_cancel' });
    expect(audit?.blockchainHash).toBe(cancelled.blockchainHash);

    expect((await call('DELETE', `/api/appointments/${a.id}`, t.hospital.cookie)).statusCode).toBe(409);
    expect(
      (await call('PATCH', `/api/appointments/${a.id}/status`, t.hospital.cookie, { status: 'confirmed' }))
        .statusCode,
    ).toBe(409);
    await created({
      appointmentDate: '2031-03-05T10:30:00.000Z',
      doctorName: 'Dr. Cancel',
      patientId: secondPatient.id,
    });
  });

  it('answers 401 signed out, 403 to a patient, 404 to a malformed id', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await call('DELETE', `/api/appointments/${id}`)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/appointments/${id}`, t.patient.cookie)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/appointments/not-an-id', t.hospital.cookie)).statusCode).toBe(404);
  });
});

describe('GET /api/appointments/patient', () => {
  it('shows the signed-in patient only their own appointments, by either route', async () => {
    const own = await call('GET', '/api/appointments/patient', t.patient.cookie);
    expect(own.statusCode).toBe(200);
    const list = own.json<Paged<Appointment>>().items;
    expect(list.length).toBeGreaterThan(0);
    expect(own.json<Paged<Appointment>>().total).toBe(list.length);
    expect(list.every((a) => a.patientId === t.patientRow.id)).toBe(true);
    const byId = await call('GET', `/api/appointments/patient/${t.patient.userId}`, t.patient.cookie);
    expect(byId.json().items).toEqual(list);
  });

  it('answers 404 for another user’s id, 403 to hospitals, 401 signed out', async () => {
    expect(
      (await call('GET', `/api/appointments/patient/${t.hospital.userId}`, t.patient.cookie)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/appointments/patient/${t.patient.userId}`, t.hospital.cookie)).statusCode,
    ).toBe(403);
    expect((await call('GET', '/api/appointments/patient', t.hospital.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/appointments/patient')).statusCode).toBe(401);
  });
});
