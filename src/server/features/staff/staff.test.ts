// Staff accounts (issue 55) as a hospital uses them, through the API: an admin invites a clinician
// and a front-desk member by e-mail, each registers through the mailed link and signs in with
// their own address; the clinician's work is named in the trails; the front desk books but opens
// no record; another hospital sees nothing; a deactivated member is out at once.
import { addHours } from 'date-fns';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../shared/hospital.js';
import {
  STAFF_MESSAGES,
  type StaffInvitation,
  type StaffMember,
  type StaffPage,
} from '../../../shared/staff.js';
import type { PublicUser } from '../../../shared/users.js';
import { staffInvitations, users } from '../../db/schema.js';
import {
  STRONG_PASSWORD,
  addPatient,
  callerOf,
  expectStatus,
  login,
  signedInStaff,
  staffInvitationToken,
  uniqueEmail,
  useCast,
} from '../../test/helpers.js';
import { uploadRecord } from '../records/testing.js';

const t = useCast({
  patient: { firstName: 'Pia', lastName: 'Patient' },
  others: true,
  hospitalName: "St. Mary's",
});
const call = callerOf(t);
let clinician: Awaited<ReturnType<typeof signedInStaff>>;
let frontDesk: Awaited<ReturnType<typeof signedInStaff>>;

beforeAll(async () => {
  clinician = await signedInStaff(t, t.hospital.cookie, 'clinician', {
    firstName: 'Ada',
    lastName: 'Okafor',
    department: 'cardiology',
  });
  frontDesk = await signedInStaff(t, t.hospital.cookie, 'front_desk', {
    firstName: 'Fran',
    lastName: 'Desk',
  });
});

const me = async (cookie: string) =>
  expectStatus<{ user: PublicUser | null }>(await call('GET', '/api/auth/me', cookie), 200).user;

const register = (payload: Record<string, unknown>) =>
  call('POST', '/api/auth/register', undefined, {
    role: 'hospital',
    password: STRONG_PASSWORD,
    firstName: 'New',
    lastName: 'Member',
    ...payload,
  });

async function invite(email = uniqueEmail('invitee'), staffRole = 'clinician') {
  const res = await call('POST', '/api/hospital/staff', t.hospital.cookie, {
    email,
    firstName: 'New',
    lastName: 'Member',
    staffRole,
  });
  const invitation = expectStatus<StaffInvitation>(res, 201);
  await t.ctx.mail.idle();
  return { email, invitation, token: staffInvitationToken(t, email) };
}

