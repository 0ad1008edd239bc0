// Specialist share links (docs/decisions.md#specialist-share-links): create, list, revoke; the
// public link with its download; every way of losing access (revoked, expired, consent off, the
// record's switch off, entered in error); other parties' ids; the ledger and the audit trail.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SHARE_UNAVAILABLE } from '../../../shared/shares.js';
import { ledgerEntries, shareLinks } from '../../db/schema.js';
import { linksIn, outboxMessages } from '../../mail/read-message.js';
import { auditRows, call, useCast } from '../../test/helpers.js';
import { ledgerContentOf } from '../ledger/testing.js';
import { multipartBody, samplePdf, uploadRecord } from '../records/testing.js';
import { CONSENT_OFF, NOT_CURRENT, SWITCH_OFF } from './service.js';

const start = new Date('2026-11-23T10:00:00Z');
let clock = start;
const t = useCast({
  config: { publicUrl: 'http://medledger.test' },
  options: { now: () => clock },
  others: true,
  admin: true,
});
const pdf = samplePdf('shared with a specialist');

async function newRecord(fields: Record<string, string> = {}): Promise<string> {
  const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
    fields: { title: 'Cardiology report', shareWithSpecialists: 'true', ...fields },
    files: [{ fileName: 'ecg.pdf', bytes: pdf }],
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

const headers = (cookie?: string) => (cookie ? { cookie } : {});
const share = (recordId: string, cookie: string | undefined, payload: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/medical-records/${recordId}/shares`,
    headers: headers(cookie),
    payload: {
      recipientEmail: 'Dr.Heart@Clinic.example',
      expiresInHours: 48,
      note: 'Before Monday',
      ...payload,
    },
  });
const list = (recordId: string, cookie: string) =>
  t.app.inject({ method: 'GET', url: `/api/medical-records/${recordId}/shares`, headers: { cookie } });
const revoke = (recordId: string, shareId: string, cookie: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/medical-records/${recordId}/shares/${shareId}`,
    headers: { cookie },
  });
const open = (token: string) => t.app.inject({ method: 'GET', url: `/api/shares/${token}` });

/** The token of the last link mailed to the specialist. */
function lastToken(): string {
  const messages = outboxMessages(t.ctx.mail.outboxDir);
  const link = linksIn(messages[messages.length - 1]).find((l) => new URL(l).pathname.startsWith('/shared/'));
  if (!link) throw new Error('no share link in the last mail');
  return new URL(link).pathname.split('/')[2];
}

/** Shares a new record as the patient; its record id, share id and token. */
async function sharedRecord(payload: object = {}) {
  const recordId = await newRecord();
  const res = await share(recordId, t.patient.cookie, payload);
  expect(res.statusCode, res.body).toBe(201);
  return { recordId, shareId: res.json<{ id: string }>().id, token: lastToken() };
}

/** The link no longer opens (one message, whatever the reason) and its list entry says inactive. */
async function expectRefused(s: { recordId: string; shareId: string; token: string }) {
  const res = await open(s.token);
  expect(res.statusCode).toBe(404);
  expect(res.json().message).toBe(SHARE_UNAVAILABLE);
  const item = (await list(s.recordId, t.patient.cookie))
    .json()
    .items.find((i: { id: string }) => i.id === s.shareId);
  expect(item.active).toBe(false);
}

