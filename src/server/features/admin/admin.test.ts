// Account control (issue 9, items 6 and 7): the Users table, suspension and reactivation, verified
// providers, and the sign-in on the wrong portal that must not count as a sign-in.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_SUSPENDED, type AdminUser, type AdminUserPage } from '../../../shared/admin-users.js';
import { PORTAL_DENIED } from '../../../shared/auth.js';
import { providerApplications, sessions, users } from '../../db/schema.js';
import { linkTo, outboxMessages } from '../../mail/read-message.js';
import { completeSignIn } from '../auth/service.js';
import { samplePdf, uploadRecord } from '../records/testing.js';
import {
  addPatient,
  auditRows,
  call,
  enableTwoFactor,
  login,
  sessionCookie,
  signedInAdminWithoutTwoFactor,
  signedInHospital,
  signedInPatient,
  STRONG_PASSWORD,
  uniqueEmail,
  useCast,
} from '../../test/helpers.js';

const t = useCast({ config: { publicUrl: 'http://medledger.test' }, hospital: false, admin: true });

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const act = (id: string, action: 'suspend' | 'reactivate' | 'verify', cookie = t.admin.cookie) =>
  post(`/api/admin/users/${id}/${action}`, cookie);
const signIn = (email: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: STRONG_PASSWORD, ...extra },
  });
const me = async (cookie: string) => (await get('/api/auth/me', cookie)).json<{ user: unknown }>().user;
const userRow = async (id: string) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const auditsOn = (entityId: string, action: string) => auditRows(t, { entityId: entityId, action: action });

describe('GET /api/admin/users', () => {
  it('lists every role with status, verified flag and paging; searches and filters', async () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const hospital = await signedInHospital(t.app, `Lakeside ${tag} Clinic`);
    const patient = await addPatient(t.app, hospital.cookie);
    const account = await signedInPatient(t.app, patient.patientId, uniqueEmail(`pat-${tag}`));

    const all = (await get('/api/admin/users?pageSize=100', t.admin.cookie)).json<AdminUserPage>();
    expect(all).toMatchObject({ page: 1, pageSize: 100 });
    expect(all.total).toBeGreaterThanOrEqual(3);
    const roles = new Set(all.items.map((u) => u.role));
    expect(roles).toEqual(new Set(['medledger_admin', 'hospital', 'patient']));
    const h = all.items.find((u) => u.id === hospital.userId)!;
    expect(h).toMatchObject({
      role: 'hospital',
      hospitalName: `Lakeside ${tag} Clinic`,
      status: 'active',
      verified: false,
      suspendedAt: null,
    });
    expect(all.items.find((u) => u.id === account.userId)).toMatchObject({ role: 'patient', verified: null });
    // No password hash or secret leaves the server.
    expect(JSON.stringify(all)).not.toMatch(/argon2|password/i);

    const byName = (
      await get(`/api/admin/users?search=lakeside%20${tag}`, t.admin.cookie)
    ).json<AdminUserPage>();
    expect(byName.items.map((u) => u.id)).toEqual([hospital.userId]);
    const byEmail = (await get(`/api/admin/users?search=PAT-${tag}`, t.admin.cookie)).json<AdminUserPage>();
    expect(byEmail.items.map((u) => u.id)).toEqual([account.userId]);
    // % and _ are searched as themselves, not as wildcards.
    expect((await get('/api/admin/users?search=%25', t.admin.cookie)).json<AdminUserPage>().total).toBe(0);

    const admins = (await get('/api/admin/users?role=medledger_admin', t.admin.cookie)).json<AdminUserPage>();
    expect(admins.items.every((u) => u.role === 'medledger_admin')).toBe(true);
    expect(admins.items.map((u) => u.id)).toContain(t.admin.userId);

    const unverified = (
      await get('/api/admin/users?status=unverified&pageSize=100', t.admin.cookie)
    ).json<AdminUserPage>();
    expect(unverified.items.every((u) => u.role === 'hospital' && u.verified === false)).toBe(true);
    expect(unverified.items.map((u) => u.id)).toContain(hospital.userId);

    const pageOne = (await get('/api/admin/users?pageSize=1&page=1', t.admin.cookie)).json<AdminUserPage>();
    const pageTwo = (await get('/api/admin/users?pageSize=1&page=2', t.admin.cookie)).json<AdminUserPage>();
    expect(pageOne.items).toHaveLength(1);
    expect(pageTwo.items).toHaveLength(1);
    expect(pageOne.items[0].id).not.toBe(pageTwo.items[0].id);
    expect(pageOne.total).toBe(all.total);
  });

  it('answers 400 with a message to a bad filter, 401 signed out and 403 to other roles', async () => {
    const bad = await get('/api/admin/users?role=superuser', t.admin.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/role must be one of/);
    expect((await get('/api/admin/users?status=gone', t.admin.cookie)).statusCode).toBe(400);
    expect((await get('/api/admin/users?search=%00', t.admin.cookie)).statusCode).toBe(400);
    expect((await get('/api/admin/users')).statusCode).toBe(401);
    const hospital = await signedInHospital(t.app);
    expect((await get('/api/admin/users', hospital.cookie)).statusCode).toBe(403);
  });
});

