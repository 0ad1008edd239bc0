// Family proxy access (docs/decisions.md#family-proxy-access): invitations, grants, every way of
// losing one, other patients' ids, and the patient's trail.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { familyContacts, familyGrants, familyInvitations } from '../../db/schema.js';
import { headerOf, linkTo, outboxMessages } from '../../mail/read-message.js';
import {
  accountIdOf,
  addPatient,
  familyInvitationToken,
  familySignup as signup,
  signedInFamily,
  signedInPatient,
  STRONG_PASSWORD,
  uniqueEmail,
  useCast,
} from '../../test/helpers.js';
import { multipartBody, uploadRecord } from '../records/testing.js';
import { INVITE_MESSAGES } from './invitations.js';
import { SIGNUP_ANSWER } from '../../../shared/auth.js';

const t = useCast({ patient: false });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as object });

const invitationTo = (email: string) => familyInvitationToken(t, email);
const invitationsTo = (email: string) =>
  outboxMessages(t.ctx.mail.outboxDir).filter((m) => headerOf(m, 'To') === email && linkTo(m, '/signup'))
    .length;

const relative = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Ana',
  lastName: 'Lopez',
  relationship: 'child',
  email,
  canAccessRecords: true,
  ...extra,
});

const familySignup = (email: string, inviteToken: string | undefined) => signup(t.app, email, inviteToken);

/**
 * A patient with a record shared with family, one not shared, an upcoming appointment, and a
 * relative who registered through the invitation mailed when the contact was added.
 */
async function grantedFamily() {
  const row = await addPatient(t.app, t.hospital.cookie, { firstName: 'Maria', lastName: 'Lopez' });
  const patient = await signedInPatient(t.app, row);
  const shared = await uploadRecord(t.app, t.hospital.cookie, row.id, {
    fields: { title: 'Blood panel', shareWithFamily: 'true' },
  });
  const unshared = await uploadRecord(t.app, t.hospital.cookie, row.id, {
    fields: { title: 'Private note' },
  });
  expect([shared.statusCode, unshared.statusCode]).toEqual([201, 201]);
  const family = await signedInFamily(t, patient.cookie, uniqueEmail('relative'));
  const me = await send('GET', '/api/auth/me', family.cookie);
  expect(me.json().user.role).toBe('family');
  const record = shared.json<{ id: string; attachments: { url: string }[] }>();
  return {
    row,
    patient,
    family,
    contactId: family.contactId,
    record,
    unsharedId: unshared.json<{ id: string }>().id,
    download: record.attachments[0].url,
    token: family.token,
  };
}
type Granted = Awaited<ReturnType<typeof grantedFamily>>;

/** Every read a proxy has of the patient, with its status. */
async function proxyReads(g: Granted) {
  const c = g.family.cookie;
  return {
    patients: (await send('GET', '/api/proxy/patients', c)).json<{ patients: { id: string }[] }>().patients
      .length,
    records: (await send('GET', `/api/proxy/patients/${g.row.id}/records`, c)).statusCode,
    appointments: (await send('GET', `/api/proxy/patients/${g.row.id}/appointments`, c)).statusCode,
    view: (await send('GET', `/api/medical-records/record/${g.record.id}`, c)).statusCode,
    verification: (await send('GET', `/api/medical-records/${g.record.id}/verification`, c)).statusCode,
    download: (await send('GET', g.download, c)).statusCode,
  };
}
const granted = { patients: 1, records: 200, appointments: 200, view: 200, verification: 200, download: 200 };
const refused = { patients: 0, records: 404, appointments: 404, view: 404, verification: 404, download: 404 };

const saveConsent = (g: Granted, shareWithFamily: boolean) =>
  send('PUT', `/api/consent/${g.patient.userId}`, g.patient.cookie, {
    shareWithSpecialists: true,
    shareWithFamily,
  });

