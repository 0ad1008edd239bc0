import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patients, sessions, users } from '../../db/schema.js';
import { SIGNUP_ANSWER } from '../../../shared/auth.js';
import { headerOf, outboxMessages } from '../../mail/read-message.js';
import {
  accountIdOf,
  auditRows,
  call,
  createTestApp,
  login,
  postRawJson,
  registerHospital,
  sessionCookie,
  STRONG_PASSWORD,
  type TestApp,
  uniqueEmail,
} from '../../test/helpers.js';
import { ACTIVATION_KEY_PURPOSE, issueActivationCode } from '../patients/activation.js';
import { createAdmin, MRN_NOT_MATCHED } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 3 });
});
afterAll(async () => t?.close());

/** The subjects of the mails sent to `to` so far, sorted (after the background mail is done). */
async function subjectsTo(to: string): Promise<string[]> {
  await t.ctx.mail.idle();
  return outboxMessages(t.ctx.mail.outboxDir)
    .filter((m) => headerOf(m, 'To') === to)
    .map((m) => headerOf(m, 'Subject') ?? '')
    .sort();
}

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
/** A patient's signup with an MRN and activation code (as typed: any case). */
const patientSignup = (mrn: string, activationCode: string, email = uniqueEmail()) =>
  register({
    email,
    password: STRONG_PASSWORD,
    firstName: 'P',
    lastName: 'Q',
    role: 'patient',
    mrn,
    activationCode,
  });
/** A hospital's signup form, filled in; `over` changes fields (undefined leaves one out). */
const signup = (over: Record<string, unknown> = {}) =>
  register({
    email: uniqueEmail(),
    password: STRONG_PASSWORD,
    ...{ firstName: 'A', lastName: 'B', role: 'hospital', hospitalName: 'H' },
    ...over,
  });

/** A patient row with this MRN and its activation code (as POST /api/patients makes them). */
async function addPatientRecord(mrn: string, email: string | null) {
  const { user } = await registerHospital(t.app);
  const [row] = await t.ctx.db
    .insert(patients)
    .values({ patientId: mrn, createdByHospitalId: user.id, email, firstName: 'Pat' })
    .returning();
  const settings = { key: t.ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE), days: 30 };
  const { code } = await issueActivationCode(t.ctx.db, settings, row.id, t.ctx.now());
  return { row, code };
}