describe('suspension', () => {
  it('ends every session at once, refuses sign-in with 403, and reactivation lets it in again', async () => {
    const hospital = await signedInHospital(t.app, 'Suspended Clinic');
    const second = await login(t.app, hospital.email);
    expect(await me(hospital.cookie)).not.toBeNull();

    const res = await act(hospital.userId, 'suspend');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: AdminUser; message: string }>()).toMatchObject({
      user: { id: hospital.userId, status: 'suspended' },
      message: 'The account has been suspended; 2 sessions ended, 0 share links and 0 family grants stopped.',
    });
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, hospital.userId))).toEqual([]);
    // Both cookies stop working at once: signed out, and the hospital's routes answer 401.
    expect(await me(hospital.cookie)).toBeNull();
    expect(await me(second)).toBeNull();
    expect((await get('/api/patients', second)).statusCode).toBe(401);

    const refused = await signIn(hospital.email, { portal: 'hospital' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ACCOUNT_SUSPENDED);
    expect(refused.cookies.find((c) => c.name === 'medledger_sid')).toBeUndefined();
    // A wrong password still reads as one: the suspension is told only to whoever knows the password.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: hospital.email, password: 'Wrong!Passw0rd' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await userRow(hospital.userId)).suspendedAt).not.toBeNull();

    const again = await act(hospital.userId, 'suspend');
    expect(again.statusCode).toBe(409);

    const back = await act(hospital.userId, 'reactivate');
    expect(back.statusCode).toBe(200);
    expect(back.json().user).toMatchObject({ status: 'active', suspendedAt: null });
    const cookie = await login(t.app, hospital.email);
    expect(await me(cookie)).toMatchObject({ id: hospital.userId });
    expect((await act(hospital.userId, 'reactivate')).statusCode).toBe(409);

    const suspendAudit = await auditsOn(hospital.userId, 'account_suspend');
    expect(suspendAudit).toHaveLength(1);
    expect(suspendAudit[0]).toMatchObject({ userId: t.admin.userId, hospitalId: hospital.userId });
    expect(suspendAudit[0].details).toMatch(/Suspended the account .* \(hospital\); ended 2 sessions/);
    expect(await auditsOn(hospital.userId, 'account_reactivate')).toHaveLength(1);
  });

  it('refuses a suspended account with two-factor sign-in at the password step, and after the code', async () => {
    const hospital = await signedInHospital(t.app);
    const { auth } = await enableTwoFactor(t, hospital.cookie);
    // The password step passed; the account is suspended before the code is sent.
    const first = await signIn(hospital.email);
    expect(first.json()).toMatchObject({ twoFactorRequired: true });
    const pending = first.cookies.find((c) => c.name === 'medledger_2fa')!;
    expect((await act(hospital.userId, 'suspend')).statusCode).toBe(200);
    const code = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      headers: { cookie: `medledger_2fa=${pending.value}` },
      payload: { code: await auth.next() },
    });
    expect(code.statusCode).toBeGreaterThanOrEqual(400);
    expect(code.cookies.find((c) => c.name === 'medledger_sid')).toBeUndefined();
    // With the right password, a suspended account is told so before any code is asked for.
    const refused = await signIn(hospital.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ACCOUNT_SUSPENDED);
    expect(refused.cookies.find((c) => c.name === 'medledger_2fa')).toBeUndefined();
  });

  it('refuses to finish a sign-in whose account was suspended after its checks passed', async () => {
    const hospital = await signedInHospital(t.app);
    const checked = await userRow(hospital.userId);
    expect((await act(hospital.userId, 'suspend')).statusCode).toBe(200);
    // The row read before the suspension, as the code step holds it: the sign-in still stops.
    await expect(completeSignIn(t.ctx.db, checked, '10.1.1.1', new Date())).rejects.toMatchObject({
      statusCode: 403,
      message: ACCOUNT_SUSPENDED,
    });
    expect((await userRow(hospital.userId)).lastLoginAt).toEqual(checked.lastLoginAt);
    expect(await auditsOn(hospital.userId, 'login')).toHaveLength(1);
  });

  it('suspends patients too, but never the administrator themself', async () => {
    const hospital = await signedInHospital(t.app);
    const patient = await addPatient(t.app, hospital.cookie);
    const account = await signedInPatient(t.app, patient.patientId);
    expect((await act(account.userId, 'suspend')).statusCode).toBe(200);
    expect(await me(account.cookie)).toBeNull();
    expect((await signIn(account.email, { portal: 'patient' })).json().message).toBe(ACCOUNT_SUSPENDED);

    // The patient's calendar feed (its token stands in for a session) stops with the suspension.
    expect((await act(account.userId, 'reactivate')).statusCode).toBe(200);
    const patientCookie = await login(t.app, account.email);
    const feed = await post('/api/calendar/feed', patientCookie);
    expect(feed.statusCode, feed.body).toBe(200);
    const feedPath = new URL(feed.json<{ url: string }>().url).pathname;
    expect((await get(feedPath)).statusCode).toBe(200);
    expect((await act(account.userId, 'suspend')).statusCode).toBe(200);
    expect((await get(feedPath)).statusCode).toBe(404);

    const self = await act(t.admin.userId, 'suspend');
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot suspend your own account.');
    expect((await userRow(t.admin.userId)).suspendedAt).toBeNull();
    expect((await act('00000000-0000-4000-8000-000000000000', 'suspend')).statusCode).toBe(404);
    expect((await act('not-a-uuid', 'reactivate')).statusCode).toBe(404);
  });

  it('is refused to other roles and to an administrator without two-factor sign-in', async () => {
    const hospital = await signedInHospital(t.app);
    const other = await signedInHospital(t.app);
    expect((await act(other.userId, 'suspend', hospital.cookie)).statusCode).toBe(403);
    expect((await post(`/api/admin/users/${other.userId}/suspend`)).statusCode).toBe(401);
    const weak = await signedInAdminWithoutTwoFactor(t);
    for (const action of ['suspend', 'reactivate', 'verify'] as const) {
      const res = await act(other.userId, action, weak.cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/two-factor sign-in/);
    }
    // Nor may it read the directory: without two-factor, nothing but the set-up (issue 56).
    expect((await get('/api/admin/users', weak.cookie)).statusCode).toBe(403);
    expect((await userRow(other.userId)).suspendedAt).toBeNull();
  });
});

