// Appointment writes after the free trial: refused with 402 like every hospital write; reading stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIAL_DAYS } from '../../../shared/constants.js';
import { addPatient, call, createTestApp, signedInHospital, type TestApp } from '../../test/helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const start = new Date('2031-01-05T08:00:00.000Z');
let clock = start;
let t: TestApp;
let hospital: { cookie: string; userId: string };
let appointmentId: string;
let patientRowId: string;

const payload = (hhmm: string) => ({
  patientId: patientRowId,
  appointmentType: 'consultation',
  doctorName: 'Dr. Trial',
  department: 'general',
  appointmentDate: `2031-02-01T${hhmm}:00.000Z`,
});

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  hospital = await signedInHospital(t.app);
  patientRowId = (await addPatient(t.app, hospital.cookie)).id;
  const res = await call(t.app, 'POST', '/api/appointments', hospital.cookie, payload('10:00'));
  expect(res.statusCode).toBe(201);
  appointmentId = res.json<{ id: string }>().id;
  clock = new Date(start.getTime() + (TRIAL_DAYS + 1) * DAY);
});
afterAll(async () => t?.close());

describe('appointments after the trial', () => {
  it('refuses every write with 402 and keeps the list readable', async () => {
    const calls = [
      { method: 'POST', url: '/api/appointments', payload: payload('12:00') },
      { method: 'PUT', url: `/api/appointments/${appointmentId}`, payload: payload('13:00') },
      { method: 'PATCH', url: `/api/appointments/${appointmentId}/status`, payload: { status: 'confirmed' } },
      { method: 'DELETE', url: `/api/appointments/${appointmentId}` },
    ] as const;
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: { cookie: hospital.cookie } });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(402);
    }
    const list = await call(t.app, 'GET', `/api/appointments/hospital/${hospital.userId}`, hospital.cookie);
    expect(list.json<{ items: { status: string }[] }>().items.map((a) => a.status)).toEqual(['scheduled']);
  });
});