describe('a relative invited by the patient', () => {
  it('reads every current and future record once the patient shares all with them, until turned off', async () => {
    const g = await grantedFamily();
    const c = g.family.cookie;
    const titles = async () =>
      (await send('GET', `/api/proxy/patients/${g.row.id}/records`, c))
        .json()
        .items.map((r: { title: string }) => r.title)
        .sort();
    const shareAll = (on: boolean) =>
      send(
        'PUT',
        `/api/family-contacts/${g.contactId}`,
        g.patient.cookie,
        relative(g.family.email, { shareAllRecords: on }),
      );
    const on = await shareAll(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().shareAllRecords).toBe(true);
    // The grant is kept (same person, same access): no new invitation is needed.
    const later = await uploadRecord(t.app, t.hospital.cookie, g.row.id, { fields: { title: 'Later scan' } });
    expect(await titles()).toEqual(['Blood panel', 'Later scan', 'Private note']);
    expect((await send('GET', `/api/medical-records/record/${g.unsharedId}`, c)).statusCode).toBe(200);
    expect((await send('GET', `/api/medical-records/record/${later.json().id}`, c)).statusCode).toBe(200);
    expect((await shareAll(false)).json().shareAllRecords).toBe(false);
    expect(await titles()).toEqual(['Blood panel']);
    expect((await send('GET', `/api/medical-records/record/${g.unsharedId}`, c)).statusCode).toBe(404);
    // Without record access, share-all is not kept.
    const noAccess = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email, { canAccessRecords: false, shareAllRecords: true }),
    );
    expect(noAccess.json().shareAllRecords).toBe(false);
  });

  it('registers through the mailed link and reads the records shared with family, nothing else', async () => {
    const g = await grantedFamily();
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    const booked = await send('POST', '/api/appointments', t.hospital.cookie, {
      patientId: g.row.id,
      appointmentType: 'consultation',
      doctorName: 'Dr. Who',
      department: 'general',
      appointmentDate: start.toISOString(),
    });
    expect(booked.statusCode, booked.body).toBe(201);

    const list = await send('GET', '/api/proxy/patients', g.family.cookie);
    expect(list.json().patients).toEqual([
      expect.objectContaining({
        id: g.row.id,
        name: 'Maria Lopez',
        mrn: g.row.patientId,
        relationship: 'child',
      }),
    ]);
    const records = await send('GET', `/api/proxy/patients/${g.row.id}/records`, g.family.cookie);
    expect(records.json().items.map((r: { title: string }) => r.title)).toEqual(['Blood panel']);
    expect(records.json().total).toBe(1);
    const appointments = await send('GET', `/api/proxy/patients/${g.row.id}/appointments`, g.family.cookie);
    expect(appointments.json().items.map((a: { doctorName: string }) => a.doctorName)).toEqual(['Dr. Who']);
    expect(await proxyReads(g)).toEqual(granted);
    const download = await send('GET', g.download, g.family.cookie);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // The record the family switch leaves off is not theirs to see.
    expect(
      (await send('GET', `/api/medical-records/record/${g.unsharedId}`, g.family.cookie)).statusCode,
    ).toBe(404);
    // Nothing else: profile, consent, contacts, the patient's own lists, history, trail, sharing.
    const c = g.family.cookie;
    const others = await Promise.all([
      send('GET', `/api/consent/${g.patient.userId}`, c),
      send('GET', `/api/family-contacts/patient/${g.row.id}`, c),
      send('GET', `/api/medical-records/${g.row.id}`, c),
      send('GET', '/api/medical-records', c),
      send('GET', `/api/medical-records/${g.record.id}/history`, c),
      send('GET', '/api/audit-logs/patient', c),
      send('GET', `/api/patients/profile/${g.patient.userId}`, c),
      send('PUT', `/api/medical-records/${g.record.id}/sharing`, c, {
        shareWithSpecialists: true,
        shareWithFamily: true,
      }),
      send('GET', '/api/medical-records/drafts', c),
      send('GET', '/api/proxy/holders', c),
    ]);
    for (const res of others) expect([403, 404], `${res.statusCode} ${res.body}`).toContain(res.statusCode);
  });

  it('puts every read into the patient’s trail with the relative’s name', async () => {
    const g = await grantedFamily();
    await proxyReads(g);
    const trail = await send('GET', '/api/audit-logs/patient?pageSize=100', g.patient.cookie);
    const byRelative = trail
      .json<{ items: { userId: string; userName: string; action: string; details: string }[] }>()
      .items.filter((e) => e.userId === g.family.userId);
    expect(byRelative.every((e) => e.userName === 'Ana Lopez')).toBe(true);
    expect(byRelative.map((e) => e.action).sort()).toEqual(
      ['family_access', 'record_access', 'record_download', 'record_view'].sort(),
    );
    expect(byRelative.find((e) => e.action === 'record_view')?.details).toContain('Blood panel');
    expect(byRelative.some((e) => e.details.startsWith('Downloaded "report.pdf"'))).toBe(true);
  });

  it('is the patient’s to see in the list of holders, and to revoke', async () => {
    const g = await grantedFamily();
    const holders = await send('GET', '/api/proxy/holders', g.patient.cookie);
    expect(holders.json().holders).toEqual([
      expect.objectContaining({ contactId: g.contactId, email: g.family.email, accountName: 'Ana Lopez' }),
    ]);
    expect((await send('DELETE', `/api/proxy/holders/${g.contactId}`, g.patient.cookie)).statusCode).toBe(
      200,
    );
    expect((await send('GET', '/api/proxy/holders', g.patient.cookie)).json().holders).toEqual([]);
    expect(await proxyReads(g)).toEqual(refused);
  });
});