describe('verified providers', () => {
  it('a self-signed-up hospital is not verified until an administrator verifies it; records and /verify say so', async () => {
    const hospital = await signedInHospital(t.app, 'Walk-in Clinic');
    const patient = await addPatient(t.app, hospital.cookie);
    const account = await signedInPatient(t.app, patient.patientId);
    const pdf = samplePdf(`verified-provider ${crypto.randomUUID()}`);
    const upload = await uploadRecord(t.app, hospital.cookie, patient.id, {
      files: [{ fileName: 'scan.pdf', bytes: pdf }],
    });
    expect(upload.statusCode).toBe(201);
    const record = upload.json<{ id: string; providerVerified: boolean; blockchainHash: string }>();
    expect(record.providerVerified).toBe(false);
    const sha = crypto.createHash('sha256').update(pdf).digest('hex');

    const view = async (cookie: string) =>
      (await get(`/api/medical-records/record/${record.id}`, cookie)).json<{ providerVerified: boolean }>();
    const listed = async () => {
      const body = (await get(`/api/medical-records/${account.userId}`, account.cookie)).json<
        { id: string; providerVerified: boolean }[] | { items: { id: string; providerVerified: boolean }[] }
      >();
      return (Array.isArray(body) ? body : body.items).find((r) => r.id === record.id)!;
    };
    const publicCheck = async () => (await get(`/api/ledger/files/${sha}`)).json();
    const entryCheck = async () => (await get(`/api/ledger/entries/${record.blockchainHash}`)).json();

    expect((await view(account.cookie)).providerVerified).toBe(false);
    expect((await view(hospital.cookie)).providerVerified).toBe(false);
    expect((await listed()).providerVerified).toBe(false);
    expect(await publicCheck()).toMatchObject({ found: true, providerVerified: false });
    expect(await entryCheck()).toMatchObject({ hash: record.blockchainHash, providerVerified: false });

    const verified = await act(hospital.userId, 'verify');
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ verified: true });
    expect((await view(account.cookie)).providerVerified).toBe(true);
    expect((await view(hospital.cookie)).providerVerified).toBe(true);
    expect((await listed()).providerVerified).toBe(true);
    const after = await publicCheck();
    expect(after).toMatchObject({ found: true, providerVerified: true });
    expect(await entryCheck()).toMatchObject({ hash: record.blockchainHash, providerVerified: true });
    // The public answer says "verified", never which hospital.
    expect(JSON.stringify(after)).not.toMatch(/Walk-in/);
    expect((await get(`/api/ledger/files/${'0'.repeat(64)}`)).json()).toMatchObject({
      found: false,
      providerVerified: null,
    });

    expect((await act(hospital.userId, 'verify')).statusCode).toBe(409);
    const notHospital = await act(account.userId, 'verify');
    expect(notHospital.statusCode).toBe(400);
    expect(notHospital.json().message).toMatch(/Only hospital accounts/);
    const audit = await auditsOn(hospital.userId, 'provider_verify');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: t.admin.userId, hospitalId: hospital.userId });
  });

  it('a hospital registered through an approved application is verified from the start', async () => {
    const contactEmail = uniqueEmail('contact');
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/provider-applications',
      payload: { hospitalName: 'Vetted Clinic', contactName: 'Vera Vet', contactEmail },
      remoteAddress: '10.9.0.1',
    });
    expect(submitted.statusCode).toBe(201);
    const id = submitted.json().application.id as string;
    const reviewed = await call(t.app, 'PATCH', `/api/provider-applications/${id}/review`, t.admin.cookie, {
      status: 'approved',
    });
    expect(reviewed.statusCode).toBe(200);
    const mail = outboxMessages(t.ctx.mail.outboxDir)
      .filter((m) => m.includes(contactEmail))
      .at(-1)!;
    const token = new URL(linkTo(mail, '/provider-register')!).searchParams.get('token');
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/provider-register',
      payload: { token, password: STRONG_PASSWORD, firstName: 'Vera', lastName: 'Vet' },
    });
    expect(registered.statusCode).toBe(201);
    const userId = registered.json().user.id as string;
    expect((await userRow(userId)).verifiedAt).not.toBeNull();
    const [application] = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, id));
    expect(application.userId).toBe(userId);
    const listed = (
      await get('/api/admin/users?status=verified&pageSize=100', t.admin.cookie)
    ).json<AdminUserPage>();
    expect(listed.items.find((u) => u.id === userId)).toMatchObject({
      verified: true,
      hospitalName: 'Vetted Clinic',
    });
  });
});

