import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { addPatient, auditRows, call, signedInHospital, useCast } from '../../test/helpers.js';
import { uploadRecord } from '../records/testing.js';

const t = useCast({ patient: { firstName: 'Ada' } });
let other: { cookie: string; userId: string };
let recordId: string;

beforeAll(async () => {
  other = await signedInHospital(t.app);
  recordId = (await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id)).json().id;
  await addPatient(t.app, other.cookie);
  // The patient reads their records: that read belongs in the hospital's trail too.
  await call(t.app, 'GET', '/api/medical-records', t.patient.cookie);
});

const get = (url: string, cookie?: string) => call(t.app, 'GET', url, cookie);

describe("a hospital's audit trail", () => {
  it("holds its own users' actions and reads of its patients' records, and nothing of other hospitals", async () => {
    const res = await get('/api/audit-logs', t.hospital.cookie);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    const actions = page.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['login', 'patient_create', 'record_upload', 'record_access']),
    );
    expect(page.items.some((e: { userId: string }) => e.userId === t.patient.userId)).toBe(true);
    expect(page.items.some((e: { userId: string }) => e.userId === other.userId)).toBe(false);
    expect(page.total).toBe(page.items.length);
    const upload = page.items.find((e: { action: string }) => e.action === 'record_upload');
    expect(upload).toMatchObject({
      entityId: recordId,
      blockchainVerified: true,
      userName: 'Hana Ward, General Hospital',
    });
    expect(upload.blockchainHash).toMatch(/^[0-9a-f]{64}$/);
    // Its time is the stored instant, as a Date of it prints it.
    const [stored] = await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.id, upload.id));
    expect(upload.createdAt).toBe(stored.createdAt.toISOString());
    const login = page.items.find((e: { action: string }) => e.action === 'login');
    expect(login).toMatchObject({ blockchainHash: null, blockchainVerified: false });
  });

  it('filters by action, by user and by period, and pages with a true total', async () => {
    const byAction = (await get('/api/audit-logs?action=record_upload', t.hospital.cookie)).json();
    expect(byAction.items.map((e: { action: string }) => e.action)).toEqual(['record_upload']);
    const byUser = (await get(`/api/audit-logs?userId=${t.patient.userId}`, t.hospital.cookie)).json();
    expect(byUser.total).toBeGreaterThan(0);
    expect(byUser.items.every((e: { userId: string }) => e.userId === t.patient.userId)).toBe(true);
    const all = (await get('/api/audit-logs?action=all&userId=all', t.hospital.cookie)).json();
    const now = Date.now();
    const today = (
      await get(
        `/api/audit-logs?from=${new Date(now - 3600_000).toISOString()}&to=${new Date(now + 3600_000).toISOString()}`,
        t.hospital.cookie,
      )
    ).json();
    expect(today.total).toBe(all.total);
    const yesterday = (
      await get(
        `/api/audit-logs?from=${new Date(now - 48 * 3600_000).toISOString()}&to=${new Date(now - 24 * 3600_000).toISOString()}`,
        t.hospital.cookie,
      )
    ).json();
    expect(yesterday).toMatchObject({ items: [], total: 0 });
    const first = (await get('/api/audit-logs?pageSize=2&page=1', t.hospital.cookie)).json();
    const second = (await get('/api/audit-logs?pageSize=2&page=2', t.hospital.cookie)).json();
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(all.total);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect(first.items.map((e: { id: string }) => e.id)).toEqual(
      all.items.slice(0, 2).map((e: { id: string }) => e.id),
    );
  });

  it('refuses malformed filters with 400', async () => {
    const notUuids = ['-'.repeat(36), 'a'.repeat(36), `${t.patient.userId.replaceAll('-', '')}----`];
    const queries = [
      'action=DROP%20TABLE',
      'userId=abc',
      ...notUuids.map((id) => `userId=${id}`),
      'from=yesterday',
      'from=0',
      'from=2026-02-30T00:00:00Z',
      'to=1.5',
      'pageSize=0',
    ];
    for (const q of queries) {
      const res = await get(`/api/audit-logs?${q}`, t.hospital.cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    // The patient's own trail takes the same filter.
    const own = await get(`/api/audit-logs/patient?userId=${notUuids[0]}`, t.patient.cookie);
    expect(own.statusCode).toBe(400);
  });

  it("lists the trail's users for the user filter", async () => {
    const users = (await get('/api/audit-logs/users', t.hospital.cookie)).json();
    expect(users.map((u: { id: string }) => u.id).sort()).toEqual(
      [t.hospital.userId, t.patient.userId].sort(),
    );
    expect(users.find((u: { id: string }) => u.id === t.patient.userId)).toMatchObject({
      name: 'Pat Doe',
      role: 'patient',
    });
  });

  it('grows with every read of a record', async () => {
    const before = (await get('/api/audit-logs?action=record_access', t.hospital.cookie)).json().total;
    await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie);
    await get(`/api/medical-records/record/${recordId}`, t.hospital.cookie);
    const after = (await get('/api/audit-logs?action=record_access', t.hospital.cookie)).json().total;
    expect(after).toBe(before + 1);
    const views = (await get('/api/audit-logs?action=record_view', t.hospital.cookie)).json();
    expect(views.items[0]).toMatchObject({ entityId: recordId, userId: t.hospital.userId });
  });

  it('answers 403 to a patient and 401 signed out', async () => {
    for (const url of ['/api/audit-logs', '/api/audit-logs/users']) {
      expect((await get(url, t.patient.cookie)).statusCode).toBe(403);
      expect((await get(url)).statusCode).toBe(401);
    }
  });
});