describe('members of one hospital', () => {
  it('sign in with their own e-mail as role hospital, carrying the hospital id and their staff role', async () => {
    const user = await me(clinician.cookie);
    expect(user).toMatchObject({
      id: clinician.userId,
      role: 'hospital',
      hospitalId: t.hospital.userId,
      staffRole: 'clinician',
      hospitalName: "St. Mary's",
      firstName: 'Ada',
    });
    expect(await me(t.hospital.cookie)).toMatchObject({
      id: t.hospital.userId,
      hospitalId: t.hospital.userId,
      staffRole: 'hospital_admin',
    });
    // The sign-in's own answer carries them too.
    const res = await call('POST', '/api/auth/login', undefined, {
      email: frontDesk.email,
      password: STRONG_PASSWORD,
    });
    expect(expectStatus<{ user: PublicUser }>(res, 200).user).toMatchObject({
      hospitalId: t.hospital.userId,
      staffRole: 'front_desk',
    });
  });

  it('are listed on the staff page, with role, status and two-factor', async () => {
    const page = expectStatus<StaffPage>(await call('GET', '/api/hospital/staff', t.hospital.cookie), 200);
    expect(page.total).toBe(3);
    const ada = page.items.find((m) => m.id === clinician.userId);
    expect(ada).toMatchObject({
      name: 'Ada Okafor',
      staffRole: 'clinician',
      status: 'active',
      department: 'cardiology',
      twoFactorEnabled: false,
    });
    expect(ada?.lastLoginAt).not.toBeNull();
    const paged = expectStatus<StaffPage>(
      await call('GET', '/api/hospital/staff?pageSize=1&page=2', t.hospital.cookie),
      200,
    );
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(paged.items).toHaveLength(1);
  });

  it("list the hospital's patients, whatever their role", async () => {
    for (const member of [clinician, frontDesk]) {
      const page = expectStatus<{ items: { id: string }[]; total: number }>(
        await call('GET', '/api/patients', member.cookie),
        200,
      );
      expect(page.items.map((p) => p.id)).toContain(t.patientRow.id);
    }
  });

  it("share the hospital's patients: the clinician uploads, and both trails name the clinician", async () => {
    const upload = await uploadRecord(t.app, clinician.cookie, t.patientRow.id, {
      fields: { title: 'Echo report' },
    });
    const record = expectStatus<{ id: string; hospitalId: string }>(upload, 201);
    expect(record.hospitalId).toBe(t.hospital.userId);

    const trail = expectStatus<AuditPage>(
      await call('GET', '/api/audit-logs?action=record_upload', t.hospital.cookie),
      200,
    );
    const entry = trail.items.find((e) => e.entityId === record.id);
    expect(entry?.userName).toBe("Ada Okafor, St. Mary's");
    expect(entry?.userId).toBe(clinician.userId);
    // Filtered by the staff member.
    const hers = expectStatus<AuditPage>(
      await call('GET', `/api/audit-logs?userId=${clinician.userId}`, t.hospital.cookie),
      200,
    );
    expect(hers.items.length).toBeGreaterThan(0);
    expect(hers.items.every((e) => e.userId === clinician.userId)).toBe(true);

    const patientTrail = expectStatus<AuditPage>(
      await call('GET', '/api/audit-logs/patient?action=record_upload', t.patient.cookie),
      200,
    );
    expect(patientTrail.items.find((e) => e.entityId === record.id)?.userName).toBe("Ada Okafor, St. Mary's");
  });

  it('the front desk books appointments and lists records without their contents, but opens none', async () => {
    const upload = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'Private note', description: 'Sensitive details' },
    });
    const record = expectStatus<{ id: string; attachments: { url: string }[] }>(upload, 201);

    const booked = await call('POST', '/api/appointments', frontDesk.cookie, {
      patientId: t.patientRow.id,
      appointmentType: 'consultation',
      doctorName: 'Dr. Okafor',
      department: 'cardiology',
      appointmentDate: '2031-03-04T10:00:00.000Z',
    });
    expectStatus(booked, 201);

    const list = expectStatus<{
      items: { id: string; title: string; description: string | null; attachments: unknown[] }[];
    }>(await call('GET', `/api/medical-records/${t.patientRow.id}`, frontDesk.cookie), 200);
    const listed = list.items.find((r) => r.id === record.id);
    expect(listed).toMatchObject({ title: 'Private note', description: null, attachments: [] });

    const view = await call('GET', `/api/medical-records/record/${record.id}`, frontDesk.cookie);
    expect(view.statusCode).toBe(403);
    expect(view.json().message).toBe(STAFF_MESSAGES.noRecordContents);
    const fileName = record.attachments[0].url.split('/').pop();
    expect((await call('GET', `/api/download/${fileName}`, frontDesk.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/hospital/staff', frontDesk.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/hospital/staff', clinician.cookie)).statusCode).toBe(403);
    // The clinician opens it.
    expect((await call('GET', `/api/medical-records/record/${record.id}`, clinician.cookie)).statusCode).toBe(
      200,
    );
  });

  it('lists the practitioners: clinicians and admins, not the front desk', async () => {
    const list = expectStatus<{ id: string; name: string; department: string | null }[]>(
      await call('GET', '/api/hospital/practitioners', frontDesk.cookie),
      200,
    );
    expect(list.map((p) => p.id).sort()).toEqual([clinician.userId, t.hospital.userId].sort());
    expect(list.find((p) => p.id === clinician.userId)).toMatchObject({
      name: 'Ada Okafor',
      department: 'cardiology',
    });
  });
});