describe('registration', () => {
  it('registers a hospital with its hospital name and starts it without a session', async () => {
    const email = uniqueEmail('h');
    const res = await register({
      email,
      password: STRONG_PASSWORD,
      firstName: 'Ann',
      lastName: 'Lee',
      role: 'hospital',
      hospitalName: 'St. Mary',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: SIGNUP_ANSWER });
    expect(res.cookies.find((c) => c.name === 'medledger_sid')).toBeUndefined();
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ role: 'hospital', hospitalName: 'St. Mary', lastLoginAt: null });
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect(await subjectsTo(email)).toEqual(['Welcome to MedLedger']);
  });

  it('answers a taken address (in any case) as it answers a new one, and mails its owner instead', async () => {
    const email = uniqueEmail('dup');
    const first = await signup({ email, firstName: 'Owner' });
    const fresh = await signup({ email: uniqueEmail('fresh') });
    const again = await signup({
      email: email.toUpperCase(),
      firstName: 'Other',
      password: 'An0ther!Passw0rd',
    });
    for (const res of [first, fresh, again]) {
      expect(res.statusCode).toBe(201);
      expect(res.body).toBe(JSON.stringify({ message: SIGNUP_ANSWER }));
    }
    const accounts = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(accounts).toHaveLength(1);
    expect(accounts[0].firstName).toBe('Owner');
    await login(t.app, email); // the owner's password is unchanged
    expect(await subjectsTo(email)).toEqual([
      'Welcome to MedLedger',
      'Your MedLedger account already exists',
    ]);
  });

  it("checks a patient's MRN and code before the address: a taken address gets the same refusal, and a right code back", async () => {
    const taken = (await registerHospital(t.app)).email;
    const { row, code } = await addPatientRecord('MRN2026000004', null);
    const wrongOnTaken = await patientSignup('MRN2026000004', 'AAAAA-AAAAA', taken);
    const wrongOnNew = await patientSignup('MRN2026000004', 'AAAAA-AAAAA', uniqueEmail());
    expect(wrongOnTaken.statusCode).toBe(400);
    expect(wrongOnTaken.body).toBe(wrongOnNew.body);

    const rightOnTaken = await patientSignup('MRN2026000004', code, taken);
    expect(rightOnTaken.statusCode).toBe(201);
    expect(rightOnTaken.json()).toEqual({ message: SIGNUP_ANSWER });
    // Nothing was claimed and the code was not used up: the patient can still sign up with it.
    const [patient] = await t.ctx.db.select().from(patients).where(eq(patients.id, row.id));
    expect(patient.userId).toBeNull();
    const email = uniqueEmail('p');
    expect((await patientSignup('MRN2026000004', code, email)).statusCode).toBe(201);
    expect(await subjectsTo(taken)).toEqual([
      'Welcome to MedLedger',
      'Your MedLedger account already exists',
    ]);
  });

  it('refuses a password shorter than 8 characters with the spec message', async () => {
    const res = await signup({ password: 'Ab1!' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password must be at least 8 characters long.');
  });

  it('refuses administrator signup', async () => {
    const res = await signup({ role: 'medledger_admin', hospitalName: undefined });
    expect(res.statusCode).toBe(403);
    expect(await t.ctx.db.select().from(users).where(eq(users.role, 'medledger_admin'))).toHaveLength(0);
  });

  it('requires a hospital name for hospitals and an MRN for patients', async () => {
    for (const [over, message] of [
      [{ hospitalName: undefined }, 'Hospital/Clinic name is required'],
      [{ role: 'patient', hospitalName: undefined }, 'Medical Record Number is required'],
    ] as const) {
      const res = await signup(over);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('lets a patient claim an existing MRN once, typed in lower case, with its code in lower case', async () => {
    const { code } = await addPatientRecord('MRN2026000001', null);
    const email = uniqueEmail('p');
    const res = await patientSignup('mrn2026000001', code.toLowerCase(), email);
    expect(res.statusCode).toBe(201);
    const [patient] = await t.ctx.db.select().from(patients).where(eq(patients.patientId, 'MRN2026000001'));
    expect(patient.userId).toBe(await accountIdOf(t.app, email));

    const second = await patientSignup('MRN2026000001', code, uniqueEmail('p2'));
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(MRN_NOT_MATCHED);
  });

  it('refuses an unknown MRN and an e-mail that differs from the one on file with the same message', async () => {
    const { code } = await addPatientRecord('MRN2026000002', 'Owner@Example.test');
    const unknown = await patientSignup('MRN2026999999', code, uniqueEmail());
    const wrongEmail = await patientSignup('MRN2026000002', code, uniqueEmail());
    expect(unknown.statusCode).toBe(400);
    expect(wrongEmail.statusCode).toBe(400);
    expect(unknown.json().message).toBe(wrongEmail.json().message);
    const matching = await patientSignup('MRN2026000002', code, 'owner@example.test');
    expect(matching.statusCode).toBe(201);
  });

  it('makes exactly one account of 20 simultaneous signups with one e-mail, all answered alike', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        register({
          email: i % 2 ? email.toUpperCase() : email,
          password: STRONG_PASSWORD,
          firstName: 'A',
          lastName: `B${i}`,
          role: 'hospital',
          hospitalName: 'H',
        }),
      ),
    );
    expect(new Set(results.map((r) => `${r.statusCode} ${r.body}`))).toEqual(
      new Set([`201 ${JSON.stringify({ message: SIGNUP_ANSWER })}`]),
    );
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    // One welcome; each of the others told the owner.
    const subjects = await subjectsTo(email);
    expect(subjects.filter((x) => x === 'Welcome to MedLedger')).toHaveLength(1);
    expect(subjects.filter((x) => x === 'Your MedLedger account already exists')).toHaveLength(19);
  });

  it('lets exactly one of 20 simultaneous signups claim one MRN, leaving no other account behind', async () => {
    const { code } = await addPatientRecord('MRN2026000003', null);
    const emails = Array.from({ length: 20 }, () => uniqueEmail('claim'));
    const results = await Promise.all(emails.map((email) => patientSignup('MRN2026000003', code, email)));
    const created = emails.filter((_, i) => results[i].statusCode === 201);
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(19);
    const [patient] = await t.ctx.db.select().from(patients).where(eq(patients.patientId, 'MRN2026000003'));
    expect(patient.userId).toBe(await accountIdOf(t.app, created[0]));
    const accounts = await Promise.all(
      emails.map((email) => t.ctx.db.select().from(users).where(eq(users.email, email))),
    );
    expect(accounts.flat()).toHaveLength(1);
  });
});

