// Dates outside the years people can mean (1900-2200) get a 400 with a message from the shared
// schemas, on every route that takes one: they never reach PostgreSQL and fail there with a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPatient, createTestApp, signedInHospital, type TestApp } from './test/helpers.js';

let t: TestApp;
let hospital: Awaited<ReturnType<typeof signedInHospital>>;
let patientRowId: string;

beforeAll(async () => {
  t = await createTestApp();
  hospital = await signedInHospital(t.app);
  patientRowId = (await addPatient(t.app, hospital.cookie)).id;
});
afterAll(async () => {
  await t.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: hospital.cookie } });

describe('out-of-range dates', () => {
  it('are refused with 400 in the audit trail filters', async () => {
    for (const query of [
      'from=%2B275760-09-13T00:00:00Z',
      'from=-271821-04-20T00:00:00Z',
      'from=0000-01-01T00:00:00Z',
      'from=30000&to=1',
      'to=1899-12-31T23:59:59Z',
    ]) {
      const res = await get(`/api/audit-logs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(/between 1900 and 2200|must be a date/);
    }
    expect((await get('/api/audit-logs?from=2026-11-01T00:00:00Z')).statusCode).toBe(200);
  });

  it('are refused with 400 in the appointment ranges', async () => {
    const res = await get(`/api/appointments/hospital/${hospital.userId}?from=0000-01-01T00:00:00Z`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/between 1900 and 2200/);
    const far = await get(`/api/appointments/hospital/${hospital.userId}?to=9999-12-31T23:59:59Z`);
    expect(far.statusCode).toBe(400);
  });

  it('are refused with 400 for an appointment at the end of year 9999', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: { cookie: hospital.cookie },
      payload: {
        patientId: patientRowId,
        appointmentType: 'consultation',
        doctorName: 'Dr. Smith',
        department: 'cardiology',
        appointmentDate: '9999-12-31T23:59:59Z',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/between 1900 and 2200/);
  });
});
