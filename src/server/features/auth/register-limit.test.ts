// Sign-ups are rate-limited per address and per MRN, counted in the database: an MRN cannot be
// guessed at full speed, each try no longer costs an argon2 hash without bound, and several app
// processes on one database share the counts (issue 9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/connect.js';
import {
  addPatient,
  createTestAppOn,
  createTestDatabase,
  patientSignup,
  signedInHospital,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.js';
import { MRN_RATE_LIMITED } from './service.js';

/**
 * Two app instances (two processes, as far as the rate limiter can tell) on one database, sharing
 * the file key as processes of one deployment must (the activation codes' HMAC key comes from it).
 */
const fileEncryptionKey = 'a1'.repeat(32);
let a: TestApp;
let b: TestApp;
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  const limits = { registerMaxPerIp: 3, registerMaxPerMrn: 4, fileEncryptionKey };
  a = await createTestAppOn({ ...database, close: async () => {} }, limits);
  b = await createTestAppOn(database, limits);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const guess = (t: TestApp, mrn: string, ip: string, activationCode = '00000-00000') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: ip,
    payload: {
      email: uniqueEmail('guesser'),
      password: STRONG_PASSWORD,
      firstName: 'Eve',
      lastName: 'Guesser',
      role: 'patient',
      mrn,
      activationCode,
    },
  });

describe('sign-up rate limit per address', () => {
  it('answers 429 with a message once an address has used its tries, and only that address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await guess(a, `MRN2026${String(100000 + i)}`, '10.20.30.40')).statusCode);
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]); // wrong MRNs, refused as usual
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await guess(a, 'MRN2026999999', '10.20.30.40');
    expect(limited.json().message).toMatch(/rate limit/i);
    expect((await guess(a, 'MRN2026999998', '10.20.30.41')).statusCode).toBe(400);
  });

  it('is shared by two app instances on one database', async () => {
    const ip = '10.20.31.1';
    const statuses = [
      (await guess(a, 'MRN2026200001', ip)).statusCode,
      (await guess(b, 'MRN2026200002', ip)).statusCode,
      (await guess(a, 'MRN2026200003', ip)).statusCode,
      // Each instance alone has seen at most two tries; together they have seen three.
      (await guess(b, 'MRN2026200004', ip)).statusCode,
      (await guess(a, 'MRN2026200005', ip)).statusCode,
    ];
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('counts the same way for the other public writes (password reset, shared too)', async () => {
    const ip = '10.20.32.1';
    const reset = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/api/password-reset',
        remoteAddress: ip,
        payload: { email: uniqueEmail('nobody') },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await reset(i % 2 ? b : a)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]); // 5 per 15 minutes over both
  });
});

describe('sign-up rate limit per MRN and address', () => {
  // Another instance whose per-address limit lies above the per-MRN one, so the MRN count answers.
  let c: TestApp;
  let now = new Date();
  beforeAll(async () => {
    c = await createTestAppOn(
      { ...database, close: async () => {} },
      { registerMaxPerIp: 100, registerMaxPerMrn: 4, fileEncryptionKey },
      { now: () => now },
    );
  });
  afterAll(() => c?.close());

  const signUpFrom = (t: TestApp, ip: string, patient: { patientId: string; activationCode: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: ip,
      payload: patientSignup(patient),
    });

  it('cannot lock a patient out: wrong codes from other addresses leave the right one working', async () => {
    const hospital = await signedInHospital(c.app);
    const target = await addPatient(c.app, hospital.cookie);
    const statuses: number[] = [];
    // Three times the limit on the one MRN, from many addresses, through both instances.
    for (let i = 0; i < 12; i++)
      statuses.push((await guess(i % 2 ? c : a, target.patientId, `10.21.${i % 3}.${i}`)).statusCode);
    expect(statuses).toEqual(Array(12).fill(400));
    const signup = await signUpFrom(c, '10.21.9.9', target);
    expect(signup.statusCode, signup.body).toBe(201);
  });

  it('answers 429 after 4 tries on one MRN from one address, even with the right code; other MRNs and addresses are not affected', async () => {
    const hospital = await signedInHospital(c.app);
    const target = await addPatient(c.app, hospital.cookie);
    const other = await addPatient(c.app, hospital.cookie);
    const ip = '10.22.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(c, target.patientId, ip)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400]);
    const limited = await signUpFrom(c, ip, target);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(MRN_RATE_LIMITED);
    expect((await signUpFrom(c, ip, other)).statusCode).toBe(201);
    expect((await signUpFrom(c, '10.22.0.2', target)).statusCode).toBe(201);
  });

  it('lets a new activation code from the hospital work at once, from the address that was refused', async () => {
    const hospital = await signedInHospital(c.app);
    const target = await addPatient(c.app, hospital.cookie);
    const ip = '10.23.0.1';
    for (let i = 0; i < 4; i++) await guess(c, target.patientId, ip);
    expect((await signUpFrom(c, ip, target)).statusCode).toBe(429);
    const reissued = await c.app.inject({
      method: 'POST',
      url: `/api/patients/${target.id}/activation-code`,
      headers: { cookie: hospital.cookie },
    });
    expect(reissued.statusCode).toBe(200);
    const fresh = { patientId: target.patientId, activationCode: reissued.json().activationCode };
    const signup = await signUpFrom(c, ip, fresh);
    expect(signup.statusCode, signup.body).toBe(201);
  });

  it('opens again when the hour is over', async () => {
    const hospital = await signedInHospital(c.app);
    const target = await addPatient(c.app, hospital.cookie);
    const ip = '10.24.0.1';
    for (let i = 0; i < 4; i++) await guess(c, target.patientId, ip);
    expect((await signUpFrom(c, ip, target)).statusCode).toBe(429);
    now = new Date(now.getTime() + 60 * 60_000 + 1000);
    expect((await signUpFrom(c, ip, target)).statusCode).toBe(201);
  });
});