describe('losing access', () => {
  it('ends the moment "Share with family" is off, and comes back when it is on again', async () => {
    const g = await grantedFamily();
    expect((await saveConsent(g, false)).statusCode).toBe(200);
    expect(await proxyReads(g)).toEqual(refused);
    expect((await saveConsent(g, true)).statusCode).toBe(200);
    expect(await proxyReads(g)).toEqual(granted);
  });

  it('ends when the contact’s "Can Access Medical Records" flag is cleared', async () => {
    const g = await grantedFamily();
    const put = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email, { canAccessRecords: false }),
    );
    expect(put.statusCode).toBe(200);
    expect(await proxyReads(g)).toEqual(refused);
  });

  it('ends when the contact is removed, and the grant goes with it', async () => {
    const g = await grantedFamily();
    expect((await send('DELETE', `/api/family-contacts/${g.contactId}`, g.patient.cookie)).statusCode).toBe(
      200,
    );
    expect(await proxyReads(g)).toEqual(refused);
    expect(await t.ctx.db.select().from(familyGrants).where(eq(familyGrants.contactId, g.contactId))).toEqual(
      [],
    );
  });

  it('follows a record through its amendment, which keeps the Family switch', async () => {
    const g = await grantedFamily();
    const { payload, headers } = multipartBody([
      { name: 'patientId', value: g.row.id },
      { name: 'recordType', value: 'lab-results' },
      { name: 'title', value: 'Blood panel (corrected)' },
    ]);
    const amended = await t.app.inject({
      method: 'POST',
      url: `/api/medical-records/${g.record.id}/amend`,
      headers: { ...headers, cookie: t.hospital.cookie },
      payload,
    });
    expect(amended.statusCode, amended.body).toBe(201);
    const records = await send('GET', `/api/proxy/patients/${g.row.id}/records`, g.family.cookie);
    expect(records.json().items.map((r: { title: string }) => r.title)).toEqual(['Blood panel (corrected)']);
  });

  it('covers a record once it is entered in error', async () => {
    const g = await grantedFamily();
    const retracted = await send(
      'POST',
      `/api/medical-records/${g.record.id}/entered-in-error`,
      t.hospital.cookie,
      {
        reason: 'Wrong patient',
      },
    );
    expect(retracted.statusCode, retracted.body).toBe(200);
    expect(
      (await send('GET', `/api/medical-records/record/${g.record.id}`, g.family.cookie)).statusCode,
    ).toBe(404);
    expect((await send('GET', g.download, g.family.cookie)).statusCode).toBe(404);
  });
});

