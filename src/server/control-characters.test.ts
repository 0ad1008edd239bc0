// The routes that answered 500 to a NUL character (issue 9, hole 2) now answer 400 with a message,
// and the rows they would have written are unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPatient,
  createTestApp,
  signedInHospital,
  signedInPatient,
  STRONG_PASSWORD,
  type TestApp,
} from './test/helpers.js';

const NUL = 'Ann\u0000e';
/** Half of a surrogate pair, as JSON can carry it ("\ud800"): it has no UTF-8 form. */
const LONE_SURROGATE = 'Ann\uD800e';
let t: TestApp;
let hospital: string;
let patientCookie: string;
let patientId: string;

beforeAll(async () => {
  t = await createTestApp();
  hospital = (await signedInHospital(t.app)).cookie;
  const added = await addPatient(t.app, hospital);
  patientId = added.id;
  patientCookie = (await signedInPatient(t.app, added.patientId)).cookie;
});
afterAll(async () => t?.close());

describe('control and broken characters in text', () => {
  const cases = (NUL: string) => [
    ...(NUL.includes('\u0000')
      ? [{ name: 'patient search', method: 'GET', url: '/api/patients?search=%00', cookie: hospital }]
      : []),
    {
      name: 'add patient',
      method: 'POST',
      url: '/api/patients',
      cookie: hospital,
      payload: { firstName: NUL },
    },
    {
      name: 'edit patient',
      method: 'PUT',
      url: `/api/patients/${patientId}`,
      cookie: hospital,
      payload: { lastName: NUL },
    },
    {
      name: 'hospital settings',
      method: 'PUT',
      url: '/api/hospital/settings',
      cookie: hospital,
      payload: { hospitalName: NUL, adminEmail: 'a@example.test' },
    },
    {
      name: 'family contact',
      method: 'POST',
      url: '/api/family-contacts',
      cookie: patientCookie,
      payload: { firstName: NUL, lastName: 'Doe', relationship: 'Spouse' },
    },
    {
      name: 'appointment',
      method: 'POST',
      url: '/api/appointments',
      cookie: hospital,
      payload: {
        patientId,
        appointmentType: 'consultation',
        doctorName: `Dr ${NUL}`,
        department: 'cardiology',
        appointmentDate: new Date(Date.now() + 86_400_000).toISOString(),
      },
    },
    {
      name: 'signup (signed out)',
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'n@example.test',
        password: STRONG_PASSWORD,
        firstName: NUL,
        lastName: 'Doe',
        role: 'hospital',
        hospitalName: 'X Clinic',
      },
    },
  ];

  it.each([
    ['a control character', NUL, /control characters/],
    ['half of a surrogate pair', LONE_SURROGATE, /broken characters/],
  ])('answers 400 with a plain message to %s, never 500, and writes nothing', async (_, bad, message) => {
    const before = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie: hospital } });
    for (const c of cases(bad)) {
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: c.cookie ? { cookie: c.cookie } : {},
        ...(c.payload ? { payload: c.payload } : {}),
      });
      expect([c.name, res.statusCode]).toEqual([c.name, 400]);
      expect([c.name, res.json().message]).toEqual([c.name, expect.stringMatching(message)]);
    }
    const after = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie: hospital } });
    expect(after.json().total).toBe(before.json().total);
  });

  const addPatientWith = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/patients', headers: { cookie: hospital }, payload });

  it('keeps emoji and other characters outside the basic plane, whose surrogates come in pairs', async () => {
    const res = await addPatientWith({ firstName: 'Ann 🌼', lastName: '𠜎' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ firstName: 'Ann 🌼', lastName: '𠜎' });
  });

  it('keeps line breaks and tabs, which notes need', async () => {
    const res = await addPatientWith({ firstName: 'Ann', address: '1 Main St\r\n\tFlat 2' });
    expect(res.statusCode).toBe(201);
  });
});
