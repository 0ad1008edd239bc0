import { expect, it } from 'vitest';
import { databaseBeforeMigration } from './migration-testing.js';
import * as schema from './schema.js';

it("counts each hospital's audit entries already there, and keeps counting after", async () => {
  const { client, db, finish, user } = await databaseBeforeMigration('audit_counts');
  // Raw SQL: written as the database was before the migration.
  const [north, south] = [await user('n@example.test'), await user('s@example.test')];
  const audit = (hospitalId: string | null, action: string, entityType: string | null) =>
    client.query(`insert into audit_logs (action, entity_type, hospital_id) values ($1, $2, $3)`, [
      action,
      entityType,
      hospitalId,
    ]);
  // North: two routine reads (a records list), a download (record_access of an attachment) and a
  // sign-in; south: one view; and a sign-in in no hospital's trail.
  await audit(north, 'record_access', 'patient');
  await audit(north, 'record_access', 'patient');
  await audit(north, 'record_access', 'attachment');
  await audit(north, 'login', null);
  await audit(south, 'record_view', 'medical_record');
  await audit(null, 'login', null);
  await finish();
  const counts = async () => {
    const sums: Record<string, { entries: number; routineReads: number }> = {};
    for (const row of await db.select().from(schema.hospitalAuditCounts)) {
      const sum = (sums[row.hospitalId] ??= { entries: 0, routineReads: 0 });
      sum.entries += row.entries;
      sum.routineReads += row.routineReads;
    }
    return sums;
  };
  expect(await counts()).toEqual({
    [north]: { entries: 4, routineReads: 2 },
    [south]: { entries: 1, routineReads: 0 },
  });
  await audit(south, 'record_access', 'patient');
  await client.query(`delete from audit_logs where hospital_id = $1 and action = 'login'`, [north]);
  expect(await counts()).toEqual({
    [north]: { entries: 3, routineReads: 2 },
    [south]: { entries: 2, routineReads: 1 },
  });
  await client.close();
});
