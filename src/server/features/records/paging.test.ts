// Paged record lists (issue 10, item 3): `{items, total, page, pageSize}`, nothing capped silently,
// a stable order across pages, and bad paging parameters refused with a message. Runs on PGlite and,
// with `npm run test:pg`, on PostgreSQL.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../shared/paging.js';
import type { MedicalRecord } from '../../../shared/records.js';
import { medicalRecords } from '../../db/schema.js';
import { auditRows, useCast } from '../../test/helpers.js';
import { uploadRecord } from './testing.js';

const t = useCast({ patient: { firstName: 'Paula', lastName: 'Paged' } });
let uploaded: MedicalRecord;
/** Every record of the t.patient, newest first (the order the lists must follow). */
let expectedOrder: string[];

const TOTAL = 120;

beforeAll(async () => {
  // One record through the API (ledgered, with a file), the rest written straight to the table:
  // 119 in two groups that share one creation time each, so only the id tiebreaker orders them.
  uploaded = (
    await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, { fields: { title: 'Uploaded' } })
  ).json();
  const base = new Date(Date.parse(uploaded.createdAt) - 60_000);
  const rows = Array.from({ length: TOTAL - 1 }, (_, i) => ({
    patientId: t.patientRow.id,
    hospitalId: t.hospital.userId,
    title: `Lab result ${i + 1}`,
    recordType: 'lab_result',
    status: 'final' as const,
    createdAt: i < 60 ? base : new Date(base.getTime() - 1000),
    updatedAt: base,
  }));
  await t.ctx.db.insert(medicalRecords).values(rows);
  const all = await t.ctx.db
    .select({ id: medicalRecords.id, createdAt: medicalRecords.createdAt })
    .from(medicalRecords)
    .where(eq(medicalRecords.patientId, t.patientRow.id));
  expectedOrder = all
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((r) => r.id);
});

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const page = async (url: string, cookie: string) => {
  const res = await get(url, cookie);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
  return res.json<Paged<MedicalRecord>>();
};

describe.each([
  ['the hospital', () => `/api/medical-records/${t.patientRow.id}`, () => t.hospital.cookie],
  ['the patient (own list)', () => '/api/medical-records', () => t.patient.cookie],
  ['the patient (by user id)', () => `/api/medical-records/${t.patient.userId}`, () => t.patient.cookie],
])('the record list of %s', (_who, url, cookie) => {
  const at = (query: string) => `${url()}${url().includes('?') ? '&' : '?'}${query}`;

  it(`answers pages of 50 by default with the total of ${TOTAL}, and an empty page past the end`, async () => {
    const first = await page(url(), cookie());
    expect(first).toMatchObject({ total: TOTAL, page: 1, pageSize: 50 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0].id).toBe(uploaded.id);
    expect(first.items[0].isBlockchainVerified).toBe(true);
    expect(first.items[0].attachments).toHaveLength(1);

    const third = await page(at('page=3'), cookie());
    expect(third).toMatchObject({ total: TOTAL, page: 3, pageSize: 50 });
    expect(third.items).toHaveLength(20);

    const fourth = await page(at('page=4'), cookie());
    expect(fourth).toEqual({ items: [], total: TOTAL, page: 4, pageSize: 50 });
  });

  it('keeps a stable order across pages: every record once, newest first, ties broken by id', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 3; n++) seen.push(...(await page(at(`page=${n}`), cookie())).items.map((r) => r.id));
    expect(seen).toEqual(expectedOrder);
    const small: string[] = [];
    for (let n = 1; n <= 13; n++) {
      const p = await page(at(`pageSize=10&page=${n}`), cookie());
      expect(p.total).toBe(TOTAL);
      small.push(...p.items.map((r) => r.id));
    }
    expect(small).toEqual(expectedOrder);
  });

  it('answers up to 100 a page and refuses bad paging with a 400 and a message', async () => {
    const hundred = await page(at('pageSize=100'), cookie());
    expect(hundred.items).toHaveLength(100);
    expect(hundred.total).toBe(TOTAL);
    for (const [query, message] of [
      ['pageSize=101', 'pageSize must be at most 100'],
      ['pageSize=0', 'pageSize must be at least 1'],
      ['pageSize=ten', 'pageSize must be a number'],
      ['page=0', 'page must be at least 1'],
      ['page=1.5', 'page must be a whole number'],
      ['page=-2', 'page must be at least 1'],
      ['page=0x10', 'page must be a number'],
      ['page=1e1', 'page must be a number'],
    ]) {
      const res = await get(at(query), cookie());
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(message);
    }
  });
});

describe('paging with view=all', () => {
  it('counts retracted records only with view=all, on every page', async () => {
    const [retracted] = await t.ctx.db
      .update(medicalRecords)
      .set({
        enteredInErrorAt: new Date(),
        enteredInErrorBy: t.hospital.userId,
        enteredInErrorReason: 'test',
      })
      .where(eq(medicalRecords.id, expectedOrder[TOTAL - 1]))
      .returning();
    try {
      const current = await page(`/api/medical-records/${t.patientRow.id}?page=3`, t.hospital.cookie);
      expect(current.total).toBe(TOTAL - 1);
      expect(current.items).toHaveLength(19);
      expect(current.items.map((r) => r.id)).not.toContain(retracted.id);
      const all = await page(`/api/medical-records/${t.patientRow.id}?view=all&page=3`, t.hospital.cookie);
      expect(all.total).toBe(TOTAL);
      expect(all.items.at(-1)?.id).toBe(retracted.id);
      expect(all.items.at(-1)?.documentStatus).toBe('entered-in-error');
    } finally {
      await t.ctx.db
        .update(medicalRecords)
        .set({ enteredInErrorAt: null, enteredInErrorBy: null, enteredInErrorReason: null })
        .where(eq(medicalRecords.id, retracted.id));
    }
  });
});

describe('the audit entry of a list', () => {
  it('says how many records were listed, and of how many', async () => {
    await page(`/api/medical-records/${t.patientRow.id}?page=2`, t.hospital.cookie);
    const entries = await auditRows(t, { action: 'record_access', userId: t.hospital.userId });
    expect(entries.at(-1)?.details).toBe(
      `Listed 50 medical records of patient ${t.patientRow.patientId} (page 2, ${TOTAL} in all)`,
    );
  });
});