describe("a patient's activity trail", () => {
  it("holds the entries about the patient's own records only, with the patient's own IP only", async () => {
    const res = await get('/api/audit-logs/patient', t.patient.cookie);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBeGreaterThan(0);
    const rows = await auditRows(t, { patientId: t.patientRow.id });
    expect(page.total).toBe(rows.length);
    for (const e of page.items as { userId: string | null; ipAddress: string | null }[]) {
      expect(e.ipAddress === null, JSON.stringify(e)).toBe(e.userId !== t.patient.userId);
    }
    const uploads = (await get('/api/audit-logs/patient?action=record_upload', t.patient.cookie)).json();
    expect(uploads.items.map((e: { entityId: string }) => e.entityId)).toEqual([recordId]);
  });

  it('answers 403 to a hospital and 401 signed out', async () => {
    expect((await get('/api/audit-logs/patient', t.hospital.cookie)).statusCode).toBe(403);
    expect((await get('/api/audit-logs/patient')).statusCode).toBe(401);
  });
});

describe("the patient's trail shows only what the patient can see", () => {
  it("leaves out the hospital's drafts and the staff's IP addresses; keeps the patient's own", async () => {
    const draft = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'Unfinished biopsy note', draft: 'true' },
    });
    expect(draft.statusCode).toBe(201);
    const draftRecord = draft.json<{ id: string; attachments: { url: string }[] }>();
    for (const url of [`/api/medical-records/record/${draftRecord.id}`, draftRecord.attachments[0].url]) {
      expect(
        (await t.app.inject({ method: 'GET', url, headers: { cookie: t.hospital.cookie } })).statusCode,
      ).toBe(200);
    }
    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/medical-records/record/${recordId}`,
      headers: { cookie: t.patient.cookie },
      remoteAddress: '203.0.113.7',
    });
    expect(seen.statusCode).toBe(200);

    const hospitalTrail = await call(t.app, 'GET', '/api/audit-logs?pageSize=100', t.hospital.cookie);
    expect(JSON.stringify(hospitalTrail.json().items)).toContain('Unfinished biopsy note');

    const res = await call(t.app, 'GET', '/api/audit-logs/patient?pageSize=100', t.patient.cookie);
    const items = res.json<{
      items: { userId: string | null; ipAddress: string | null; details: string }[];
    }>().items;
    expect(JSON.stringify(items)).not.toContain('Unfinished biopsy note');
    expect(JSON.stringify(items)).not.toContain('report.pdf" of "Unfinished');
    const byStaff = items.filter((i) => i.userId === t.hospital.userId);
    expect(byStaff.length).toBeGreaterThan(0);
    expect(byStaff.every((i) => i.ipAddress === null)).toBe(true);
    expect(items.some((i) => i.userId === t.patient.userId && i.ipAddress === '203.0.113.7')).toBe(true);
  });
});

describe('routine access in the patient’s trail', () => {
  it('hides list reads on request and counts them, keeping every view and download', async () => {
    const read = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: t.patient.cookie } });
    for (let i = 0; i < 3; i++) expect((await read('/api/medical-records')).statusCode).toBe(200);
    expect((await read(`/api/medical-records/record/${recordId}`)).statusCode).toBe(200);
    const trail = async (query: string) =>
      (await read(`/api/audit-logs/patient?pageSize=100${query}`)).json();

    const all = await trail('');
    const lists = all.items.filter((e: { details: string }) => e.details.startsWith('Listed '));
    expect(lists.length).toBeGreaterThanOrEqual(4);
    expect(all.routineHidden).toBeUndefined();

    const quiet = await trail('&routine=hide');
    expect(quiet.items.some((e: { details: string }) => e.details.startsWith('Listed '))).toBe(false);
    expect(quiet.routineHidden).toBe(lists.length);
    expect(quiet.total).toBe(all.total - lists.length);
    expect(quiet.items.some((e: { action: string }) => e.action === 'record_view')).toBe(true);
    // The other filters still apply to what is counted.
    const uploads = await trail('&routine=hide&action=record_upload');
    expect(uploads.routineHidden).toBe(0);

    expect((await read('/api/audit-logs/patient?routine=maybe')).statusCode).toBe(400);
  });
});

describe("the counts of a hospital's trail", () => {
  type Page = {
    items: { id: string; action: string; entityType: string | null }[];
    total: number;
    routineHidden?: number;
  };
  const isRoutine = (e: { action: string; entityType: string | null }) =>
    e.action === 'record_access' && e.entityType === 'patient';
  /** What the trail holds, counted here from its rows (not by the SQL under test). */
  async function expected(match: { action?: string } = {}) {
    const rows = await auditRows(t, { hospitalId: t.hospital.userId, ...match });
    const routine = rows.filter(isRoutine).length;
    return { all: rows.length, routine, shown: rows.length - routine };
  }
  const page = async (query: string) =>
    (await get(`/api/audit-logs?${query}`, t.hospital.cookie)).json<Page>();

  beforeAll(async () => {
    // Routine reads (a records list opened) by the hospital and by the patient, a list of the
    // hospital's drafts, which is record_access too but not a patient's list, so never routine, and
    // a download (record_download, never routine).
    for (let i = 0; i < 3; i++) await get(`/api/medical-records/${t.patientRow.id}`, t.hospital.cookie);
    expect((await get('/api/medical-records/drafts', t.hospital.cookie)).statusCode).toBe(200);
    await get('/api/medical-records', t.patient.cookie);
    const record = (await get(`/api/medical-records/record/${recordId}`, t.hospital.cookie)).json<{
      attachments: { url: string }[];
    }>();
    expect((await get(record.attachments[0].url, t.hospital.cookie)).statusCode).toBe(200);
  });

  it('counts the whole trail, routine reads shown or hidden, on every page', async () => {
    const counts = await expected();
    expect(counts.routine).toBeGreaterThanOrEqual(4);
    const shown = await page('pageSize=5');
    expect(shown.total).toBe(counts.all);
    expect(shown.routineHidden).toBeUndefined();

    const hidden = await page('routine=hide&pageSize=5');
    expect(hidden).toMatchObject({ total: counts.shown, routineHidden: counts.routine });
    expect(hidden.items.some(isRoutine)).toBe(false);
    const second = await page('routine=hide&pageSize=5&page=2');
    expect(second).toMatchObject({ total: counts.shown, routineHidden: counts.routine });
    expect(second.items.map((e) => e.id)).not.toContain(hidden.items[0].id);
    // A page past the end has no rows to carry the counts: they are asked apart.
    expect(await page('routine=hide&page=999')).toMatchObject({
      items: [],
      total: counts.shown,
      routineHidden: counts.routine,
    });
    expect(await page('page=999')).toMatchObject({ items: [], total: counts.all });
  });

  it('counts what the filters keep, also when every entry kept is a routine read', async () => {
    const access = await expected({ action: 'record_access' });
    expect(access.shown).toBeGreaterThanOrEqual(1); // the drafts list
    expect(await page('action=record_access&routine=hide')).toMatchObject({
      total: access.shown,
      routineHidden: access.routine,
    });
    // The patient's entries of that action are list reads only: the first page is empty, and says
    // how many it hid.
    const patientReads = (
      await auditRows(t, { hospitalId: t.hospital.userId, userId: t.patient.userId })
    ).filter((e) => e.action === 'record_access');
    expect(patientReads.length).toBeGreaterThan(0);
    expect(patientReads.every(isRoutine)).toBe(true);
    expect(await page(`action=record_access&userId=${t.patient.userId}&routine=hide`)).toMatchObject({
      items: [],
      total: 0,
      routineHidden: patientReads.length,
    });
  });
});
