// The migration that adds suspension and verified providers must mark the hospitals that already
// came through an approved provider application as verified, and no other account.
import { expect, it } from 'vitest';
import { databaseBeforeMigration } from './migration-testing.js';
import * as schema from './schema.js';

it('verifies existing hospitals of approved applications only; nobody is suspended', async () => {
  const { client, db, finish, user } = await databaseBeforeMigration('account_control');
  // Written with plain SQL: the schema in the code already has the new columns.
  const vetted = await user('vetted@example.test', 'hospital');
  const selfSignedUp = await user('walkin@example.test', 'hospital');
  const rejectedLater = await user('rejected@example.test', 'hospital');
  const patient = await user('pat@example.test', 'patient');
  const application = (hospitalUserId: string | null, status: string, reviewedAt: string | null) =>
    client.query(
      `insert into provider_applications (user_id, hospital_name, contact_name, contact_email, status, reviewed_at)
       values ($1, 'Clinic', 'Rita', $2, $3, $4)`,
      [hospitalUserId, `${status}.${Math.random()}@example.test`, status, reviewedAt],
    );
  await application(vetted, 'approved', '2026-02-01T10:00:00Z');
  await application(rejectedLater, 'rejected', '2026-02-02T10:00:00Z');
  await application(null, 'approved', '2026-02-03T10:00:00Z');

  await finish();
  const rows = await db.select().from(schema.users);
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(vetted)!.verifiedAt?.toISOString()).toBe('2026-02-01T10:00:00.000Z');
  expect(byId.get(selfSignedUp)!.verifiedAt).toBeNull();
  expect(byId.get(rejectedLater)!.verifiedAt).toBeNull();
  expect(byId.get(patient)!.verifiedAt).toBeNull();
  expect(rows.every((r) => r.suspendedAt === null)).toBe(true);
  await client.close();
});