describe('practitioners', () => {
  const slot = (patientId: string, practitionerId: string, at: string) => ({
    patientId,
    appointmentType: 'consultation',
    department: 'cardiology',
    practitionerId,
    appointmentDate: at,
  });

  it('name uploads: the record is by the practitioner picked, of this hospital only', async () => {
    const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'ECG', practitionerId: clinician.userId },
    });
    expect(expectStatus<{ practitionerId: string; doctorName: string }>(res, 201)).toMatchObject({
      practitionerId: clinician.userId,
      doctorName: 'Ada Okafor',
    });
    const foreign = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'ECG', practitionerId: t.otherHospital.userId },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(STAFF_MESSAGES.practitionerNotFound);
    const frontDeskAsDoctor = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'ECG', practitionerId: frontDesk.userId },
    });
    expect(frontDeskAsDoctor.statusCode).toBe(400);
  });

  it('cannot be booked twice at one time, while another practitioner can take the slot', async () => {
    const second = await addPatient(t.app, t.hospital.cookie, { firstName: 'Sec', lastName: 'Ond' });
    const third = await addPatient(t.app, t.hospital.cookie, { firstName: 'Thi', lastName: 'Rd' });
    const at = '2031-05-06T09:00:00.000Z';
    const first = expectStatus<{ practitionerId: string; doctorName: string }>(
      await call('POST', '/api/appointments', frontDesk.cookie, slot(t.patientRow.id, clinician.userId, at)),
      201,
    );
    expect(first).toMatchObject({ practitionerId: clinician.userId, doctorName: 'Ada Okafor' });
    const twice = await call(
      'POST',
      '/api/appointments',
      frontDesk.cookie,
      slot(second.id, clinician.userId, '2031-05-06T09:30:00.000Z'),
    );
    expect(twice.statusCode).toBe(409);
    expectStatus(
      await call('POST', '/api/appointments', frontDesk.cookie, slot(third.id, t.hospital.userId, at)),
      201,
    );
    const calendar = expectStatus<{ items: { practitionerId: string | null }[] }>(
      await call(
        'GET',
        `/api/appointments/hospital/${t.hospital.userId}?practitionerId=${clinician.userId}`,
        frontDesk.cookie,
      ),
      200,
    );
    expect(calendar.items.length).toBeGreaterThan(0);
    expect(calendar.items.every((a) => a.practitionerId === clinician.userId)).toBe(true);
    const bad = await call('POST', '/api/appointments', frontDesk.cookie, {
      ...slot(third.id, t.otherHospital.userId, '2031-05-07T09:00:00.000Z'),
    });
    expect(bad.statusCode).toBe(400);
    const neither = await call('POST', '/api/appointments', frontDesk.cookie, {
      ...slot(third.id, '', '2031-05-07T09:00:00.000Z'),
    });
    expect(neither.statusCode).toBe(400);
  });
});