describe('login, session and logout', () => {
  it('signs in, writes a login audit entry with the IP, and /me returns the user', async () => {
    const { email, user } = await registerHospital(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: STRONG_PASSWORD },
      remoteAddress: '10.1.2.3',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: user.id, role: 'hospital' });
    const cookie = res.cookies.find((c) => c.name === 'medledger_sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const me = await call(t.app, 'GET', '/api/auth/me', sessionCookie(res));
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(email);

    const audits = await auditRows(t, { userId: user.id });
    expect(audits.map((a) => [a.action, a.ipAddress])).toContainEqual(['login', '10.1.2.3']);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.lastLoginAt).toBeInstanceOf(Date);
  });

  it('answers /me with 200 and no user when signed out or with an unknown cookie', async () => {
    const visitor = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect([visitor.statusCode, visitor.json()]).toEqual([200, { user: null }]);
    const bogus = await call(t.app, 'GET', '/api/auth/me', 'medledger_sid=nope');
    expect([bogus.statusCode, bogus.json()]).toEqual([200, { user: null }]);
  });

  it('rotates the session id at login: the old session no longer works', async () => {
    const { email } = await registerHospital(t.app);
    const first = await login(t.app, email);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: STRONG_PASSWORD },
      headers: { cookie: first },
    });
    const second = sessionCookie(res);
    expect(second).not.toBe(first);
    expect((await call(t.app, 'GET', '/api/auth/me', first)).json()).toEqual({ user: null });
    expect((await call(t.app, 'GET', '/api/auth/me', second)).json().user).toMatchObject({ email });
  });

  it('stores only a hash of the session id', async () => {
    const { email } = await registerHospital(t.app);
    const cookie = await login(t.app, email);
    const raw = cookie.split('=')[1];
    const rows = await t.ctx.db.select().from(sessions).where(eq(sessions.sid, raw));
    expect(rows).toHaveLength(0);
  });

  it('logs out: the session ends and the cookie is cleared', async () => {
    const { email } = await registerHospital(t.app);
    const cookie = await login(t.app, email);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'medledger_sid')?.value).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json()).toEqual({
      user: null,
    });
  });

  it('answers a wrong password and an unknown e-mail alike with 401 "Invalid credentials"', async () => {
    const { email } = await registerHospital(t.app);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail('x'), password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid credentials' });
    expect(unknown.json()).toEqual({ message: 'Invalid credentials' });
  });

  const attempt = (email: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

  it('stops a guesser at their own address, and never refuses the owner signing in from another', async () => {
    const { email } = await registerHospital(t.app);
    for (let i = 0; i < 3; i++)
      expect((await attempt(email, 'wrong-password', '10.9.9.1')).statusCode).toBe(401);
    const blocked = await attempt(email, STRONG_PASSWORD, '10.9.9.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    // The owner, from an address with no failures, is let in.
    expect((await attempt(email, STRONG_PASSWORD, '10.9.9.2')).statusCode).toBe(200);
  });

  it('counts parallel attempts exactly: 20 at once from one address give 3 answers of 401, the rest 429', async () => {
    const { email } = await registerHospital(t.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => attempt(email, 'wrong-password', '10.9.8.1')),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('throttles one address over all accounts at four times the limit', async () => {
    const emails = await Promise.all(
      Array.from({ length: 5 }, async () => (await registerHospital(t.app)).email),
    );
    const statuses: number[] = [];
    for (const email of emails) {
      for (let i = 0; i < 3; i++)
        statuses.push((await attempt(email, 'wrong-password', '10.9.7.1')).statusCode);
    }
    expect(statuses.slice(0, 12)).toEqual(Array(12).fill(401));
    expect(statuses.slice(12)).toEqual([429, 429, 429]);
  });

  it('returns the role so that each login screen can refuse the wrong one', async () => {
    const admin = await createAdmin(t.ctx.db, uniqueEmail('admin'), STRONG_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.user.email, password: STRONG_PASSWORD },
    });
    expect(res.json().user.role).toBe('medledger_admin');
  });
});

describe('patient sign-in audit', () => {
  it("puts a patient's login in their own trail and in their hospital's trail", async () => {
    const { user: hospital } = await registerHospital(t.app);
    const [patient] = await t.ctx.db
      .insert(patients)
      .values({ patientId: 'MRN2026000777', createdByHospitalId: hospital.id })
      .returning();
    const settings = { key: t.ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE), days: 30 };
    const { code } = await issueActivationCode(t.ctx.db, settings, patient.id, t.ctx.now());
    const email = uniqueEmail('pl');
    await patientSignup('MRN2026000777', code, email);
    await login(t.app, email);
    const rows = await auditRows(t, { patientId: patient.id });
    expect(rows.map((r) => [r.action, r.hospitalId])).toEqual([['login', hospital.id]]);
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400 and a message', async () => {
    const res = await postRawJson(t.app, '/api/auth/login', '{"email": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers wrong types with 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.test', password: 12345678 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('password must be a string');
    const arr = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: [1, 2] });
    expect(arr.statusCode).toBe(400);
    expect(typeof arr.json().message).toBe('string');
  });

  it('answers a missing body with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
  });

  it('accepts a state-changing request only from PUBLIC_URL (scheme, host and port)', async () => {
    const own = new URL(t.config.publicUrl);
    const logout = (headers: Record<string, string | undefined>) =>
      t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    const refused = [
      { origin: 'https://evil.example', host: own.host },
      // The attacker controls Host; matching it proves nothing.
      { origin: 'http://evil.example', host: 'evil.example' },
      { origin: `${own.protocol === 'http:' ? 'https:' : 'http:'}//${own.host}` },
      { origin: `${own.protocol}//${own.hostname}:1` },
      { origin: 'null' },
      { origin: undefined },
      { origin: undefined, 'sec-fetch-site': 'cross-site' },
      { origin: undefined, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) {
      const res = await logout(headers);
      expect([headers, res.statusCode]).toEqual([headers, 403]);
      expect(res.json().message).toBe('Cross-site request refused.');
    }
    expect((await logout({ origin: own.origin })).statusCode).toBe(200);
    expect((await logout({ origin: undefined, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    // Reading is not state-changing: no Origin needed.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ledger/head', headers: { origin: undefined } }))
        .statusCode,
    ).toBe(200);
  });

  it('answers unknown API paths with a JSON 404 and sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/auth/login');
  });
});
