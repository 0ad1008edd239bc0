// Suspension stops everything the account made reach others (issue 56, item 6): a suspended
// patient's share links and family grants, a suspended hospital's share links and sessions, at the
// next request; a plain reactivation leaves them ended, one that restores sharing brings them back.
import { describe, expect, it } from 'vitest';
import { linksIn, outboxMessages } from '../../mail/read-message.js';
import {
  addPatient,
  signedInFamily,
  signedInHospital,
  signedInPatient,
  uniqueEmail,
  useCast,
} from '../../test/helpers.js';
import { uploadRecord } from '../records/testing.js';

const t = useCast({ config: { publicUrl: 'http://medledger.test' }, hospital: false, admin: true });

const send = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

/** The token of the last share link mailed. */
function lastShareToken(): string {
  const messages = outboxMessages(t.ctx.mail.outboxDir);
  const link = linksIn(messages[messages.length - 1]).find((l) => new URL(l).pathname.startsWith('/shared/'));
  if (!link) throw new Error('no share link in the last mail');
  return new URL(link).pathname.split('/')[2];
}

/**
 * A hospital and its signed-up patient, a record shared with family and specialists, a share link
 * made by each of them and a relative holding a grant from the patient.
 */
async function sharingWorld() {
  const hospital = await signedInHospital(t.app);
  const row = await addPatient(t.app, hospital.cookie);
  const patient = await signedInPatient(t.app, row.patientId);
  const upload = await uploadRecord(t.app, hospital.cookie, row.id, {
    fields: { title: 'Cardiology report', shareWithFamily: 'true', shareWithSpecialists: 'true' },
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const recordId = upload.json<{ id: string }>().id;
  const shareAs = async (cookie: string) => {
    const res = await send('POST', `/api/medical-records/${recordId}/shares`, cookie, {
      recipientEmail: 'dr.heart@clinic.example',
      expiresInHours: 48,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json<{ id: string }>().id, token: lastShareToken() };
  };
  const patientLink = await shareAs(patient.cookie);
  const hospitalLink = await shareAs(hospital.cookie);
  const family = await signedInFamily(t, patient.cookie, uniqueEmail('relative'));
  return { hospital, row, patient, recordId, patientLink, hospitalLink, family };
}
type World = Awaited<ReturnType<typeof sharingWorld>>;

/** What reaches others right now: each link's and the relative's answer. */
async function reach(w: World) {
  return {
    patientLink: (await send('GET', `/api/shares/${w.patientLink.token}`)).statusCode,
    hospitalLink: (await send('GET', `/api/shares/${w.hospitalLink.token}`)).statusCode,
    family: (await send('GET', `/api/proxy/patients/${w.row.id}/records`, w.family.cookie)).statusCode,
    familyRecord: (await send('GET', `/api/medical-records/record/${w.recordId}`, w.family.cookie))
      .statusCode,
  };
}
const everything = { patientLink: 200, hospitalLink: 200, family: 200, familyRecord: 200 };

const suspend = (userId: string) => send('POST', `/api/admin/users/${userId}/suspend`, t.admin.cookie);
const reactivate = (userId: string, payload?: object) =>
  send('POST', `/api/admin/users/${userId}/reactivate`, t.admin.cookie, payload);

/** Whether the link, as the hospital's list of the record's links shows it, is active or revoked. */
async function linkState(w: World, linkId: string) {
  const res = await send('GET', `/api/medical-records/${w.recordId}/shares`, w.hospital.cookie);
  const item = res.json().items.find((i: { id: string }) => i.id === linkId);
  return { active: item.active, revoked: item.revokedAt !== null };
}

describe('suspending a patient', () => {
  it('stops their share links and family grants at once; a plain reactivation leaves them ended', async () => {
    const w = await sharingWorld();
    expect(await reach(w)).toEqual(everything);

    const suspended = await suspend(w.patient.userId);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().message).toBe(
      'The account has been suspended; 1 session ended, 1 share link and 1 family grant stopped.',
    );
    // The hospital's own link is the hospital's doing, not the patient's: it still opens.
    const stopped = { ...everything, patientLink: 404, family: 404, familyRecord: 404 };
    expect(await reach(w)).toEqual(stopped);
    expect(await linkState(w, w.patientLink.id)).toEqual({ active: false, revoked: false });

    const back = await reactivate(w.patient.userId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().message).toBe(
      'The account has been reactivated; 1 share link and 1 family grant ended for good.',
    );
    expect(await reach(w)).toEqual(stopped);
    expect(await linkState(w, w.patientLink.id)).toEqual({ active: false, revoked: true });
    // Suspended and reactivated again: nothing of the old sharing comes back, even when asked.
    await suspend(w.patient.userId);
    await reactivate(w.patient.userId, { restoreSharing: true });
    expect(await reach(w)).toEqual(stopped);
  });

  it('brings them back when the administrator restores sharing on reactivation', async () => {
    const w = await sharingWorld();
    expect((await suspend(w.patient.userId)).statusCode).toBe(200);
    expect((await reach(w)).family).toBe(404);
    const back = await reactivate(w.patient.userId, { restoreSharing: true });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().message).toBe(
      'The account has been reactivated; 1 share link and 1 family grant restored.',
    );
    expect(await reach(w)).toEqual(everything);
  });
});

describe('suspending a hospital', () => {
  it('ends its sessions and stops its share links; a plain reactivation leaves them ended', async () => {
    const w = await sharingWorld();
    const suspended = await suspend(w.hospital.userId);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().message).toMatch(/1 share link and 0 family grants stopped\.$/);
    expect((await send('GET', '/api/auth/me', w.hospital.cookie)).json().user).toBeNull();
    // The patient's link and the patient's grant are the patient's: they go on.
    const stopped = { ...everything, hospitalLink: 404 };
    expect(await reach(w)).toEqual(stopped);

    expect((await reactivate(w.hospital.userId, {})).statusCode).toBe(200);
    expect(await reach(w)).toEqual(stopped);
  });

  it('brings its links back when the administrator restores sharing', async () => {
    const w = await sharingWorld();
    await suspend(w.hospital.userId);
    expect((await reach(w)).hospitalLink).toBe(404);
    expect((await reactivate(w.hospital.userId, { restoreSharing: true })).statusCode).toBe(200);
    expect(await reach(w)).toEqual(everything);
  });
});

describe('POST /api/admin/users/{id}/reactivate', () => {
  it('refuses a restoreSharing that is not true or false with a message', async () => {
    const w = await sharingWorld();
    await suspend(w.patient.userId);
    const bad = await reactivate(w.patient.userId, { restoreSharing: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/restoreSharing must be true or false/);
    expect((await reach(w)).family).toBe(404);
  });
});
