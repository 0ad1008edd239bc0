// Every declared audit event kind (src/shared/audit-events.ts), written through the real routes
// and read back in the trails as their readers see them: the action filter finds it, its text is
// rendered from its data, and it names a person and an address.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, type AuditAction } from '../../../shared/audit-events.js';
import { HOSPITAL_AUDIT_ACTIONS, PATIENT_AUDIT_ACTIONS } from '../../../shared/constants.js';
import { auditLogs } from '../../db/schema.js';
import { linksIn, linkTo, outboxMessages } from '../../mail/read-message.js';
import {
  addPatient,
  auditRows,
  callerOf,
  enableTwoFactor,
  login,
  signedInFamily,
  signedInPatient,
  useCast,
} from '../../test/helpers.js';
import { multipartBody, samplePdf, uploadRecord } from '../records/testing.js';

const t = useCast({ admin: true, others: true });
const call = callerOf(t);
const NEW_PASSWORD = 'An0ther!Passw0rd';

/**
 * Kinds this file does not write through routes, and why; every other declared kind it does.
 * Their own tests cover them: a damaged file (records/download.test.ts), an application's review
 * and the account it registers (providers/providers.test.ts).
 */
const NOT_WRITTEN_HERE: AuditAction[] = ['integrity_failure', 'application_review', 'provider_register'];

/** The second patient (`otherPatient`) signed in again after its reset. */
let resetPatient: { cookie: string };
/** A patient given a new activation code, signed up with it, then removed from the list. */
let laterPatient: { cookie: string };

