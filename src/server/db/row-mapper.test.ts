// The compiled row mapper against drizzle's own (mapResultRow): the same statements, prepared twice
// on a real database (PGlite, or PostgreSQL under test:pg), must give the same objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import type { Database, Db } from './connect.js';
import { patients, sessions, users } from './schema.js';
import { newHospitalAccount } from '../users.js';
import { preparedPerDb } from './prepared.js';
import { withCompiledRows } from './row-mapper.js';
import { createTestDatabase } from '../test/helpers.js';

let database: Database;
let db: Db;
const ids = { hospital: '', patientUser: '' };

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const [hospital, patientUser] = await db
    .insert(users)
    .values([
      {
        email: 'h@example.org',
        password: 'x',
        role: 'hospital',
        hospitalName: 'General',
        ...newHospitalAccount(),
      },
      {
        email: 'p@example.org',
        password: 'x',
        firstName: 'Ada',
        lastName: 'Lovelace',
        lastLoginAt: new Date('2026-01-02T03:04:05.678Z'),
      },
    ])
    .returning();
  ids.hospital = hospital.id;
  ids.patientUser = patientUser.id;
  await db.insert(patients).values([
    {
      patientId: 'MRN-1',
      createdByHospitalId: hospital.id,
      userId: patientUser.id,
      firstName: 'Ada',
      dateOfBirth: '1815-12-10',
    },
    // No account: the left-joined user is null.
    { patientId: 'MRN-2', createdByHospitalId: hospital.id, firstName: 'Grace' },
  ]);
  await db.insert(sessions).values({
    sid: 'hashed-sid',
    sess: { userId: patientUser.id, previousLoginAt: null },
    expire: new Date('2099-01-01T00:00:00.000Z'),
    userId: patientUser.id,
  });
});

afterAll(() => database.close());

/** Each select built twice: drizzle's mapping and the compiled one. */
const statements = {
  'a whole table, a left-joined object, and sql fields with and without a decoder': () =>
    db
      .select({
        patient: patients,
        user: { firstName: users.firstName, lastName: users.lastName, email: users.email },
        signedIn: sql<Date | null>`${users.lastLoginAt}`.mapWith(users.lastLoginAt),
        mrnLength: sql<number>`length(${patients.patientId})`.mapWith(Number),
        raw: sql<string>`'as sent'`,
      })
      .from(patients)
      .leftJoin(users, eq(users.id, patients.userId))
      .orderBy(patients.patientId),
  // Drizzle nulls a left-joined object when its first column is null, even if a later one is not.
  'a left-joined object whose first column is null while a later one is not': () =>
    db
      .select({
        mrn: patients.patientId,
        user: { suspendedAt: users.suspendedAt, email: users.email, lastLoginAt: users.lastLoginAt },
      })
      .from(patients)
      .leftJoin(users, eq(users.id, patients.userId))
      .orderBy(patients.patientId),
  'an inner join with jsonb, booleans and timestamps (as the session lookup)': () =>
    db
      .select({ sess: sessions.sess, expire: sessions.expire, account: users })
      .from(users)
      .innerJoin(sessions, eq(sessions.userId, users.id)),
  'a subquery in from with an aliased count (the record pages)': () => {
    const page = db
      .select({ id: patients.id, total: sql<number>`count(*) over ()`.mapWith(Number).as('total') })
      .from(patients)
      .as('page');
    return db
      .select({ total: page.total, patient: { mrn: patients.patientId, born: patients.dateOfBirth } })
      .from(page)
      .innerJoin(patients, eq(patients.id, page.id))
      .orderBy(patients.patientId);
  },
  'scalar subqueries: an sql one with a decoder (the patient page) and a subquery object': () =>
    db
      .select({
        mrn: patients.patientId,
        firstAccount: sql<Date>`(select min(${users.createdAt}) from ${users})`.mapWith(users.createdAt),
        hospitals: db
          .select({ n: count().as('n') })
          .from(users)
          .where(eq(users.role, 'hospital'))
          .as('hospitals'),
      })
      .from(patients)
      .orderBy(patients.patientId),
  // The mapper is generated code: keys are written as string literals, whatever they hold.
  'keys that are not identifiers': () =>
    db
      .select({
        'the MRN': patients.patientId,
        'quote\'s "and" \\ back': { 'line\nbreak': patients.firstName, 'born-on': patients.dateOfBirth },
        constructor: patients.dateOfBirth,
      })
      .from(patients)
      .orderBy(patients.patientId),
};

describe('compiled row mapper', () => {
  let n = 0;
  for (const [name, build] of Object.entries(statements)) {
    it(`maps ${name} as drizzle does`, async () => {
      n++;
      const plain = await build().prepare(`row_mapper_plain_${n}`).execute();
      const compiledStatement = withCompiledRows(build().prepare(`row_mapper_compiled_${n}`));
      expect(
        (compiledStatement as unknown as { customResultMapper?: unknown }).customResultMapper,
      ).toBeTypeOf('function');
      const compiled = await compiledStatement.execute();
      expect(compiled.length).toBeGreaterThan(0);
      expect(compiled).toStrictEqual(plain);
    });
  }

  it('gives decoded values and left-join nulls (not just equal to drizzle by accident)', async () => {
    const rows = await withCompiledRows(
      statements['a whole table, a left-joined object, and sql fields with and without a decoder']().prepare(
        'row_mapper_values',
      ),
    ).execute();
    expect(rows.map((r) => r.patient.patientId)).toEqual(['MRN-1', 'MRN-2']);
    expect(rows[0].patient.createdAt).toBeInstanceOf(Date);
    expect(rows[0].patient.dateOfBirth).toBe('1815-12-10');
    expect(rows[0].user).toEqual({ firstName: 'Ada', lastName: 'Lovelace', email: 'p@example.org' });
    expect(rows[0].signedIn).toEqual(new Date('2026-01-02T03:04:05.678Z'));
    expect(rows[0].mrnLength).toBe(5);
    expect(rows[1].user).toBeNull();
    expect(rows[1].signedIn).toBeNull();

    const [firstNull] = await withCompiledRows(
      statements['a left-joined object whose first column is null while a later one is not']().prepare(
        'row_mapper_first_null',
      ),
    ).execute();
    expect(firstNull.user).toBeNull();
  });

  it('refuses a key named __proto__ (an object literal would set the prototype)', () => {
    const statement = db
      .select({ ['__proto__']: { mrn: patients.patientId } })
      .from(patients)
      .prepare('row_mapper_proto');
    expect(() => withCompiledRows(statement)).toThrow(/__proto__/);
  });

  it('is set on every statement preparedPerDb makes', async () => {
    const statement = preparedPerDb((handle) =>
      handle
        .select({ mrn: patients.patientId })
        .from(patients)
        .orderBy(patients.patientId)
        .prepare('row_mapper_per_db'),
    )(db);
    expect((statement as unknown as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf(
      'function',
    );
    expect(await statement.execute()).toEqual([{ mrn: 'MRN-1' }, { mrn: 'MRN-2' }]);
  });
});
