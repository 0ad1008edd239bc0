// Time, once (issue 15): a hospital's time zone is set at signup and in Settings, appointments
// carry it, audit texts and e-mails name the time in it, and a start that has begun is refused.
import { describe, expect, it } from 'vitest';
import { auditRows, call, login, STRONG_PASSWORD, uniqueEmail, useCast } from '../../test/helpers.js';

let clock = new Date('2031-03-04T09:15:00.000Z');
const t = useCast({ options: { now: () => clock }, hospitalName: 'Zone Clinic' });

/** The appointment form's fields for the cast's patient. */
const appointment = (appointmentDate: string, doctorName = 'Dr. Zone', notes?: string) => ({
  patientId: t.patientRow.id,
  appointmentType: 'consultation',
  doctorName,
  department: 'general',
  appointmentDate,
  notes,
});
const book = (appointmentDate: string, doctorName?: string) =>
  call(t.app, 'POST', '/api/appointments', t.hospital.cookie, appointment(appointmentDate, doctorName));
const settings = (payload: object) =>
  call(t.app, 'PUT', '/api/hospital/settings', t.hospital.cookie, {
    hospitalName: 'Zone Clinic',
    adminEmail: 'admin@zone.example',
    ...payload,
  });
const me = async (cookie: string) => (await call(t.app, 'GET', '/api/auth/me', cookie)).json().user;

describe('a hospital’s time zone', () => {
  it('is UTC for a hospital that signed up without one, and is changed in Settings', async () => {
    const before = await call(t.app, 'GET', '/api/hospital/settings', t.hospital.cookie);
    expect(before.json().timeZone).toBe('UTC');
    const saved = await settings({ timeZone: 'Europe/Berlin' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().timeZone).toBe('Europe/Berlin');
    expect((await me(t.hospital.cookie)).timeZone).toBe('Europe/Berlin');
    const [audit] = await auditRows(t, { userId: t.hospital.userId, action: 'settings_change' });
    expect(audit?.details).toContain('time zone (UTC → Europe/Berlin)');
  });

  it('refuses a zone that does not exist, with a message', async () => {
    for (const timeZone of ['Mars/Olympus_Mons', '', 'UTC\u0000', 'x'.repeat(100)]) {
      const res = await settings({ timeZone });
      expect(res.statusCode, timeZone).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('is taken from the signup form', async () => {
    const email = uniqueEmail('tz');
    const res = await call(t.app, 'POST', '/api/auth/register', undefined, {
      email,
      password: STRONG_PASSWORD,
      ...{ firstName: 'Tia', lastName: 'Zone', role: 'hospital' },
      ...{ hospitalName: 'Tokyo Clinic', timeZone: 'Asia/Tokyo' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await me(await login(t.app, email))).timeZone).toBe('Asia/Tokyo');
  });
});

describe('appointments in the hospital’s zone', () => {
  it('refuses a start that has begun, even by a minute, and takes one a minute ahead', async () => {
    const past = await book(new Date(clock.getTime() - 60_000).toISOString());
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('The appointment date cannot be in the past');
    const soon = await book(new Date(clock.getTime() + 60_000).toISOString(), 'Dr. Soon');
    expect(soon.statusCode, soon.body).toBe(201);
  });

  it('carries the zone and names the local time in the audit text, with no ISO string', async () => {
    // 09:00 UTC on 10 March 2031 is 10:00 in Berlin (winter time).
    const res = await book('2031-03-10T09:00:00.000Z');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().timeZone).toBe('Europe/Berlin');
    const [audit] = await auditRows(t, { entityId: res.json().id, action: 'appointment_create' });
    expect(audit?.details).toContain('Mar 10, 2031, 10:00 AM (Europe/Berlin)');
    expect(audit?.details).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const mine = await call(t.app, 'GET', '/api/appointments/patient', t.patient.cookie);
    const listed = mine.json<{ items: { id: string; timeZone: string }[] }>().items;
    expect(listed.find((a) => a.id === res.json().id)?.timeZone).toBe('Europe/Berlin');
  });

  it('lets the hospital edit the notes of an appointment that has begun without moving it', async () => {
    const res = await book('2031-03-04T11:00:00.000Z', 'Dr. Later');
    expect(res.statusCode, res.body).toBe(201);
    clock = new Date('2031-03-04T11:30:00.000Z');
    const edit = (payload: object) =>
      call(t.app, 'PUT', `/api/appointments/${res.json().id}`, t.hospital.cookie, payload);
    const edited = await edit(appointment('2031-03-04T11:00:00.000Z', 'Dr. Later', 'Ran late'));
    expect(edited.statusCode, edited.body).toBe(200);
    const moved = await edit(appointment('2031-03-04T11:15:00.000Z', 'Dr. Later'));
    expect(moved.statusCode).toBe(400);
  });
});
