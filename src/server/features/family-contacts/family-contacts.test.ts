import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_MESSAGES, MAX_FAMILY_CONTACTS } from '../../../shared/family-contacts.js';
import { isUniqueViolation } from '../../db/outage.js';
import { familyContacts } from '../../db/schema.js';
import { addPatient, auditRows, call, signedInPatient, useCast } from '../../test/helpers.js';
import { CONTACT_LIMIT_REACHED } from './service.js';

const t = useCast({ others: true, admin: true });
let othersContactId: string;

const jane = {
  firstName: 'Jane',
  lastName: 'Doe',
  relationship: 'spouse',
  phone: '555 0101',
  email: 'Jane@Example.test',
  address: '1 Main St',
  isPrimary: true,
  canAccessRecords: true,
  emergencyContact: false,
};

beforeAll(async () => {
  const res = await send(
    'POST',
    '/api/family-contacts',
    { ...jane, firstName: 'Other' },
    t.otherPatient.cookie,
  );
  othersContactId = res.json<{ id: string }>().id;
});

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie?: string) =>
  call(t.app, method, url, cookie, payload);
const auditsOf = (patientId: string) => auditRows(t, { patientId, action: 'family_contact_change' });

describe('adding a family contact', () => {
  it('answers 401 when signed out, 403 to a hospital and an administrator', async () => {
    expect((await send('POST', '/api/family-contacts', jane)).statusCode).toBe(401);
    expect((await send('POST', '/api/family-contacts', jane, t.hospital.cookie)).statusCode).toBe(403);
    expect((await send('POST', '/api/family-contacts', jane, t.admin.cookie)).statusCode).toBe(403);
  });

  it('requires first name, last name and relationship, with the form’s messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...jane, firstName: undefined }, FAMILY_MESSAGES.firstName],
      [{ ...jane, firstName: '   ' }, FAMILY_MESSAGES.firstName],
      [{ ...jane, lastName: '' }, FAMILY_MESSAGES.lastName],
      [{ ...jane, relationship: undefined }, FAMILY_MESSAGES.relationship],
      [{ ...jane, relationship: 'cousin' }, FAMILY_MESSAGES.relationshipOption],
      [{ ...jane, email: 'not-an-email' }, FAMILY_MESSAGES.email],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', '/api/family-contacts', body, t.patient.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const [{ n }] = await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(familyContacts)
      .where(eq(familyContacts.patientId, t.patientRow.id));
    expect(n).toBe(0);
  });

  it('adds the contact to the signed-in patient (a patientId in the body is ignored) and audits it', async () => {
    const res = await send(
      'POST',
      '/api/family-contacts',
      { ...jane, patientId: t.otherPatientRow.id },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      patientId: t.patientRow.id,
      firstName: 'Jane',
      lastName: 'Doe',
      relationship: 'spouse',
      email: 'jane@example.test',
      isPrimary: true,
      canAccessRecords: true,
      emergencyContact: false,
    });
    const audits = await auditsOf(t.patientRow.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      userId: t.patient.userId,
      entityId: res.json().id,
      ipAddress: '127.0.0.1',
      details: 'Added family contact Jane Doe (spouse)',
    });
  });

  it('keeps one primary contact: a new primary one replaces the previous', async () => {
    const res = await send(
      'POST',
      '/api/family-contacts',
      { firstName: 'Tom', lastName: 'Doe', relationship: 'child', isPrimary: true, email: '' },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: null, phone: null, emergencyContact: false });
    const list = (
      await send('GET', `/api/family-contacts/patient/${t.patientRow.id}`, undefined, t.patient.cookie)
    ).json<{ items: { firstName: string; isPrimary: boolean }[] }>().items;
    expect(list.map((c) => [c.firstName, c.isPrimary])).toEqual([
      ['Tom', true],
      ['Jane', false],
    ]);
  });
});

