import { expect, it } from 'vitest';
import { databaseBeforeMigration } from './migration-testing.js';
import * as schema from './schema.js';

it("counts each hospital's active patients already there, and keeps counting after", async () => {
  const { client, db, finish, user } = await databaseBeforeMigration('patient_counts');
  // Raw SQL: written as the database was before the migration.
  const [north, south, empty] = [
    await user('n@example.test'),
    await user('s@example.test'),
    await user('e@example.test'),
  ];
  let mrn = 0;
  const patient = (hospitalId: string, archived: boolean) =>
    client.query(
      `insert into patients (patient_id, created_by_hospital_id, archived_at) values ($1, $2, $3)`,
      [`MRN${++mrn}`, hospitalId, archived ? new Date().toISOString() : null],
    );
  for (const [id, active, archived] of [
    [north, 3, 1],
    [south, 1, 2],
    [empty, 0, 1],
  ] as const) {
    for (let i = 0; i < active; i++) await patient(id, false);
    for (let i = 0; i < archived; i++) await patient(id, true);
  }
  await finish();
  const counts = async () =>
    Object.fromEntries(
      (await db.select().from(schema.hospitalPatientCounts)).map((r) => [r.hospitalId, r.active]),
    );
  expect(await counts()).toEqual({ [north]: 3, [south]: 1 });
  await patient(empty, false);
  await client.query(`update patients set archived_at = now() where created_by_hospital_id = $1`, [north]);
  expect(await counts()).toEqual({ [north]: 0, [south]: 1, [empty]: 1 });
  // Many in one statement (one of them archived), a move between hospitals, a change that moves
  // no count, and a removal.
  await client.query(
    `insert into patients (patient_id, created_by_hospital_id, archived_at)
     select 'BULK' || g, $1, case when g = 1 then now() end from generate_series(1, 5) g`,
    [north],
  );
  expect(await counts()).toEqual({ [north]: 4, [south]: 1, [empty]: 1 });
  await client.query(
    `update patients set created_by_hospital_id = $1 where patient_id in ('BULK2', 'BULK3')`,
    [south],
  );
  await client.query(`update patients set first_name = 'Ann' where created_by_hospital_id = $1`, [south]);
  await client.query(`delete from patients where patient_id in ('BULK4', 'BULK1')`);
  expect(await counts()).toEqual({ [north]: 1, [south]: 3, [empty]: 1 });
  await client.query('truncate patients cascade');
  expect(await counts()).toEqual({});
  await client.close();
});
