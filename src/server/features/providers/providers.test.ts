import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PROVIDER_MESSAGES, VERIFICATION_MESSAGES } from '../../../shared/providers.js';
import { providerApplications, subscriptions, users } from '../../db/schema.js';
import { linkTo, outboxMessages } from '../../mail/read-message.js';
import {
  auditRows,
  call,
  createTestApp,
  expectStatus,
  login,
  signedInAdmin,
  signedInHospital,
  signedInStaff,
  STRONG_PASSWORD,
  uniqueEmail,
  useCast,
} from '../../test/helpers.js';
import { LINK_EXPIRED, LINK_INVALID, LINK_USED, NOT_PENDING } from './service.js';

// A clock the tests move: token expiry and trials are measured against it.
let clock = new Date('2030-03-01T09:00:00Z');
const t = useCast({
  config: { publicUrl: 'http://medledger.test' },
  options: { now: () => clock },
  patient: false,
  admin: true,
});

let address = 0;
/** Each submission comes from its own address unless told, so the rate limit stays out of the way. */
const apply = (payload: Record<string, unknown>, remoteAddress = `10.0.0.${++address % 250}`) =>
  t.app.inject({ method: 'POST', url: '/api/provider-applications', payload, remoteAddress });

const validApplication = (overrides: Record<string, unknown> = {}) => ({
  hospitalName: 'Riverside Clinic',
  website: 'https://riverside.example',
  address: '1 River Road',
  contactName: 'Rita Rivers',
  contactEmail: uniqueEmail('contact'),
  contactPhone: '+1 555 0100',
  npiNumber: '1234567890',
  licenseNumber: 'LIC-42',
  ...overrides,
});