describe('a grant belongs to the person who accepted the invitation', () => {
  const grantsOf = (contactId: string) =>
    t.ctx.db.select().from(familyGrants).where(eq(familyGrants.contactId, contactId));

  it('ends when the contact is re-pointed to another e-mail, which gets a new invitation', async () => {
    const g = await grantedFamily();
    const other = uniqueEmail('other-relative');
    const put = await send('PUT', `/api/family-contacts/${g.contactId}`, g.patient.cookie, relative(other));
    expect(put.statusCode, put.body).toBe(200);
    expect(await proxyReads(g)).toEqual(refused);
    expect(await grantsOf(g.contactId)).toEqual([]);
    // The new address is invited and, once registered, reads; the old account stays out.
    const joined = await familySignup(other, invitationTo(other));
    expect(joined.statusCode, joined.body).toBe(201);
    expect(await grantsOf(g.contactId)).toEqual([
      expect.objectContaining({ familyUserId: await accountIdOf(t.app, other) }),
    ]);
    expect(await proxyReads(g)).toEqual(refused);
    const trail = await send('GET', '/api/audit-logs/patient?pageSize=100', g.patient.cookie);
    expect(trail.json<{ items: { details: string }[] }>().items.map((e) => e.details)).toContain(
      'Family access through Ana Lopez (child) ended: the contact was changed, so access needs a new invitation',
    );
  });

  it('ends when the contact’s name changes; the same address must accept a new invitation', async () => {
    const g = await grantedFamily();
    const before = invitationsTo(g.family.email);
    const put = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email, { firstName: 'Anna', lastName: 'Perez' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await proxyReads(g)).toEqual(refused);
    expect(invitationsTo(g.family.email)).toBe(before + 1);
    const token = invitationTo(g.family.email)!;
    expect(token).not.toBe(g.token);
    expect(
      (await send('POST', '/api/proxy/accept', g.family.cookie, { inviteToken: token })).statusCode,
    ).toBe(200);
    expect(await proxyReads(g)).toEqual(granted);
  });

  it('voids a link still unused when the contact is re-pointed', async () => {
    const row = await addPatient(t.app, t.hospital.cookie, { firstName: 'Rosa', lastName: 'Lopez' });
    const patient = await signedInPatient(t.app, row);
    const first = uniqueEmail('first');
    const added = await send('POST', '/api/family-contacts', patient.cookie, relative(first));
    const oldToken = invitationTo(first)!;
    const contactId = added.json<{ id: string }>().id;
    const second = uniqueEmail('second');
    expect(
      (await send('PUT', `/api/family-contacts/${contactId}`, patient.cookie, relative(second))).statusCode,
    ).toBe(200);
    expect((await familySignup(first, oldToken)).statusCode).toBe(400);
    expect(await grantsOf(contactId)).toEqual([]);
  });

  it('keeps access through a change of phone, address or relationship', async () => {
    const g = await grantedFamily();
    const put = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email, { phone: '+1 555 0100', address: '1 Main St', relationship: 'sibling' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await proxyReads(g)).toEqual(granted);
  });

  it('is not given back by ticking "Can Access Medical Records" again after Revoke', async () => {
    const g = await grantedFamily();
    expect((await send('DELETE', `/api/proxy/holders/${g.contactId}`, g.patient.cookie)).statusCode).toBe(
      200,
    );
    const before = invitationsTo(g.family.email);
    const put = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await proxyReads(g)).toEqual(refused);
    expect((await send('GET', '/api/proxy/holders', g.patient.cookie)).json().holders).toEqual([]);
    // A new invitation is mailed; accepting it gives access again.
    expect(invitationsTo(g.family.email)).toBe(before + 1);
    const token = invitationTo(g.family.email)!;
    expect(
      (await send('POST', '/api/proxy/accept', g.family.cookie, { inviteToken: token })).statusCode,
    ).toBe(200);
    expect(await proxyReads(g)).toEqual(granted);
  });

  it('ends a grant kept from before this rule (flag cleared, grant left) when the flag is ticked again', async () => {
    const g = await grantedFamily();
    // What Revoke used to leave behind: the flag off, the grant row still there.
    await t.ctx.db
      .update(familyContacts)
      .set({ canAccessRecords: false })
      .where(eq(familyContacts.id, g.contactId));
    expect(await grantsOf(g.contactId)).toHaveLength(1);
    const put = await send(
      'PUT',
      `/api/family-contacts/${g.contactId}`,
      g.patient.cookie,
      relative(g.family.email),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await grantsOf(g.contactId)).toEqual([]);
    expect(await proxyReads(g)).toEqual(refused);
  });

  it('is not given back by ticking the flag again after clearing it in the contact form', async () => {
    const g = await grantedFamily();
    const url = `/api/family-contacts/${g.contactId}`;
    await send('PUT', url, g.patient.cookie, relative(g.family.email, { canAccessRecords: false }));
    await send('PUT', url, g.patient.cookie, relative(g.family.email));
    expect(await proxyReads(g)).toEqual(refused);
  });
});