describe('listing family contacts', () => {
  const url = () => `/api/family-contacts/patient/${t.patientRow.id}`;

  it('answers 401 when signed out and 403 to an administrator', async () => {
    expect((await send('GET', url())).statusCode).toBe(401);
    expect((await send('GET', url(), undefined, t.admin.cookie)).statusCode).toBe(403);
  });

  it('lets the patient and the hospital that created them read, and nobody else', async () => {
    expect((await send('GET', url(), undefined, t.patient.cookie)).json()).toMatchObject({
      total: 2,
      page: 1,
    });
    expect((await send('GET', url(), undefined, t.patient.cookie)).json().items).toHaveLength(2);
    expect((await send('GET', url(), undefined, t.hospital.cookie)).json().items).toHaveLength(2);
    const second = await send('GET', `${url()}?pageSize=1&page=2`, undefined, t.patient.cookie);
    expect(second.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.json().items).toHaveLength(1);
    const tooBig = await send('GET', `${url()}?pageSize=101`, undefined, t.patient.cookie);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toMatch(/pageSize must be at most 100/);
    expect((await send('GET', url(), undefined, t.otherHospital.cookie)).statusCode).toBe(404);
    expect((await send('GET', url(), undefined, t.otherPatient.cookie)).statusCode).toBe(404);
    expect(
      (await send('GET', '/api/family-contacts/patient/nope', undefined, t.patient.cookie)).statusCode,
    ).toBe(404);
  });
});

describe('changing and removing a family contact', () => {
  let contactId: string;
  beforeAll(async () => {
    const list = (
      await send('GET', `/api/family-contacts/patient/${t.patientRow.id}`, undefined, t.patient.cookie)
    ).json<{ items: { id: string; firstName: string }[] }>().items;
    contactId = list.find((c) => c.firstName === 'Jane')!.id;
  });

  it('answers 401 when signed out and 403 to a hospital', async () => {
    expect((await send('PUT', `/api/family-contacts/${contactId}`, jane)).statusCode).toBe(401);
    expect((await send('PUT', `/api/family-contacts/${contactId}`, jane, t.hospital.cookie)).statusCode).toBe(
      403,
    );
    expect(
      (await send('DELETE', `/api/family-contacts/${contactId}`, undefined, t.hospital.cookie)).statusCode,
    ).toBe(403);
  });

  it("answers 404 for another patient's contact and leaves it alone", async () => {
    const changed = await send('PUT', `/api/family-contacts/${othersContactId}`, jane, t.patient.cookie);
    expect(changed.statusCode).toBe(404);
    expect(changed.json().message).toBe('Family contact not found.');
    expect(
      (await send('DELETE', `/api/family-contacts/${othersContactId}`, undefined, t.patient.cookie))
        .statusCode,
    ).toBe(404);
    const [row] = await t.ctx.db.select().from(familyContacts).where(eq(familyContacts.id, othersContactId));
    expect(row.firstName).toBe('Other');
  });

  it('validates a change like an addition', async () => {
    const res = await send(
      'PUT',
      `/api/family-contacts/${contactId}`,
      { ...jane, relationship: '' },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(FAMILY_MESSAGES.relationship);
  });

  it('changes the patient’s own contact and audits it', async () => {
    const res = await send(
      'PUT',
      `/api/family-contacts/${contactId}`,
      { ...jane, relationship: 'guardian', isPrimary: false, emergencyContact: true },
      t.patient.cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ relationship: 'guardian', emergencyContact: true });
    const audits = await auditsOf(t.patientRow.id);
    expect(audits.at(-1)?.details).toBe('Updated family contact Jane Doe (guardian)');
  });

  it('removes the patient’s own contact and audits it', async () => {
    const res = await send('DELETE', `/api/family-contacts/${contactId}`, undefined, t.patient.cookie);
    expect(res.statusCode).toBe(200);
    const list = (
      await send('GET', `/api/family-contacts/patient/${t.patientRow.id}`, undefined, t.patient.cookie)
    ).json<{ items: { id: string }[] }>().items;
    expect(list.map((c) => c.id)).not.toContain(contactId);
    expect((await auditsOf(t.patientRow.id)).at(-1)?.details).toBe(
      'Removed family contact Jane Doe (guardian)',
    );
    expect(
      (await send('DELETE', `/api/family-contacts/${contactId}`, undefined, t.patient.cookie)).statusCode,
    ).toBe(404);
  });
});