const review = (id: string, status: string, cookie = t.admin.cookie) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/provider-applications/${id}/review`,
    headers: { cookie },
    payload: { status },
  });

const registerWith = (token: unknown, overrides: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/provider-register',
    payload: { token, password: STRONG_PASSWORD, firstName: 'Rita', lastName: 'Rivers', ...overrides },
    remoteAddress: `10.1.0.${++address % 250}`,
  });

const outbox = () => outboxMessages(t.ctx.mail.outboxDir);

/** Submits and approves an application; returns it with the token taken from the e-mail. */
async function approvedApplication(overrides: Record<string, unknown> = {}) {
  const payload = validApplication(overrides);
  const submitted = await apply(payload);
  expect(submitted.statusCode).toBe(201);
  const id = submitted.json().application.id as string;
  const before = outbox().length;
  const res = await review(id, 'approved');
  expect(res.statusCode).toBe(200);
  const messages = outbox();
  expect(messages).toHaveLength(before + 1);
  const link = linkTo(messages[messages.length - 1], '/provider-register');
  expect(link).toBeDefined();
  const token = new URL(link!).searchParams.get('token')!;
  return { id, payload, token };
}

describe('applying', () => {
  it('stores a valid application as pending and answers with its hospital name', async () => {
    const payload = validApplication({ website: 'riverside.example', contactEmail: 'Rita@Example.TEST ' });
    const res = await apply(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json().application).toMatchObject({ hospitalName: 'Riverside Clinic', status: 'pending' });
    const [row] = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, res.json().application.id));
    expect(row).toMatchObject({
      contactEmail: 'rita@example.test',
      website: 'https://riverside.example/',
      npiNumber: '1234567890',
      tokenSelector: null,
    });
  });

  it('keeps optional fields empty as null', async () => {
    const res = await apply({
      hospitalName: 'Hill Clinic',
      contactName: 'Hal Hill',
      contactEmail: uniqueEmail(),
      website: '',
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, res.json().application.id));
    expect(row).toMatchObject({
      website: null,
      contactPhone: null,
      npiNumber: null,
      licenseNumber: null,
      address: null,
    });
  });

  it.each([
    [{ hospitalName: 'A' }, PROVIDER_MESSAGES.hospitalName],
    [{ hospitalName: undefined }, PROVIDER_MESSAGES.hospitalName],
    [{ website: 'not a url' }, PROVIDER_MESSAGES.website],
    [{ website: 'javascript:alert(1)' }, PROVIDER_MESSAGES.website],
    [{ contactName: ' B ' }, PROVIDER_MESSAGES.contactName],
    [{ contactEmail: 'nobody' }, PROVIDER_MESSAGES.contactEmail],
  ])('refuses %o with the spec message', async (change, message) => {
    const res = await apply(validApplication(change));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('refuses a second pending application for the same contact e-mail, in any case', async () => {
    const email = uniqueEmail('twice');
    expect((await apply(validApplication({ contactEmail: email }))).statusCode).toBe(201);
    const again = await apply(validApplication({ contactEmail: email.toUpperCase(), hospitalName: 'Other' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PROVIDER_MESSAGES.duplicatePending);
  });

  it('keeps exactly one pending application when 20 for one contact e-mail arrive at once', async () => {
    const email = uniqueEmail('racing');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        apply(
          validApplication({
            contactEmail: i % 2 ? email.toUpperCase() : email,
            hospitalName: `Clinic ${i}`,
          }),
          `10.9.0.${i + 1}`,
        ),
      ),
    );
    const refused = results.filter((r) => r.statusCode === 409);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(refused.every((r) => r.json().message === PROVIDER_MESSAGES.duplicatePending)).toBe(true);
    const rows = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.contactEmail, email));
    expect(rows.map((r) => r.status)).toEqual(['pending']);
  });

  it('accepts a new application once the earlier one has been reviewed', async () => {
    const email = uniqueEmail('again');
    const first = await apply(validApplication({ contactEmail: email }));
    expect((await review(first.json().application.id, 'rejected')).statusCode).toBe(200);
    expect((await apply(validApplication({ contactEmail: email }))).statusCode).toBe(201);
  });

  it('limits applications from one address to 10 an hour', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await apply(validApplication(), '192.0.2.77')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('listing applications', () => {
  it('answers 401 when signed out and 403 for a hospital', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/provider-applications' })).statusCode).toBe(401);
    const res = await call(t.app, 'GET', '/api/provider-applications', t.hospital.cookie);
    expect(res.statusCode).toBe(403);
  });

  it('lists every application, newest first, with the fields of the spec for the administrator', async () => {
    const payload = validApplication({ hospitalName: 'Listed Hospital' });
    await apply(payload);
    const res = await call(t.app, 'GET', '/api/provider-applications', t.admin.cookie);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 1, pageSize: 50 });
    const list = page.items;
    expect(page.total).toBe(list.length);
    const times = list.map((a: { createdAt: string }) => a.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const found = list.find((a: { contactEmail: string }) => a.contactEmail === payload.contactEmail);
    expect(found).toMatchObject({
      hospitalName: 'Listed Hospital',
      contactName: 'Rita Rivers',
      contactPhone: '+1 555 0100',
      website: 'https://riverside.example/',
      npiNumber: '1234567890',
      licenseNumber: 'LIC-42',
      address: '1 River Road',
      status: 'pending',
      hospitalUserId: null,
    });
    expect(typeof found.createdAt).toBe('string');
    expect(JSON.stringify(list)).not.toMatch(/token/i);
  });
});

describe('reviewing', () => {
  it('answers 401 signed out, 403 for a hospital, 404 for unknown or malformed ids', async () => {
    const id = (await apply(validApplication())).json().application.id as string;
    const signedOut = await t.app.inject({
      method: 'PATCH',
      url: `/api/provider-applications/${id}/review`,
      payload: { status: 'approved' },
    });
    expect(signedOut.statusCode).toBe(401);
    expect((await review(id, 'approved', t.hospital.cookie)).statusCode).toBe(403);
    expect((await review(crypto.randomUUID(), 'approved')).statusCode).toBe(404);
    expect((await review('1 or 1=1', 'approved')).statusCode).toBe(404);
    expect((await review(id, 'pending')).statusCode).toBe(400);
    // Nothing above changed it.
    const [row] = await t.ctx.db.select().from(providerApplications).where(eq(providerApplications.id, id));
    expect(row.status).toBe('pending');
  });

  it('approves: records reviewer and time, audits, stores only a hash of the verifier, e-mails the link', async () => {
    const { id, payload, token } = await approvedApplication();
    const [row] = await t.ctx.db.select().from(providerApplications).where(eq(providerApplications.id, id));
    expect(row.status).toBe('approved');
    expect(row.reviewedBy).toBe(t.admin.userId);
    expect(row.reviewedAt?.toISOString()).toBe(clock.toISOString());
    expect(row.tokenExpiresAt?.getTime()).toBe(clock.getTime() + 72 * 3600_000);
    const [selector, verifier] = token.split('.');
    expect(row.tokenSelector).toBe(selector);
    expect(row.tokenVerifierHash).toBe(crypto.createHash('sha256').update(verifier).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(verifier);
    const mail = outbox().at(-1)!;
    expect(mail).toContain(`To: ${payload.contactEmail}`);
    expect(linkTo(mail, '/provider-register')).toMatch(
      /^http:\/\/medledger\.test\/provider-register\?token=/,
    );
    const audit = await auditRows(t, { entityId: id, action: 'application_review' });
    expect(audit).toHaveLength(1);
    expect(audit[0].userId).toBe(t.admin.userId);
  });

  it('rejects with a polite e-mail and no registration link', async () => {
    const payload = validApplication();
    const id = (await apply(payload)).json().application.id as string;
    const res = await review(id, 'rejected');
    expect(res.statusCode).toBe(200);
    expect(res.json().application.status).toBe('rejected');
    const mail = outbox().at(-1)!;
    expect(mail).toContain(`To: ${payload.contactEmail}`);
    expect(mail).toContain('unable to approve');
    expect(linkTo(mail, '/provider-register')).toBeUndefined();
    const [row] = await t.ctx.db.select().from(providerApplications).where(eq(providerApplications.id, id));
    expect(row.tokenSelector).toBeNull();
  });

  it('lets exactly one of 10 simultaneous reviews of one application through, mailing once', async () => {
    const payload = validApplication();
    const id = (await apply(payload)).json().application.id as string;
    const mailsTo = () => outbox().filter((m) => m.includes(`To: ${payload.contactEmail}`));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => review(id, i % 2 ? 'rejected' : 'approved')),
    );
    const refused = results.filter((r) => r.statusCode === 409);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(refused).toHaveLength(9);
    expect(refused.every((r) => r.json().message === NOT_PENDING)).toBe(true);
    expect(mailsTo()).toHaveLength(1);
    const audits = await auditRows(t, { entityId: id });
    expect(audits).toHaveLength(1);
  });

  it('refuses to review an application that has already been reviewed (409), sending nothing', async () => {
    const { id } = await approvedApplication();
    const before = outbox().length;
    for (const status of ['approved', 'rejected']) {
      const res = await review(id, status);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(NOT_PENDING);
    }
    expect(outbox()).toHaveLength(before);
  });

  it('leaves the application pending when the e-mail cannot be sent', async () => {
    const broken = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9', logLevel: 'silent' });
    try {
      const a = await signedInAdmin(broken);
      const sub = await broken.app.inject({
        method: 'POST',
        url: '/api/provider-applications',
        payload: validApplication(),
      });
      const id = sub.json().application.id as string;
      const res = await call(broken.app, 'PATCH', `/api/provider-applications/${id}/review`, a.cookie, {
        status: 'approved',
      });
      expect(res.statusCode).toBe(503);
      const [row] = await broken.ctx.db
        .select()
        .from(providerApplications)
        .where(eq(providerApplications.id, id));
      expect(row).toMatchObject({ status: 'pending', reviewedBy: null, tokenSelector: null });
      expect(await auditRows(broken, { entityId: id })).toHaveLength(0);
    } finally {
      await broken.close();
    }
  });
});

describe('registering from the e-mailed link', () => {
  it('creates the hospital account with the application hospital name and starts a 7-day trial', async () => {
    const { id, payload, token } = await approvedApplication({ hospitalName: 'Lakeside Hospital' });
    const res = await registerWith(token, { firstName: 'Lee', lastName: 'Lake' });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({
      email: payload.contactEmail,
      role: 'hospital',
      hospitalName: 'Lakeside Hospital',
      firstName: 'Lee',
      lastName: 'Lake',
    });
    const userId = res.json().user.id as string;
    const [sub] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(sub.status).toBe('trialing');
    expect(sub.trialEndsAt?.getTime()).toBe(clock.getTime() + 7 * 86_400_000);
    const [row] = await t.ctx.db.select().from(providerApplications).where(eq(providerApplications.id, id));
    expect(row).toMatchObject({ tokenUsed: true, userId });
    const audit = await auditRows(t, { userId: userId, action: 'provider_register' });
    expect(audit).toHaveLength(1);
    await login(t.app, payload.contactEmail);
  });

  it('refuses a token used once already and creates nothing more', async () => {
    const { payload, token } = await approvedApplication();
    expect((await registerWith(token)).statusCode).toBe(201);
    const again = await registerWith(token, { password: 'An0ther!Passw0rd' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(LINK_USED);
    await login(t.app, payload.contactEmail); // the first password still holds
  });

  it('lets only one of two simultaneous registrations through', async () => {
    const { payload, token } = await approvedApplication();
    const results = await Promise.all([registerWith(token), registerWith(token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, payload.contactEmail));
    expect(rows).toHaveLength(1);
  });

  it('refuses a token after 72 hours, and accepts it just before', async () => {
    const start = clock;
    try {
      const late = await approvedApplication();
      const inTime = await approvedApplication();
      clock = new Date(start.getTime() + 72 * 3600_000);
      const res = await registerWith(late.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(LINK_EXPIRED);
      clock = new Date(start.getTime() + 72 * 3600_000 - 1000);
      expect((await registerWith(inTime.token)).statusCode).toBe(201);
      const [row] = await t.ctx.db.select().from(users).where(eq(users.email, late.payload.contactEmail));
      expect(row).toBeUndefined();
    } finally {
      clock = start;
    }
  });

  it('refuses a tampered verifier, a made-up selector and malformed tokens as invalid', async () => {
    const { payload, token } = await approvedApplication();
    const [selector, verifier] = token.split('.');
    const flipped = verifier.slice(0, -1) + (verifier.endsWith('A') ? 'B' : 'A');
    const otherSelector = crypto.randomBytes(16).toString('base64url');
    for (const bad of [
      `${selector}.${flipped}`,
      `${otherSelector}.${verifier}`,
      selector,
      'x.y',
      '',
      `${token}.x`,
    ]) {
      const res = await registerWith(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(LINK_INVALID);
    }
    expect((await registerWith(undefined)).json().message).toBe(LINK_INVALID);
    // The real token still works afterwards.
    expect((await registerWith(token)).statusCode).toBe(201);
    await login(t.app, payload.contactEmail);
  });

  it('refuses an empty name or a short password without using the token up', async () => {
    const { token } = await approvedApplication();
    const short = await registerWith(token, { password: 'Ab1!' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 8 characters long.');
    const noName = await registerWith(token, { firstName: ' ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('First name is required');
    // Refusals for bad input did not use the token up.
    expect((await registerWith(token)).statusCode).toBe(201);
  });

  it('refuses when the contact e-mail already has an account, keeping the link usable', async () => {
    const existing = await signedInHospital(t.app);
    const { id, token } = await approvedApplication({ contactEmail: existing.email });
    const res = await registerWith(token);
    expect(res.statusCode).toBe(409);
    const [row] = await t.ctx.db.select().from(providerApplications).where(eq(providerApplications.id, id));
    expect(row).toMatchObject({ tokenUsed: false, userId: null });
  });
});

describe('sending a new link', () => {
  const resend = (id: string, cookie = t.admin.cookie) =>
    t.app.inject({
      method: 'POST',
      url: `/api/provider-applications/${id}/resend-link`,
      headers: { cookie },
    });

  it('replaces the link of an approved application: the old one stops working, the new one works', async () => {
    const { id, token: oldToken } = await approvedApplication();
    expect((await resend(id, t.hospital.cookie)).statusCode).toBe(403);
    const res = await resend(id);
    expect(res.statusCode).toBe(200);
    const newToken = new URL(linkTo(outbox().at(-1)!, '/provider-register')!).searchParams.get('token')!;
    expect(newToken).not.toBe(oldToken);
    expect((await registerWith(oldToken)).json().message).toBe(LINK_INVALID);
    expect((await registerWith(newToken)).statusCode).toBe(201);
    expect((await resend(id)).statusCode).toBe(409);
  });

  it('refuses pending applications and unknown ids', async () => {
    const id = (await apply(validApplication())).json().application.id as string;
    expect((await resend(id)).statusCode).toBe(409);
    expect((await resend(crypto.randomUUID())).statusCode).toBe(404);
    expect((await resend('nope')).statusCode).toBe(404);
  });
});

describe('a self-signed-up hospital asking to be verified', () => {
  const verification = (cookie: string, payload?: Record<string, unknown>) =>
    payload === undefined
      ? call(t.app, 'GET', '/api/hospital/verification', cookie)
      : call(t.app, 'POST', '/api/hospital/verification', cookie, payload);

  it('waits for review as an application; approving verifies the account and mails no link', async () => {
    const hospital = await signedInHospital(t.app, 'Hillside Surgery');
    const me = async () =>
      expectStatus<{ user: { providerVerified?: boolean } }>(
        await call(t.app, 'GET', '/api/auth/me', hospital.cookie),
        200,
      ).user.providerVerified;
    expect(await me()).toBe(false);
    expect(expectStatus(await verification(hospital.cookie), 200)).toEqual({
      verified: false,
      verifiedAt: null,
      request: null,
    });
    // A clinician of the hospital may not ask on its behalf.
    const clinician = await signedInStaff(t, hospital.cookie, 'clinician');
    expect((await verification(clinician.cookie, {})).statusCode).toBe(403);
    expect((await verification(hospital.cookie, { npiNumber: 'x'.repeat(51) })).statusCode).toBe(400);

    const asked = expectStatus<{ request: { id: string; status: string }; message: string }>(
      await verification(hospital.cookie, { npiNumber: '1234567890', website: 'https://hillside.example' }),
      201,
    );
    expect(asked.request.status).toBe('pending');
    expect(asked.message).toBe(VERIFICATION_MESSAGES.submitted);
    expect(expectStatus(await verification(hospital.cookie, {}), 409)).toEqual({
      message: VERIFICATION_MESSAGES.pending,
    });
    const [application] = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, asked.request.id));
    expect(application).toMatchObject({
      hospitalName: 'Hillside Surgery',
      contactEmail: hospital.email,
      npiNumber: '1234567890',
      userId: hospital.userId,
    });

    const mailsBefore = outbox().length;
    expect((await review(asked.request.id, 'approved')).statusCode).toBe(200);
    await t.ctx.mail.idle();
    const mail = outbox()
      .slice(mailsBefore)
      .find((m) => m.includes(`To: ${hospital.email}`))!;
    expect(mail).toContain('is now verified');
    expect(linkTo(mail, '/provider-register')).toBeUndefined();
    const [row] = await t.ctx.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, asked.request.id));
    expect(row.tokenSelector).toBeNull();
    const status = expectStatus<{ verified: boolean; verifiedAt: string; request: { status: string } }>(
      await verification(hospital.cookie),
      200,
    );
    expect(status).toMatchObject({
      verified: true,
      verifiedAt: clock.toISOString(),
      request: { status: 'approved' },
    });
    expect(expectStatus(await verification(hospital.cookie, {}), 409)).toEqual({
      message: VERIFICATION_MESSAGES.alreadyVerified,
    });
    // The member's user object says so from the next request (the dashboard's notice goes).
    expect(await me()).toBe(true);
    // Nothing to register: no registration link can be sent for it.
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/provider-applications/${asked.request.id}/resend-link`,
      headers: { cookie: t.admin.cookie },
    });
    expect(resent.statusCode).toBe(409);
  });

  it('stays unverified when rejected, and may ask again', async () => {
    const hospital = await signedInHospital(t.app, 'Dubious Clinic');
    const asked = expectStatus<{ request: { id: string } }>(await verification(hospital.cookie, {}), 201);
    expect((await review(asked.request.id, 'rejected')).statusCode).toBe(200);
    const [account] = await t.ctx.db.select().from(users).where(eq(users.id, hospital.userId));
    expect(account.verifiedAt).toBeNull();
    expect(expectStatus(await verification(hospital.cookie), 200)).toMatchObject({
      verified: false,
      request: { status: 'rejected' },
    });
    expect((await verification(hospital.cookie, {})).statusCode).toBe(201);
  });
});
