// The migration that adds the "only one" indexes must also run on a database written before them,
// where the races of issue 16 may have left several primaries and several pending applications.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';
import * as schema from './schema.js';

const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const TAG = 'invariants_one_primary_one_pending';
const before = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-migrations-'));
afterAll(() => fs.rmSync(before, { recursive: true, force: true }));

/** A copy of the migrations folder that stops just before this migration. */
function migrationsBeforeInvariants(): string {
  fs.cpSync(migrations, before, { recursive: true });
  const journalFile = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(TAG));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return before;
}

it('keeps the last chosen primary contact and the first pending application when it meets duplicates', async () => {
  const client = await PGlite.create();
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: migrationsBeforeInvariants() });
  // Raw SQL: the users table of that time lacks columns the current schema would name.
  const {
    rows: [hospital],
  } = await client.query<{ id: string }>(
    `insert into users (email, password, role) values ('h@example.test', 'x', 'hospital') returning id`,
  );
  const [patient] = await db
    .insert(schema.patients)
    .values({ patientId: 'MRN2026000001', createdByHospitalId: hospital.id })
    .returning();
  const contact = (firstName: string, updatedAt: string) => ({
    patientId: patient.id,
    firstName,
    lastName: 'Doe',
    relationship: 'other',
    isPrimary: true,
    updatedAt: new Date(updatedAt),
  });
  await db
    .insert(schema.familyContacts)
    .values([
      contact('Old', '2026-01-01T00:00:00Z'),
      contact('Latest', '2026-03-01T00:00:00Z'),
      contact('Middle', '2026-02-01T00:00:00Z'),
    ]);
  const application = (hospitalName: string, createdAt: string) => ({
    hospitalName,
    contactName: 'Rita',
    contactEmail: 'rita@example.test',
    createdAt: new Date(createdAt),
  });
  await db
    .insert(schema.providerApplications)
    .values([application('Second', '2026-02-01T00:00:00Z'), application('First', '2026-01-01T00:00:00Z')]);

  await migrate(db, { migrationsFolder: migrations });

  const contacts = await db.select().from(schema.familyContacts);
  expect(contacts.filter((c) => c.isPrimary).map((c) => c.firstName)).toEqual(['Latest']);
  const applications = await db.select().from(schema.providerApplications);
  expect(applications.find((a) => a.status === 'pending')?.hospitalName).toBe('First');
  expect(applications.find((a) => a.hospitalName === 'Second')).toMatchObject({
    status: 'rejected',
    notes: expect.stringMatching(/duplicate of an earlier pending application/),
  });
  await client.close();
});
