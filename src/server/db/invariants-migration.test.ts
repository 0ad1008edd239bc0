// The migration that adds the "only one" indexes must also run on a database written before them,
// where the races of issue 16 may have left several primaries and several pending applications.
import { expect, it } from 'vitest';
import { databaseBeforeMigration } from './migration-testing.js';
import * as schema from './schema.js';

it('keeps the last chosen primary contact and the first pending application when it meets duplicates', async () => {
  const { client, db, finish } = await databaseBeforeMigration('invariants_one_primary_one_pending');
  // Raw SQL: the users table of that time lacks columns the current schema would name.
  const {
    rows: [hospital],
  } = await client.query<{ id: string }>(
    `insert into users (email, password, role) values ('h@example.test', 'x', 'hospital') returning id`,
  );
  // Raw SQL too for patients and contacts: the current schema names columns added since.
  const {
    rows: [patient],
  } = await client.query<{ id: string }>(
    `insert into patients (patient_id, created_by_hospital_id) values ('MRN2026000001', $1) returning id`,
    [hospital.id],
  );
  for (const [firstName, updatedAt] of [
    ['Old', '2026-01-01T00:00:00Z'],
    ['Latest', '2026-03-01T00:00:00Z'],
    ['Middle', '2026-02-01T00:00:00Z'],
  ]) {
    await client.query(
      `insert into family_contacts (patient_id, first_name, last_name, relationship, is_primary, updated_at)
       values ($1, $2, 'Doe', 'other', true, $3)`,
      [patient.id, firstName, updatedAt],
    );
  }
  const application = (hospitalName: string, createdAt: string) => ({
    hospitalName,
    contactName: 'Rita',
    contactEmail: 'rita@example.test',
    createdAt: new Date(createdAt),
  });
  await db
    .insert(schema.providerApplications)
    .values([application('Second', '2026-02-01T00:00:00Z'), application('First', '2026-01-01T00:00:00Z')]);

  await finish();

  const contacts = await db
    .select({ firstName: schema.familyContacts.firstName, isPrimary: schema.familyContacts.isPrimary })
    .from(schema.familyContacts);
  expect(contacts.filter((c) => c.isPrimary).map((c) => c.firstName)).toEqual(['Latest']);
  const applications = await db.select().from(schema.providerApplications);
  expect(applications.find((a) => a.status === 'pending')?.hospitalName).toBe('First');
  expect(applications.find((a) => a.hospitalName === 'Second')).toMatchObject({
    status: 'rejected',
    notes: expect.stringMatching(/duplicate of an earlier pending application/),
  });
  await client.close();
});
