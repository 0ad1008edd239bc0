import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { hospitalPatientsFilter } from '../../access.js';
import { appointments, medicalRecords, patients, users } from '../../db/schema.js';
import { addPatient, auditRows, signedInHospital, signedInPatient, useCast } from '../../test/helpers.js';

let clock = new Date();
const t = useCast({ options: { now: () => clock }, hospital: false });

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

describe('adding a patient', () => {
  it('accepts an empty form, stores empty values as null and answers with a generated MRN', async () => {
    const h = await signedInHospital(t.app);
    const res = await inject('POST', '/api/patients', h.cookie, {
      firstName: 'Ada',
      lastName: '',
      email: '  ',
      phone: null,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.patientId).toMatch(new RegExp(`^MRN${clock.getUTCFullYear()}\\d{6}$`));
    expect(body).toMatchObject({ firstName: 'Ada', lastName: null, email: null, phone: null, userId: null });
    const empty = await inject('POST', '/api/patients', h.cookie, {});
    expect(empty.statusCode).toBe(201);
    expect(empty.json().patientId).not.toBe(body.patientId);
  });

  it('writes a patient_create audit entry scoped to the hospital and the patient, with the IP', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    const rows = await auditRows(t, { patientId: p.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'patient_create', hospitalId: h.userId, userId: h.userId });
    expect(rows[0].ipAddress).toBeTruthy();
  });

  it('keeps only the date of a date-time and refuses impossible or future dates', async () => {
    const h = await signedInHospital(t.app);
    const ok = await inject('POST', '/api/patients', h.cookie, { dateOfBirth: '1980-05-01T00:00:00.000Z' });
    expect(ok.json().dateOfBirth).toBe('1980-05-01');
    const bad = await inject('POST', '/api/patients', h.cookie, { dateOfBirth: '1980-02-31' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Date of birth must be a real date');
    const future = await inject('POST', '/api/patients', h.cookie, { dateOfBirth: '2999-01-01' });
    expect(future.statusCode).toBe(400);
  });

  it('refuses an invalid e-mail with a 400 and a message', async () => {
    const h = await signedInHospital(t.app);
    const res = await inject('POST', '/api/patients', h.cookie, { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid email address');
  });

  it('draws another MRN when the first one is taken', async () => {
    const h = await signedInHospital(t.app);
    const year = clock.getUTCFullYear();
    await t.ctx.db.insert(patients).values({ patientId: `MRN${year}000001`, createdByHospitalId: h.userId });
    const spy = vi.spyOn(crypto, 'randomInt') as unknown as { mockReturnValueOnce(v: number): typeof spy };
    spy.mockReturnValueOnce(1).mockReturnValueOnce(2);
    try {
      const p = await addPatient(t.app, h.cookie);
      expect(p.patientId).toBe(`MRN${year}000002`);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('possible duplicates when adding a patient', () => {
  const ada = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1985-12-10',
    email: 'ada@example.test',
  };

  it('answers 409 with the matching patients for the same name and birth date, or the same e-mail', async () => {
    const h = await signedInHospital(t.app);
    const first = await addPatient(t.app, h.cookie, ada);

    const sameNameAndBirth = await inject('POST', '/api/patients', h.cookie, {
      firstName: 'ADA',
      lastName: 'lovelace',
      dateOfBirth: '1985-12-10',
    });
    expect(sameNameAndBirth.statusCode).toBe(409);
    expect(sameNameAndBirth.json().message).toMatch(/already exists/);
    expect(sameNameAndBirth.json().duplicates).toEqual([
      { id: first.id, patientId: first.patientId, ...ada },
    ]);

    const sameEmail = await inject('POST', '/api/patients', h.cookie, {
      firstName: 'Augusta',
      email: 'ADA@example.test',
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().duplicates.map((d: { id: string }) => d.id)).toEqual([first.id]);

    // Same name, another birth date: a different person, no warning.
    const other = await inject('POST', '/api/patients', h.cookie, {
      ...ada,
      email: null,
      dateOfBirth: '1990-01-01',
    });
    expect(other.statusCode).toBe(201);

    const count = async () =>
      (await t.ctx.db.select().from(patients).where(eq(patients.createdByHospitalId, h.userId))).length;
    expect(await count()).toBe(2);
    const confirmed = await inject('POST', '/api/patients', h.cookie, { ...ada, confirmDuplicate: true });
    expect(confirmed.statusCode).toBe(201);
    expect(await count()).toBe(3);
  });

  it('warns of a duplicate whose name differs only in accents and case', async () => {
    const h = await signedInHospital(t.app);
    const first = await addPatient(t.app, h.cookie, {
      firstName: 'Chloé',
      lastName: 'Müller',
      dateOfBirth: '1980-05-06',
    });
    const res = await inject('POST', '/api/patients', h.cookie, {
      firstName: 'CHLOE',
      lastName: 'muller',
      dateOfBirth: '1980-05-06',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().duplicates.map((d: { id: string }) => d.id)).toEqual([first.id]);
  });

  it("never compares with another hospital's patients (nothing of theirs leaks)", async () => {
    const h1 = await signedInHospital(t.app);
    const h2 = await signedInHospital(t.app);
    await addPatient(t.app, h1.cookie, { ...ada, email: 'grace@example.test' });
    const res = await inject('POST', '/api/patients', h2.cookie, { ...ada, email: 'grace@example.test' });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a confirmDuplicate that is not a boolean', async () => {
    const h = await signedInHospital(t.app);
    const res = await inject('POST', '/api/patients', h.cookie, { firstName: 'X', confirmDuplicate: 'yes' });
    expect(res.statusCode).toBe(400);
  });
});

describe('who may reach the patient routes', () => {
  it('answers 401 to a signed-out caller on every route', async () => {
    const id = crypto.randomUUID();
    for (const [method, url] of [
      ['POST', '/api/patients'],
      ['GET', '/api/patients'],
      ['GET', `/api/patients/${id}`],
      ['PUT', `/api/patients/${id}`],
      ['DELETE', `/api/patients/${id}`],
    ] as const) {
      const res = await inject(
        method,
        url,
        undefined,
        method === 'POST' || method === 'PUT' ? {} : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('answers 403 to a patient on every hospital route', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    const patient = await signedInPatient(t.app, p.patientId);
    for (const [method, url] of [
      ['POST', '/api/patients'],
      ['GET', '/api/patients'],
      ['GET', `/api/patients/${p.id}`],
      // PUT /api/patients/{id} is open to the patient for their own profile (patient-profile tests).
      ['DELETE', `/api/patients/${p.id}`],
    ] as const) {
      const res = await inject(method, url, patient.cookie, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("answers 404 for another hospital's patient and for malformed ids, and changes nothing", async () => {
    const a = await signedInHospital(t.app);
    const b = await signedInHospital(t.app);
    const p = await addPatient(t.app, a.cookie, { firstName: 'Kept' });
    for (const id of [p.id, 'not-a-uuid', '..%2F..%2Fetc']) {
      expect((await inject('GET', `/api/patients/${id}`, b.cookie)).statusCode).toBe(404);
      expect((await inject('PUT', `/api/patients/${id}`, b.cookie, { firstName: 'X' })).statusCode).toBe(404);
      expect((await inject('DELETE', `/api/patients/${id}`, b.cookie)).statusCode).toBe(404);
    }
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, p.id));
    expect(row.firstName).toBe('Kept');
    expect(row.archivedAt).toBeNull();
    const list = await inject('GET', '/api/patients', b.cookie);
    expect(list.json().items.map((x: { id: string }) => x.id)).not.toContain(p.id);
  });
});

/** The ids the patient list's search finds for `q`. */
const searchIds = async (cookie: string, q: string) =>
  (await inject('GET', `/api/patients?search=${encodeURIComponent(q)}`, cookie))
    .json()
    .items.map((x: { id: string }) => x.id);

describe('listing patients', () => {
  it('finds patients by name, full name, e-mail and MRN, case-insensitively, with % taken literally', async () => {
    const h = await signedInHospital(t.app);
    const ada = await addPatient(t.app, h.cookie, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@x.test',
    });
    const bob = await addPatient(t.app, h.cookie, {
      firstName: 'Bob',
      lastName: 'Stone',
      email: 'bob@y.test',
    });
    const search = (q: string) => searchIds(h.cookie, q);
    expect(await search('ada')).toEqual([ada.id]);
    expect(await search('ADA LOVE')).toEqual([ada.id]);
    expect(await search('y.test')).toEqual([bob.id]);
    expect(await search(bob.patientId.toLowerCase())).toEqual([bob.id]);
    expect(await search('%')).toEqual([]);
    expect((await search('')).sort()).toEqual([ada.id, bob.id].sort());
  });

  it('folds accents and case on both sides: "garcia" finds María García, "CHLOÉ" finds Chloe, "strasse" Straße', async () => {
    const h = await signedInHospital(t.app);
    const maria = await addPatient(t.app, h.cookie, { firstName: 'María', lastName: 'García' });
    const chloe = await addPatient(t.app, h.cookie, { firstName: 'Chloe', lastName: 'Straße' });
    const search = (q: string) => searchIds(h.cookie, q);
    expect(await search('garcia')).toEqual([maria.id]);
    expect(await search('MARIA GARC')).toEqual([maria.id]);
    expect(await search('maría garcía')).toEqual([maria.id]);
    expect(await search('CHLOÉ')).toEqual([chloe.id]);
    expect(await search('strasse')).toEqual([chloe.id]);
    expect(await search('garcíb')).toEqual([]);
  });

  it("finds a patient by their own account's name and e-mail, never across two fields or another hospital's", async () => {
    const h = await signedInHospital(t.app);
    const other = await signedInHospital(t.app, 'Other Hospital');
    const ada = await addPatient(t.app, h.cookie, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@x.test',
    });
    await addPatient(t.app, other.cookie, { firstName: 'Ada', lastName: 'Lovelace' });
    const account = await signedInPatient(t.app, ada, 'ada@x.test');
    await t.ctx.db
      .update(users)
      .set({ firstName: 'Augusta', lastName: 'King', email: 'countess.account@z.test' })
      .where(eq(users.id, account.userId));
    const search = (q: string) => searchIds(h.cookie, q);
    expect(await search('augusta k')).toEqual([ada.id]);
    expect(await search('COUNTESS.ACCOUNT')).toEqual([ada.id]);
    expect(await search('lovelace')).toEqual([ada.id]);
    // Last name and e-mail are two fields: a fragment spanning them matches neither.
    expect(await search('lace ada@')).toEqual([]);
    expect(await search('lovelaceada')).toEqual([]);
  });

  it('totals the unfiltered list from a count the database keeps through adds, archives and direct changes', async () => {
    const h = await signedInHospital(t.app);
    const other = await signedInHospital(t.app, 'Other Hospital');
    const [, b, c] = [
      await addPatient(t.app, h.cookie),
      await addPatient(t.app, h.cookie),
      await addPatient(t.app, h.cookie),
    ];
    await addPatient(t.app, other.cookie);
    const total = async (cookie: string) =>
      (await inject('GET', '/api/patients?pageSize=1', cookie)).json<{ total: number }>().total;
    const counted = async (hospitalId: string) =>
      (await t.ctx.db.select({ n: count() }).from(patients).where(hospitalPatientsFilter(hospitalId)))[0].n;
    expect([await total(h.cookie), await total(other.cookie)]).toEqual([3, 1]);
    expect((await inject('DELETE', `/api/patients/${b.id}`, h.cookie)).statusCode).toBeLessThan(300);
    expect(await total(h.cookie)).toBe(2);
    // Changes made straight in the database are counted too: the trigger keeps the count, not the app.
    await t.ctx.db.update(patients).set({ createdByHospitalId: other.userId }).where(eq(patients.id, c.id));
    await t.ctx.db.update(patients).set({ archivedAt: null }).where(eq(patients.id, b.id));
    await t.ctx.db.update(patients).set({ firstName: 'Renamed' }).where(eq(patients.id, b.id));
    expect([await total(h.cookie), await total(other.cookie)]).toEqual([2, 2]);
    expect([await counted(h.userId), await counted(other.userId)]).toEqual([2, 2]);
  });

  it('filters by department through the records and appointments this hospital has for the patient', async () => {
    const h = await signedInHospital(t.app);
    const heart = await addPatient(t.app, h.cookie, { firstName: 'Heart' });
    const brain = await addPatient(t.app, h.cookie, { firstName: 'Brain' });
    await addPatient(t.app, h.cookie, { firstName: 'None' });
    await t.ctx.db.insert(medicalRecords).values({
      patientId: heart.id,
      hospitalId: h.userId,
      title: 'ECG',
      recordType: 'lab-results',
      department: 'cardiology',
    });
    await t.ctx.db.insert(appointments).values({
      patientId: brain.id,
      hospitalId: h.userId,
      doctorName: 'Dr. N',
      department: 'neurology',
      appointmentType: 'consultation',
      appointmentDate: new Date(clock.getTime() - 86400_000),
    });
    const names = async (department: string) =>
      (await inject('GET', `/api/patients?department=${department}`, h.cookie))
        .json()
        .items.map((x: { firstName: string }) => x.firstName);
    expect(await names('cardiology')).toEqual(['Heart']);
    expect(await names('neurology')).toEqual(['Brain']);
    expect(await names('orthopedics')).toEqual([]);
    expect((await names('all')).sort()).toEqual(['Brain', 'Heart', 'None']);
    const bad = await inject('GET', '/api/patients?department=astrology', h.cookie);
    expect(bad.statusCode).toBe(400);
    // The last visit is the latest completed one: a past booking that was not completed is none.
    const lastVisit = async () =>
      (await inject('GET', `/api/patients/${brain.id}`, h.cookie)).json().lastVisit;
    expect(await lastVisit()).toBeNull();
    await t.ctx.db
      .update(appointments)
      .set({ status: 'no_show' })
      .where(eq(appointments.patientId, brain.id));
    expect(await lastVisit()).toBeNull();
    await t.ctx.db
      .update(appointments)
      .set({ status: 'completed' })
      .where(eq(appointments.patientId, brain.id));
    const brainRow = (await inject('GET', `/api/patients/${brain.id}`, h.cookie)).json();
    expect(brainRow.lastVisit).toBe(new Date(clock.getTime() - 86400_000).toISOString());
    // The unfiltered list (a prepared statement) shows the same.
    const listed = (await inject('GET', '/api/patients', h.cookie))
      .json()
      .items.map((x: { id: string; lastVisit: string | null }) => [x.id, x.lastVisit]);
    expect(listed).toContainEqual([brain.id, brainRow.lastVisit]);
    expect(listed).toContainEqual([heart.id, null]);
  });

  it('pages with a true total, newest first, and refuses a bad page size', async () => {
    const h = await signedInHospital(t.app);
    for (let i = 0; i < 5; i++) await addPatient(t.app, h.cookie, { firstName: `P${i}` });
    const first = (await inject('GET', '/api/patients?pageSize=2&page=1', h.cookie)).json();
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.items.map((x: { firstName: string }) => x.firstName)).toEqual(['P4', 'P3']);
    const last = (await inject('GET', '/api/patients?pageSize=2&page=3', h.cookie)).json();
    expect(last.items.map((x: { firstName: string }) => x.firstName)).toEqual(['P0']);
    const whole = (await inject('GET', '/api/patients', h.cookie)).json();
    expect(whole.pageSize).toBe(50);
    expect((await inject('GET', '/api/patients?pageSize=1000', h.cookie)).statusCode).toBe(400);
    expect((await inject('GET', '/api/patients?page=0', h.cookie)).statusCode).toBe(400);
  });
});

describe('editing and deleting a patient', () => {
  it('lets a hospital change the demographics of its patient, keeps omitted fields, and audits it', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie, { firstName: 'Old', phone: '123' });
    const res = await inject('PUT', `/api/patients/${p.id}`, h.cookie, {
      firstName: 'New',
      gender: 'female',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'New',
      gender: 'female',
      phone: '123',
      patientId: p.patientId,
    });
    const [entry] = await auditRows(t, { patientId: p.id, action: 'patient_update' });
    expect(entry.details).toContain('firstName, gender');
    expect(entry.hospitalId).toBe(h.userId);
  });

  it('refuses a patient changing demographics through this route (only their profile fields)', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie, { firstName: 'Pat' });
    const patient = await signedInPatient(t.app, p.patientId);
    const res = await inject('PUT', `/api/patients/${p.id}`, patient.cookie, { firstName: 'Eve' });
    expect(res.statusCode).toBe(400);
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, p.id));
    expect(row.firstName).toBe('Pat');
  });

  it('archives on delete: hidden from the list and from reads, the row and its records kept', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    await t.ctx.db
      .insert(medicalRecords)
      .values({ patientId: p.id, hospitalId: h.userId, title: 'Kept', recordType: 'lab-results' });
    const res = await inject('DELETE', `/api/patients/${p.id}`, h.cookie);
    expect(res.statusCode).toBe(200);
    expect((await inject('GET', `/api/patients/${p.id}`, h.cookie)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/patients/${p.id}`, h.cookie)).statusCode).toBe(404);
    const list = (await inject('GET', '/api/patients', h.cookie)).json();
    expect(list.items.map((x: { id: string }) => x.id)).not.toContain(p.id);
    const [row] = await t.ctx.db.select().from(patients).where(eq(patients.id, p.id));
    expect(row.archivedAt).not.toBeNull();
    const records = await t.ctx.db.select().from(medicalRecords).where(eq(medicalRecords.patientId, p.id));
    expect(records).toHaveLength(1);
    const [entry] = await auditRows(t, { patientId: p.id, action: 'patient_archive' });
    expect(entry.hospitalId).toBe(h.userId);
  });

  // On PostgreSQL (test:pg) the deletes run on several connections at once.
  it('archives once when the same patient is deleted 8 times at once: one 200, seven 404s, one audit entry', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => inject('DELETE', `/api/patients/${p.id}`, h.cookie)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    expect(await auditRows(t, { patientId: p.id, action: 'patient_archive' })).toHaveLength(1);
  });
});

describe('after the free trial', () => {
  it('refuses adding, editing and deleting with 402 but still lists', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    clock = new Date(Date.now() + 8 * 86400_000);
    try {
      for (const [method, url, payload] of [
        ['POST', '/api/patients', {}],
        ['PUT', `/api/patients/${p.id}`, { firstName: 'X' }],
        ['DELETE', `/api/patients/${p.id}`, undefined],
      ] as const) {
        const res = await inject(method, url, h.cookie, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(402);
        expect(res.json().message).toMatch(/trial has ended/);
      }
      expect((await inject('GET', '/api/patients', h.cookie)).statusCode).toBe(200);
    } finally {
      clock = new Date();
    }
  });
});