describe('creating a share link', () => {
  it('mails the link to the recipient, stores only its hash, ledgers and audits it', async () => {
    const recordId = await newRecord();
    const before = outboxMessages(t.ctx.mail.outboxDir).length;
    const res = await share(recordId, t.patient.cookie);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      recordId,
      recipientEmail: 'dr.heart@clinic.example',
      note: 'Before Monday',
      timesOpened: 0,
      revokedAt: null,
      active: true,
      expiresAt: new Date(start.getTime() + 48 * 3600_000).toISOString(),
    });
    const messages = outboxMessages(t.ctx.mail.outboxDir).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^To: dr\.heart@clinic\.example/m);
    const subject = /^Subject: (.*)$/m.exec(messages[0])?.[1] ?? '';
    expect(subject).not.toMatch(/Cardiology/);
    const token = lastToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, created.id));
    expect(row.tokenHash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const [audit] = await auditRows(t, { entityId: created.id });
    expect(audit).toMatchObject({
      action: 'consent_change',
      userId: t.patient.userId,
      patientId: t.patientRow.id,
    });
    const [entry] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.hash, audit.blockchainHash!));
    expect(await ledgerContentOf(t.ctx.db, entry.seq)).toMatchObject({
      scope: 'share',
      action: 'create',
      shareId: created.id,
      recordId,
      recipientEmail: 'dr.heart@clinic.example',
    });
  });

  it('lets the owning hospital share too, and nobody else (404 for other parties, 401, 403)', async () => {
    const recordId = await newRecord();
    expect((await share(recordId, t.hospital.cookie)).statusCode).toBe(201);
    expect((await share(recordId, t.otherHospital.cookie)).statusCode).toBe(404);
    expect((await share(recordId, t.otherPatient.cookie)).statusCode).toBe(404);
    expect((await share(recordId, t.admin.cookie)).statusCode).toBe(403);
    expect((await share(recordId, undefined)).statusCode).toBe(401);
    expect((await list(recordId, t.otherPatient.cookie)).statusCode).toBe(404);
    expect((await list(recordId, t.otherHospital.cookie)).statusCode).toBe(404);
    expect((await share('not-a-uuid', t.patient.cookie)).statusCode).toBe(404);
  });

  it('refuses bad input with 400 and a message', async () => {
    const recordId = await newRecord();
    const cases: [object, string][] = [
      [{ recipientEmail: 'nobody' }, 'Please enter a valid email address'],
      [{ expiresInHours: 0 }, 'between 1 and 720 hours'],
      [{ expiresInHours: 721 }, 'between 1 and 720 hours'],
      [{ expiresInHours: 1.5 }, 'between 1 and 720 hours'],
      [{ expiresInHours: '12' }, 'between 1 and 720 hours'],
      [{ note: 'x'.repeat(1001) }, 'The note is too long'],
    ];
    for (const [payload, message] of cases) {
      const res = await share(recordId, t.patient.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it('refuses a draft, a retracted record, a record switch that is off (409 with a message)', async () => {
    const draft = await newRecord({ draft: 'true' });
    expect((await share(draft, t.hospital.cookie)).json().message).toBe(NOT_CURRENT);
    const off = await newRecord({ shareWithSpecialists: 'false' });
    const res = await share(off, t.patient.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SWITCH_OFF);
    const retracted = await newRecord();
    await retract(retracted);
    expect((await share(retracted, t.patient.cookie)).json().message).toBe(NOT_CURRENT);
  });
});

const retract = async (recordId: string) => {
  const res = await call(
    t.app,
    'POST',
    `/api/medical-records/${recordId}/entered-in-error`,
    t.hospital.cookie,
    { reason: 'Wrong patient' },
  );
  expect(res.statusCode).toBe(200);
};
const setSwitch = (recordId: string, on: boolean) =>
  call(t.app, 'PUT', `/api/medical-records/${recordId}/sharing`, t.patient.cookie, {
    shareWithSpecialists: on,
    shareWithFamily: false,
  });
const setConsent = (on: boolean) =>
  call(t.app, 'PUT', `/api/consent/${t.patient.userId}`, t.patient.cookie, {
    shareWithSpecialists: on,
    shareWithFamily: true,
  });

describe('opening a link without an account', () => {
  it('answers the record, its attachments under the token and its verification; the download is the file', async () => {
    const s = await sharedRecord();
    const res = await open(s.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.record).toMatchObject({
      title: 'Cardiology report',
      documentStatus: 'current',
      providerName: 'General Hospital',
    });
    expect(body.record).not.toHaveProperty('patient');
    expect(body.verification.verified).toBe(true);
    expect(body.note).toBe('Before Monday');
    expect(body.attachments).toHaveLength(1);
    const url: string = body.attachments[0].url;
    expect(url.startsWith(`/api/shares/${s.token}/attachments/`)).toBe(true);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect(file.headers['content-disposition']).toContain('ecg.pdf');
    // Another record's attachment id under this token: not found.
    const other = await sharedRecord();
    const otherFile = (await open(other.token)).json().attachments[0];
    const mixed = await t.app.inject({
      method: 'GET',
      url: `/api/shares/${s.token}/attachments/${otherFile.id}`,
    });
    expect(mixed.statusCode).toBe(404);
  });

  it('counts and audits each opening with the IP, shown in the patient’s activity trail', async () => {
    const s = await sharedRecord();
    await open(s.token);
    await open(s.token);
    const item = (await list(s.recordId, t.patient.cookie)).json().items[0];
    expect(item).toMatchObject({ timesOpened: 2, lastOpenedAt: start.toISOString(), active: true });
    const opened = await auditRows(t, { entityId: s.recordId, action: 'record_view' });
    expect(opened).toHaveLength(2);
    expect(opened[0]).toMatchObject({ userId: null, ipAddress: '127.0.0.1', patientId: t.patientRow.id });
    const trail = await call(t.app, 'GET', '/api/audit-logs/patient?action=record_view', t.patient.cookie);
    expect(trail.statusCode).toBe(200);
    const details = trail.json().items.map((i: { details: string }) => i.details);
    expect(details).toContain('"Cardiology report" opened by specialist link to dr.heart@clinic.example');
  });

  it('answers the same 404 for a malformed or unknown token', async () => {
    for (const token of ['x', 'A'.repeat(43), '../../etc/passwd']) {
      const res = await open(encodeURIComponent(token));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SHARE_UNAVAILABLE);
    }
  });
});

/** The hospital amends the record (without files: the new version keeps them); the new version. */
async function amendRecord(recordId: string, fields: Record<string, string>) {
  const { payload, headers: multipart } = multipartBody(
    Object.entries({ patientId: t.patientRow.id, recordType: 'lab-results', ...fields }).map(
      ([name, value]) => ({
        name,
        value,
      }),
    ),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/medical-records/${recordId}/amend`,
    headers: { ...multipart, cookie: t.hospital.cookie },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; attachments: { sha256: string }[] }>();
}

describe('a link follows its record', () => {
  it('opens the current version once the record is amended, says so and lists the versions', async () => {
    const s = await sharedRecord();
    const v2 = await amendRecord(s.recordId, { title: 'Cardiology report (corrected)' });
    const res = await open(s.token);
    expect(res.statusCode, res.body).toBe(200);
    const shared = res.json();
    expect(shared.record).toMatchObject({
      title: 'Cardiology report (corrected)',
      documentStatus: 'current',
    });
    expect(shared.amendedSinceShared).toBe(true);
    expect(
      shared.versions.map((v: { title: string; documentStatus: string }) => `${v.title}:${v.documentStatus}`),
    ).toEqual(['Cardiology report:superseded', 'Cardiology report (corrected):current']);
    expect(shared.verification.verified).toBe(true);
    // The downloads are the current version's files.
    expect(shared.attachments.map((a: { sha256: string }) => a.sha256)).toEqual(
      v2.attachments.map((a) => a.sha256),
    );
    const file = await t.app.inject({ method: 'GET', url: shared.attachments[0].url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    // The owners see the link on the new version too, active, and can revoke it there.
    const listed = (await list(v2.id, t.patient.cookie)).json().items;
    expect(listed).toEqual([expect.objectContaining({ id: s.shareId, active: true })]);
    expect((await list(s.recordId, t.patient.cookie)).json().items).toEqual([
      expect.objectContaining({ id: s.shareId, active: true }),
    ]);
    expect((await revoke(v2.id, s.shareId, t.patient.cookie)).statusCode).toBe(200);
    expect((await open(s.token)).statusCode).toBe(404);
  });

  it('keeps following through a second amendment; a link made on the current version says it was not amended since', async () => {
    const s = await sharedRecord();
    const v2 = await amendRecord(s.recordId, { title: 'Second' });
    const fresh = await share(v2.id, t.patient.cookie);
    expect(fresh.statusCode, fresh.body).toBe(201);
    const freshToken = lastToken();
    const shownFresh = (await open(freshToken)).json();
    expect(shownFresh.amendedSinceShared).toBe(false);
    expect(shownFresh.versions).toHaveLength(2);
    await amendRecord(v2.id, { title: 'Third' });
    for (const token of [s.token, freshToken]) {
      const shown = (await open(token)).json();
      expect(shown.record.title).toBe('Third');
      expect(shown.versions.map((v: { title: string }) => v.title)).toEqual([
        'Cardiology report',
        'Second',
        'Third',
      ]);
    }
  });

  it('stops when the new version is entered in error', async () => {
    const s = await sharedRecord();
    const v2 = await amendRecord(s.recordId, { title: 'Corrected' });
    await retract(v2.id);
    await expectRefused(s);
    expect(
      (await call(t.app, 'GET', '/api/shares', t.patient.cookie))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).not.toContain(s.shareId);
  });

  it('stops while the new version’s own Specialists switch is off, as the amendment set it', async () => {
    const s = await sharedRecord();
    await amendRecord(s.recordId, { title: 'Corrected', shareWithSpecialists: 'false' });
    await expectRefused(s);
  });
});

describe('losing access', () => {
  it('revoked: the link and its downloads stop at once; only owners revoke', async () => {
    const s = await sharedRecord();
    const url = (await open(s.token)).json().attachments[0].url;
    expect((await revoke(s.recordId, s.shareId, t.otherPatient.cookie)).statusCode).toBe(404);
    expect((await revoke(s.recordId, s.shareId, t.otherHospital.cookie)).statusCode).toBe(404);
    const other = await newRecord();
    expect((await revoke(other, s.shareId, t.patient.cookie)).statusCode).toBe(404);
    const res = await revoke(s.recordId, s.shareId, t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ revokedAt: start.toISOString(), active: false });
    await expectRefused(s);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const audits = await auditRows(t, { entityId: s.shareId });
    expect(audits.map((a) => a.details)).toContain(
      'Revoked the specialist link of "Cardiology report" to dr.heart@clinic.example',
    );
  });

  it('expired: refused once its hours have passed', async () => {
    const s = await sharedRecord({ expiresInHours: 1 });
    clock = new Date(clock.getTime() + 3600_000 - 1000);
    expect((await open(s.token)).statusCode).toBe(200);
    clock = new Date(clock.getTime() + 1000);
    await expectRefused(s);
  });

  it('record switch off: refused, and the record cannot be shared again until it is on', async () => {
    const s = await sharedRecord();
    expect((await setSwitch(s.recordId, false)).statusCode).toBe(200);
    await expectRefused(s);
    expect((await share(s.recordId, t.patient.cookie)).json().message).toBe(SWITCH_OFF);
  });

  it('entered in error: refused', async () => {
    const s = await sharedRecord();
    await retract(s.recordId);
    await expectRefused(s);
  });

  it('consent off: every link of the patient is revoked, and no new one can be made', async () => {
    const a = await sharedRecord();
    const b = await sharedRecord();
    const openList = await call(t.app, 'GET', '/api/shares', t.patient.cookie);
    const openIds = openList.json().items.map((i: { id: string }) => i.id);
    expect(openIds).toEqual(expect.arrayContaining([a.shareId, b.shareId]));
    expect((await setConsent(false)).statusCode).toBe(200);
    await expectRefused(a);
    await expectRefused(b);
    const rows = await t.ctx.db.select().from(shareLinks).where(eq(shareLinks.patientId, t.patientRow.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
    const again = await share(a.recordId, t.patient.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CONSENT_OFF);
    // Consent on again does not bring revoked links back.
    expect((await setConsent(true)).statusCode).toBe(200);
    await expectRefused(a);
    const after = await call(t.app, 'GET', '/api/shares', t.patient.cookie);
    expect(after.json().items).toEqual([]);
  });
});