// On PostgreSQL these requests run on several connections at once (test:pg); before the rules
// were held by the database they left 7-8 primaries and 59-60 contacts.
describe('parallel requests of one patient', () => {
  async function freshPatient(firstName: string) {
    const row = await addPatient(t.app, t.hospital.cookie, { firstName });
    return { row, session: await signedInPatient(t.app, row.patientId) };
  }
  const contactsOf = (patientId: string) =>
    t.ctx.db.select().from(familyContacts).where(eq(familyContacts.patientId, patientId));
  const addMany = (cookie: string, n: number, isPrimary: boolean, from = 0) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        send('POST', '/api/family-contacts', { ...jane, firstName: `C${from + i}`, isPrimary }, cookie),
      ),
    );

  it('removes a contact deleted 8 times at once once: one 200, seven 404s, one audit entry', async () => {
    const { row, session } = await freshPatient('Deleter');
    const [added] = await addMany(session.cookie, 1, false);
    const { id } = added.json<{ id: string }>();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        send('DELETE', `/api/family-contacts/${id}`, undefined, session.cookie),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    const removals = (await auditsOf(row.id)).filter((a) => a.details?.startsWith('Removed family contact'));
    expect(removals).toHaveLength(1);
  });

  it('leaves exactly one primary contact after 20 parallel additions marked primary', async () => {
    const { row, session } = await freshPatient('Primus');
    const results = await addMany(session.cookie, 20, true);
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const rows = await contactsOf(row.id);
    expect(rows).toHaveLength(20);
    expect(rows.filter((c) => c.isPrimary)).toHaveLength(1);
  });

  it('leaves exactly one primary contact after 20 parallel changes making each one primary', async () => {
    const { row, session } = await freshPatient('Swapper');
    const added = await addMany(session.cookie, 20, false);
    const ids = added.map((r) => r.json<{ id: string }>().id);
    const results = await Promise.all(
      ids.map((id, i) =>
        send(
          'PUT',
          `/api/family-contacts/${id}`,
          { ...jane, firstName: `C${i}`, isPrimary: true },
          session.cookie,
        ),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await contactsOf(row.id)).filter((c) => c.isPrimary)).toHaveLength(1);
  });

  it(`stops at exactly ${MAX_FAMILY_CONTACTS} contacts when 40 are added at once to 20, with 409 and a message`, async () => {
    const { row, session } = await freshPatient('Many');
    expect((await addMany(session.cookie, 20, false)).every((r) => r.statusCode === 201)).toBe(true);
    const results = await addMany(session.cookie, 40, true, 20);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(30);
    expect(refused).toHaveLength(10);
    expect(refused.every((r) => r.json().message === CONTACT_LIMIT_REACHED)).toBe(true);
    const rows = await contactsOf(row.id);
    expect(rows).toHaveLength(MAX_FAMILY_CONTACTS);
    expect(rows.filter((c) => c.isPrimary)).toHaveLength(1);
    // Refused additions leave no audit entry behind.
    expect(await auditsOf(row.id)).toHaveLength(MAX_FAMILY_CONTACTS);
  });

  it('has the database itself refuse a second primary contact of a patient', async () => {
    const { row, session } = await freshPatient('Indexed');
    await addMany(session.cookie, 1, true);
    const secondPrimary = t.ctx.db.insert(familyContacts).values({
      patientId: row.id,
      firstName: 'Side',
      lastName: 'Door',
      relationship: 'other',
      isPrimary: true,
    });
    const err = await secondPrimary.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(err, 'family_contacts_one_primary_idx')).toBe(true);
  });
});