describe('another hospital', () => {
  it('sees and touches none of these members', async () => {
    const page = expectStatus<StaffPage>(
      await call('GET', '/api/hospital/staff', t.otherHospital.cookie),
      200,
    );
    expect(page.items.map((m) => m.id)).toEqual([t.otherHospital.userId]);
    for (const [method, url, body] of [
      ['PATCH', `/api/hospital/staff/${clinician.userId}`, { staffRole: 'front_desk' }],
      ['POST', `/api/hospital/staff/${clinician.userId}/deactivate`, undefined],
      ['POST', `/api/hospital/staff/${clinician.userId}/reactivate`, undefined],
    ] as const) {
      const res = await call(method, url, t.otherHospital.cookie, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const practitioners = expectStatus<{ id: string }[]>(
      await call('GET', '/api/hospital/practitioners', t.otherHospital.cookie),
      200,
    );
    expect(practitioners.map((p) => p.id)).toEqual([t.otherHospital.userId]);
    // Nor reaches this hospital's patients through them.
    expect((await call('GET', `/api/patients/${t.patientRow.id}`, t.otherHospital.cookie)).statusCode).toBe(
      404,
    );
  });
});

describe('invitations', () => {
  it('refuse a used, expired, cancelled or forged link, and another address', async () => {
    const a = await invite();
    expect((await register({ email: uniqueEmail('x'), inviteToken: a.token })).statusCode).toBe(400);
    expectStatus(await register({ email: a.email, inviteToken: a.token }), 201);
    expect((await register({ email: a.email, inviteToken: a.token })).statusCode).toBe(409);

    const b = await invite();
    await t.ctx.db
      .update(staffInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffInvitations.id, b.invitation.id));
    const expired = await register({ email: b.email, inviteToken: b.token });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(STAFF_MESSAGES.inviteExpired);

    const c = await invite();
    expectStatus(
      await call('DELETE', `/api/hospital/staff/invitations/${c.invitation.id}`, t.hospital.cookie),
      200,
    );
    expect((await register({ email: c.email, inviteToken: c.token })).statusCode).toBe(400);

    const forged = await register({
      email: uniqueEmail('y'),
      inviteToken: `${'A'.repeat(22)}.${'B'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(400);
    // Without an invitation a hospital signup still needs its name (a new hospital).
    expect((await register({ email: uniqueEmail('z') })).statusCode).toBe(400);
  });

  it('are valid 72 hours, stored hashed, and a resend replaces the link', async () => {
    const d = await invite();
    const [row] = await t.ctx.db
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.id, d.invitation.id));
    expect(Math.abs(row.expiresAt.getTime() - addHours(row.createdAt, 72).getTime())).toBeLessThan(5000);
    expect(d.token).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(d.token!.split('.')[1]);
    expect(
      expectStatus<StaffInvitation[]>(
        await call('GET', '/api/hospital/staff/invitations', t.hospital.cookie),
        200,
        // paged
      ),
    ).toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ id: d.invitation.id, status: 'pending' })]),
    });

    expectStatus(
      await call('POST', `/api/hospital/staff/invitations/${d.invitation.id}/resend`, t.hospital.cookie),
      200,
    );
    await t.ctx.mail.idle();
    const fresh = staffInvitationToken(t, d.email);
    expect(fresh).not.toBe(d.token);
    expect((await register({ email: d.email, inviteToken: d.token })).statusCode).toBe(400);
    expectStatus(await register({ email: d.email, inviteToken: fresh }), 201);
  });

  it('refuse an address that has an account, or a bad body, with a message', async () => {
    const taken = await call('POST', '/api/hospital/staff', t.hospital.cookie, {
      email: clinician.email,
      firstName: 'A',
      lastName: 'B',
      staffRole: 'clinician',
    });
    expect(taken.statusCode).toBe(409);
    const bad = await call('POST', '/api/hospital/staff', t.hospital.cookie, {
      email: 'nope',
      firstName: '',
      lastName: 'B',
      staffRole: 'surgeon',
    });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().message).toBe('string');
  });
});

describe('roles and deactivation', () => {
  it('never leaves the hospital without an active admin', async () => {
    const demote = await call('PATCH', `/api/hospital/staff/${t.hospital.userId}`, t.hospital.cookie, {
      staffRole: 'clinician',
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(STAFF_MESSAGES.lastAdmin);
    expect(
      (await call('POST', `/api/hospital/staff/${t.hospital.userId}/deactivate`, t.hospital.cookie))
        .statusCode,
    ).toBe(409);
  });

  it('two admins demoting each other at once keep one admin', async () => {
    const second = await signedInStaff(t, t.hospital.cookie, 'hospital_admin', {
      firstName: 'Second',
      lastName: 'Admin',
    });
    const [a, b] = await Promise.all([
      call('PATCH', `/api/hospital/staff/${second.userId}`, t.hospital.cookie, { staffRole: 'clinician' }),
      call('PATCH', `/api/hospital/staff/${t.hospital.userId}`, second.cookie, { staffRole: 'clinician' }),
    ]);
    // One wins; the other gets 409 when it overlapped, 403 when it came after (no admin by then).
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await t.ctx.db.select().from(users).where(eq(users.hospitalId, t.hospital.userId));
    expect(admins.filter((u) => u.staffRole === 'hospital_admin' && !u.deactivatedAt)).toHaveLength(1);
    // Whoever is still an admin puts things back as they were.
    // a is the first admin demoting the second; b the second demoting the first.
    const stillAdmin = a.statusCode === 200 ? t.hospital.cookie : second.cookie;
    const demotedId = a.statusCode === 200 ? second.userId : t.hospital.userId;
    expectStatus(
      await call('PATCH', `/api/hospital/staff/${demotedId}`, stillAdmin, { staffRole: 'hospital_admin' }),
      200,
    );
    expectStatus(await call('POST', `/api/hospital/staff/${second.userId}/deactivate`, stillAdmin), 200);
  });

  it('a role change applies at the next request', async () => {
    const member = await signedInStaff(t, t.hospital.cookie, 'clinician', {
      firstName: 'Role',
      lastName: 'Change',
    });
    expect((await call('GET', '/api/medical-records/drafts', member.cookie)).statusCode).toBe(200);
    const changed = expectStatus<StaffMember>(
      await call('PATCH', `/api/hospital/staff/${member.userId}`, t.hospital.cookie, {
        staffRole: 'front_desk',
      }),
      200,
    );
    expect(changed.staffRole).toBe('front_desk');
    expect((await call('GET', '/api/medical-records/drafts', member.cookie)).statusCode).toBe(403);
  });

  it('a deactivated member is out at the next request and cannot sign in; their entries keep their name', async () => {
    const member = await signedInStaff(t, t.hospital.cookie, 'clinician', {
      firstName: 'Leaving',
      lastName: 'Soon',
    });
    const upload = expectStatus<{ id: string }>(
      await uploadRecord(t.app, member.cookie, t.patientRow.id),
      201,
    );
    const out = expectStatus<StaffMember>(
      await call('POST', `/api/hospital/staff/${member.userId}/deactivate`, t.hospital.cookie),
      200,
    );
    expect(out.status).toBe('deactivated');
    expect((await call('GET', '/api/patients', member.cookie)).statusCode).toBe(401);
    expect(await me(member.cookie)).toBeNull();
    const denied = await call('POST', '/api/auth/login', undefined, {
      email: member.email,
      password: STRONG_PASSWORD,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(STAFF_MESSAGES.deactivated);

    const trail = expectStatus<AuditPage>(
      await call('GET', '/api/audit-logs?action=record_upload', t.hospital.cookie),
      200,
    );
    expect(trail.items.find((e) => e.entityId === upload.id)?.userName).toBe("Leaving Soon, St. Mary's");

    expectStatus(
      await call('POST', `/api/hospital/staff/${member.userId}/reactivate`, t.hospital.cookie),
      200,
    );
    await login(t.app, member.email);
  });
});