describe('signing in on another role’s page', () => {
  it('refuses the right password with 403 and leaves lastLoginAt, the audit and the sessions as they were', async () => {
    const hospital = await signedInHospital(t.app);
    const patient = await addPatient(t.app, hospital.cookie);
    const account = await signedInPatient(t.app, patient.patientId);
    const before = await userRow(account.userId);
    const loginsBefore = await auditsOn(account.userId, 'login');

    const res = await signIn(account.email, { portal: 'hospital' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(PORTAL_DENIED.hospital);
    expect(res.cookies.find((c) => c.name === 'medledger_sid')).toBeUndefined();
    expect((await signIn(account.email, { portal: 'admin' })).json().message).toBe(PORTAL_DENIED.admin);
    expect((await signIn(hospital.email, { portal: 'patient' })).json().message).toBe(PORTAL_DENIED.patient);
    expect((await userRow(account.userId)).lastLoginAt).toEqual(before.lastLoginAt);
    expect(await auditsOn(account.userId, 'login')).toHaveLength(loginsBefore.length);

    // The right page signs in, and reports the sign-in before it (not the refused ones) as lastLoginAt.
    const ok = await signIn(account.email, { portal: 'patient' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.lastLoginAt).toBe(before.lastLoginAt!.toISOString());
    expect(await me(sessionCookie(ok))).toMatchObject({ id: account.userId });
    // A wrong password on any page is still "Invalid credentials", never "Access Denied".
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'Wrong!Passw0rd', portal: 'hospital' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await signIn(account.email, { portal: 'nurse' })).statusCode).toBe(400);
  });
});