async function ok<R extends { statusCode: number; body: string }>(res: R): Promise<R> {
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

beforeAll(async () => {
  const h = t.hospital.cookie;
  const p = t.patient.cookie;
  const pdf = samplePdf();
  const record = (await ok(await uploadRecord(t.app, h, t.patientRow.id))).json<{
    id: string;
    attachments: { url: string }[];
  }>();
  await ok(await uploadRecord(t.app, h, t.patientRow.id, { fields: { draft: 'true', title: 'Unfinished' } }));
  await ok(await call('GET', `/api/medical-records/${t.patientRow.id}`, h));
  // A staff invitation (staff_change).
  await ok(
    await call('POST', '/api/hospital/staff', h, {
      email: 'new.nurse@example.test',
      firstName: 'New',
      lastName: 'Nurse',
      staffRole: 'clinician',
    }),
  );
  await ok(await call('GET', `/api/medical-records/record/${record.id}`, p));
  await ok(await call('GET', record.attachments[0].url, p));
  await ok(await call('GET', `/api/medical-records/${record.id}/receipt`, p));
  // An amendment, and another record entered in error.
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: t.patientRow.id },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: 'Blood panel, corrected' },
    { name: 'files', fileName: 'corrected.pdf', bytes: pdf },
  ]);
  const amended = await ok(
    await t.app.inject({
      method: 'POST',
      url: `/api/medical-records/${record.id}/amend`,
      headers: { ...headers, cookie: h },
      payload,
    }),
  );
  const wrong = (
    await ok(await uploadRecord(t.app, h, t.patientRow.id, { fields: { title: 'Wrong chart' } }))
  ).json<{
    id: string;
  }>();
  await ok(
    await call('POST', `/api/medical-records/${wrong.id}/entered-in-error`, h, { reason: 'Wrong patient' }),
  );
  // Consent, record sharing, and a specialist link made, opened and downloaded from.
  const current = amended.json<{ id: string }>().id;
  await ok(
    await call('PUT', `/api/consent/${t.patient.userId}`, p, {
      shareWithSpecialists: true,
      shareWithFamily: true,
    }),
  );
  await ok(
    await call('PUT', `/api/medical-records/${current}/sharing`, p, {
      shareWithSpecialists: true,
      shareWithFamily: true,
    }),
  );
  await ok(
    await call('POST', `/api/medical-records/${current}/shares`, p, {
      recipientEmail: 'dr.heart@clinic.example',
      expiresInHours: 48,
    }),
  );
  const link = linksIn(outboxMessages(t.ctx.mail.outboxDir).at(-1)!).find((l) =>
    new URL(l).pathname.startsWith('/shared/'),
  )!;
  const token = new URL(link).pathname.split('/')[2];
  const opened = (await ok(await call('GET', `/api/shares/${token}`))).json<{
    attachments: { url: string }[];
  }>();
  await ok(await call('GET', opened.attachments[0].url));
  // The patient's profile, family (an invitation sent and accepted), and account.
  await ok(await call('PUT', `/api/patients/${t.patientRow.id}`, p, { phone: '555 0142' }));
  await signedInFamily(t, p);
  await login(t.app, t.patient.email); // a second session, to end
  const sessions = (await call('GET', '/api/auth/sessions', p)).json<{ id: string; current: boolean }[]>();
  await ok(await call('DELETE', `/api/auth/sessions/${sessions.find((s) => !s.current)!.id}`, p));
  await ok(
    await call('POST', '/api/auth/password', p, {
      currentPassword: 'Str0ng!Passw0rd',
      newPassword: NEW_PASSWORD,
    }),
  );
  await enableTwoFactor(t, p);
  // The hospital's patients, appointments and settings.
  await ok(await call('PUT', `/api/patients/${t.patientRow.id}`, h, { lastName: 'Lovelace' }));
  const later = await addPatient(t.app, h, { firstName: 'Lea', lastName: 'Later' });
  const reissued = (await ok(await call('POST', `/api/patients/${later.id}/activation-code`, h))).json<{
    activationCode: string;
  }>();
  laterPatient = await signedInPatient(t.app, {
    patientId: later.patientId,
    activationCode: reissued.activationCode,
  });
  await ok(await call('DELETE', `/api/patients/${later.id}`, h));
  const appointment = {
    patientId: t.patientRow.id,
    appointmentType: 'consultation',
    doctorName: 'Dr. Smith',
    department: 'cardiology',
    appointmentDate: '2031-03-04T10:00:00.000Z',
    location: 'Room 4',
    notes: '',
  };
  const booked = (await ok(await call('POST', '/api/appointments', h, appointment))).json<{ id: string }>();
  await ok(await call('PUT', `/api/appointments/${booked.id}`, h, { ...appointment, location: 'Room 5' }));
  await ok(await call('PATCH', `/api/appointments/${booked.id}/status`, h, { status: 'confirmed' }));
  await ok(await call('DELETE', `/api/appointments/${booked.id}`, h));
  const settings = (await call('GET', '/api/hospital/settings', h)).json<{
    hospitalName: string;
    adminEmail: string;
  }>();
  await ok(
    await call('PUT', '/api/hospital/settings', h, { ...settings, hospitalName: 'General Hospital North' }),
  );
  // The administrator: the hospital's subscription and verification; the second patient's account
  // suspended and reactivated, then its password reset by mail and signed in again.
  const a = t.admin.cookie;
  await ok(await call('POST', `/api/billing/subscriptions/${t.hospital.userId}/activate`, a));
  await ok(await call('POST', `/api/admin/users/${t.hospital.userId}/verify`, a));
  await ok(await call('POST', `/api/admin/users/${t.otherPatient.userId}/suspend`, a));
  await ok(
    await call('POST', `/api/admin/users/${t.otherPatient.userId}/reactivate`, a, { restoreSharing: false }),
  );
  await ok(await call('POST', '/api/password-reset', undefined, { email: t.otherPatient.email }));
  await t.ctx.mail.idle();
  const resetMail = outboxMessages(t.ctx.mail.outboxDir)
    .filter((m) => m.includes(`To: ${t.otherPatient.email}`) && linkTo(m, '/reset-password'))
    .at(-1)!;
  const resetToken = new URL(linkTo(resetMail, '/reset-password')!).searchParams.get('token');
  await ok(
    await call('POST', '/api/password-reset/confirm', undefined, {
      token: resetToken,
      password: NEW_PASSWORD,
    }),
  );
  resetPatient = { cookie: await login(t.app, t.otherPatient.email, NEW_PASSWORD) };
});

interface Entry {
  action: string;
  userId: string | null;
  details: string | null;
  userName: string | null;
  ipAddress: string | null;
}

/** A trail's entries of one action, as the filter gives them. */
async function filtered(url: string, cookie: string, action: AuditAction) {
  const res = await call('GET', `${url}?action=${action}&pageSize=100`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: Entry[] }>().items;
}

/**
 * Each entry is of the action filtered on, with its text, a person's name and an address; in a
 * patient's trail (`staffHidden`) the address of a staff member's action is left out.
 */
function expectReadable(items: Entry[], action: AuditAction, staffHidden = false) {
  expect(items.length, `no ${action} entry`).toBeGreaterThan(0);
  const staff = [t.hospital.userId, t.admin.userId];
  for (const e of items) {
    expect(e.action).toBe(action);
    expect(e.details, action).toMatch(/\w/);
    expect(e.userName, `${action}: who`).toMatch(/\w/);
    if (staffHidden && staff.includes(e.userId ?? '')) expect(e.ipAddress, action).toBeNull();
    else expect(e.ipAddress, `${action}: address`).toMatch(/^[\d.:a-f]+$/);
  }
}