describe('another patient’s ids', () => {
  it('are 404 to a proxy, as are malformed ones', async () => {
    const g = await grantedFamily();
    const other = await grantedFamily();
    const c = g.family.cookie;
    for (const url of [
      `/api/proxy/patients/${other.row.id}/records`,
      `/api/proxy/patients/${other.row.id}/appointments`,
      `/api/medical-records/record/${other.record.id}`,
      `/api/medical-records/${other.record.id}/verification`,
      other.download,
      '/api/proxy/patients/not-a-uuid/records',
    ]) {
      expect((await send('GET', url, c)).statusCode, url).toBe(404);
    }
    // The other relative still reads their own patient.
    expect(await proxyReads(other)).toEqual(granted);
  });
});

describe('invitations', () => {
  it('are one-time: a used link is refused, and so is an expired one', async () => {
    const g = await grantedFamily();
    const reuse = await familySignup(uniqueEmail('again'), g.token);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().message).toBe(INVITE_MESSAGES.used);

    const row = await addPatient(t.app, t.hospital.cookie);
    const patient = await signedInPatient(t.app, row);
    const email = uniqueEmail('late');
    await send('POST', '/api/family-contacts', patient.cookie, relative(email));
    await t.ctx.db
      .update(familyInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(familyInvitations.email, email));
    const late = await familySignup(email, invitationTo(email));
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe(INVITE_MESSAGES.expired);
    // Nothing was created: the address is still free for a fresh link.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: STRONG_PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('are refused for another address, a forged token or none', async () => {
    const row = await addPatient(t.app, t.hospital.cookie);
    const patient = await signedInPatient(t.app, row);
    const email = uniqueEmail('invited');
    await send('POST', '/api/family-contacts', patient.cookie, relative(email));
    const token = invitationTo(email)!;
    const other = await familySignup(uniqueEmail('someone'), token);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(INVITE_MESSAGES.otherEmail);
    const forged = await familySignup(email, `${token.slice(0, -4)}AAAA`);
    expect([forged.statusCode, forged.json().message]).toEqual([400, INVITE_MESSAGES.invalid]);
    const none = await familySignup(email, undefined);
    expect(none.statusCode).toBe(400);
    // The right address still works afterwards.
    expect((await familySignup(email, token)).statusCode).toBe(201);
  });

  it('are sent by the patient on request, only when the contact may have access', async () => {
    const row = await addPatient(t.app, t.hospital.cookie);
    const patient = await signedInPatient(t.app, row);
    const email = uniqueEmail('asked');
    const noAccess = await send(
      'POST',
      '/api/family-contacts',
      patient.cookie,
      relative(email, { canAccessRecords: false }),
    );
    const id = noAccess.json<{ id: string }>().id;
    expect(invitationsTo(email)).toBe(0);
    const invite = (cookie = patient.cookie) => send('POST', `/api/family-contacts/${id}/invite`, cookie);

    expect([(await invite()).statusCode, (await invite()).json().message]).toEqual([
      409,
      INVITE_MESSAGES.flagOff,
    ]);
    await send('PUT', `/api/family-contacts/${id}`, patient.cookie, relative(email, { email: null }));
    expect((await invite()).json().message).toBe(INVITE_MESSAGES.noEmail);
    await send('PUT', `/api/consent/${patient.userId}`, patient.cookie, {
      shareWithSpecialists: true,
      shareWithFamily: false,
    });
    await send('PUT', `/api/family-contacts/${id}`, patient.cookie, relative(email));
    expect(invitationsTo(email)).toBe(0); // consent off: no automatic invitation
    expect((await invite()).json().message).toBe(INVITE_MESSAGES.consentOff);

    // Turning family sharing on sends the invitation by itself, once.
    await send('PUT', `/api/consent/${patient.userId}`, patient.cookie, {
      shareWithSpecialists: true,
      shareWithFamily: true,
    });
    expect(invitationsTo(email)).toBe(1);
    await send('PUT', `/api/consent/${patient.userId}`, patient.cookie, {
      shareWithSpecialists: true,
      shareWithFamily: true,
    });
    expect(invitationsTo(email)).toBe(1);
    const first = invitationTo(email)!;
    // Asked for again: a new link, and the earlier one stops working.
    expect((await invite()).statusCode).toBe(200);
    expect(invitationsTo(email)).toBe(2);
    expect((await familySignup(email, first)).statusCode).toBe(400);

    const stranger = await signedInPatient(t.app, await addPatient(t.app, t.hospital.cookie));
    expect((await invite(stranger.cookie)).statusCode).toBe(404);
    expect((await invite(t.hospital.cookie)).statusCode).toBe(403);
  });

  it('answers a signup through it with an address that has an account as any other, and keeps it to accept', async () => {
    const g = await grantedFamily();
    const row = await addPatient(t.app, t.hospital.cookie, { firstName: 'Rosa', lastName: 'Lopez' });
    const second = await signedInPatient(t.app, row);
    const added = await send('POST', '/api/family-contacts', second.cookie, relative(g.family.email));
    expect(added.statusCode, added.body).toBe(201);
    const token = invitationTo(g.family.email)!;
    // The invitation is checked before the address: a bad one is refused alike on a taken address.
    const badOnTaken = await familySignup(g.family.email, 'not-a-real-token');
    const badOnNew = await familySignup(uniqueEmail('new-relative'), 'not-a-real-token');
    expect(badOnTaken.statusCode).toBe(400);
    expect(badOnTaken.body).toBe(badOnNew.body);
    const taken = await familySignup(g.family.email, token);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toEqual({ message: SIGNUP_ANSWER });
    // Nothing was used up: the owner accepts it signed in.
    const accepted = await send('POST', '/api/proxy/accept', g.family.cookie, { inviteToken: token });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('can be accepted by a signed-in family member for a further patient', async () => {
    const g = await grantedFamily();
    const row = await addPatient(t.app, t.hospital.cookie, { firstName: 'Luis', lastName: 'Lopez' });
    const second = await signedInPatient(t.app, row);
    await send(
      'POST',
      '/api/family-contacts',
      second.cookie,
      relative(g.family.email, { relationship: 'sibling' }),
    );
    const token = invitationTo(g.family.email)!;
    expect(token).not.toBe(g.token);
    const accepted = await send('POST', '/api/proxy/accept', g.family.cookie, { inviteToken: token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const names = (await send('GET', '/api/proxy/patients', g.family.cookie))
      .json<{ patients: { name: string }[] }>()
      .patients.map((p) => p.name);
    expect(names).toEqual(['Maria Lopez', 'Luis Lopez']);
    expect(
      (await send('POST', '/api/proxy/accept', g.family.cookie, { inviteToken: token })).statusCode,
    ).toBe(409);
    expect(
      (await send('POST', '/api/proxy/accept', g.patient.cookie, { inviteToken: token })).statusCode,
    ).toBe(403);
  });

  it('lets a family member sign in on the family page only, and manage their own sign-in', async () => {
    const g = await grantedFamily();
    const signIn = (portal: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: g.family.email, password: STRONG_PASSWORD, portal },
      });
    expect((await signIn('family')).statusCode).toBe(200);
    expect((await signIn('patient')).statusCode).toBe(403);
    // Their own sign-in security is theirs to manage, as for every role.
    expect((await send('GET', '/api/auth/sessions', g.family.cookie)).statusCode).toBe(200);
    expect((await send('GET', '/api/auth/2fa', g.family.cookie)).statusCode).toBe(200);
  });
});