describe('every kind of audit event', () => {
  const hospitalKinds = HOSPITAL_AUDIT_ACTIONS.filter((a) => !NOT_WRITTEN_HERE.includes(a));
  it.each(hospitalKinds)(
    "%s: the hospital's filter finds it, with its text, who and from where",
    async (action) => {
      expectReadable(await filtered('/api/audit-logs', t.hospital.cookie, action), action);
    },
  );

  // Some kinds happened to other patients: the second one's account (suspended, reset) and the
  // one given a new code and removed.
  const ofResetPatient: AuditAction[] = ['account_suspend', 'account_reactivate', 'password_reset'];
  const ofLaterPatient: AuditAction[] = ['activation_code_issue', 'patient_archive'];
  const patientKinds = PATIENT_AUDIT_ACTIONS.filter((a) => !NOT_WRITTEN_HERE.includes(a));
  it.each(patientKinds)(
    "%s: the patient's filter finds it, with its text, who and from where",
    async (action) => {
      const cookie = ofResetPatient.includes(action)
        ? resetPatient.cookie
        : ofLaterPatient.includes(action)
          ? laterPatient.cookie
          : t.patient.cookie;
      expectReadable(await filtered('/api/audit-logs/patient', cookie, action), action, true);
    },
  );

  it('is written as typed data, its text made when it is read', async () => {
    const rows = await auditRows(t, { hospitalId: t.hospital.userId });
    const kinds = new Set(rows.map((r) => r.action));
    for (const action of Object.keys(AUDIT_ACTION_LABELS) as AuditAction[]) {
      if (NOT_WRITTEN_HERE.includes(action) || action === 'application_review') continue;
      expect(kinds.has(action), action).toBe(true);
    }
    // The data is a JSON object (not a string of one), and no text is written beside it.
    const stored = await t.ctx.db
      .select({ data: auditLogs.data, details: auditLogs.details, ip: auditLogs.ipAddress })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'record_download'));
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) {
      expect(row.details).toBeNull();
      expect(row.data).toMatchObject({ fileName: expect.any(String), title: expect.any(String) });
      expect(row.ip).toBeTruthy();
    }
    // Every entry of this file's people keeps an address (none here acted without a request).
    expect(rows.filter((r) => !r.ipAddress).map((r) => r.action)).toEqual([]);
  });

  it("names a specialist link's opener, with the address, in the patient's trail", async () => {
    const views = await filtered('/api/audit-logs/patient', t.patient.cookie, 'record_view');
    const byLink = views.find((e) => e.details?.includes('by specialist link to dr.heart@clinic.example'));
    expect(byLink).toMatchObject({ userName: 'Specialist (dr.heart@clinic.example, by a shared link)' });
    expect(byLink?.ipAddress).toBeTruthy();
    const downloads = await filtered('/api/audit-logs/patient', t.patient.cookie, 'record_download');
    expect(downloads.map((e) => e.details)).toContain(
      'Downloaded "corrected.pdf" of "Blood panel, corrected" by specialist link to dr.heart@clinic.example',
    );
  });

  it('keeps a receipt download and a view apart, and a download out of the routine list reads', async () => {
    const receipts = await filtered('/api/audit-logs/patient', t.patient.cookie, 'receipt_download');
    expect(receipts.map((e) => e.details)).toEqual(['Downloaded the ledger receipt of "Blood panel"']);
    const views = await filtered('/api/audit-logs/patient', t.patient.cookie, 'record_view');
    expect(views.some((e) => e.details?.includes('receipt'))).toBe(false);
  });
});

describe("a patient's account events", () => {
  it("are in the patient's own trail and the hospital's, whichever service wrote them", async () => {
    for (const action of ['login', 'password_change', 'two_factor_change', 'session_end'] as const) {
      const own = await filtered('/api/audit-logs/patient', t.patient.cookie, action);
      expect(own.length, action).toBeGreaterThan(0);
      const rows = await auditRows(t, { action, userId: t.patient.userId });
      expect(
        rows.every((r) => r.patientId === t.patientRow.id && r.hospitalId === t.hospital.userId),
        action,
      ).toBe(true);
    }
  });

  it('of a new patient start with their first sign-in, in their own trail', async () => {
    const fresh = await signedInPatient(t.app, await addPatient(t.app, t.hospital.cookie));
    expect((await filtered('/api/audit-logs/patient', fresh.cookie, 'login')).length).toBe(1);
  });
});
