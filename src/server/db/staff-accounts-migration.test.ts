// The staff-accounts migration (issue 55) on a database populated the way the older schema
// allowed: each existing hospital becomes its own organization's first admin, nobody else gains a
// staff role, and the hospital, signed in afterwards through the real app, still reaches its
// patients, records, appointments and trail under the same ids.
import { expect, it } from 'vitest';
import type { PublicUser } from '../../shared/users.js';
import { hashPassword } from '../features/auth/passwords.js';
import { STRONG_PASSWORD, callerOf, createTestAppOn, login } from '../test/helpers.js';
import type { Database } from './connect.js';
import { databaseBeforeMigration } from './migration-testing.js';
import * as schema from './schema.js';

it('makes every hospital its own first admin and keeps every id working', async () => {
  const { client, db, finish } = await databaseBeforeMigration('staff_accounts');
  const password = await hashPassword(STRONG_PASSWORD);
  const insertUser = async (email: string, role: string, hospitalName: string | null = null) =>
    (
      await client.query<{ id: string }>(
        `insert into users (email, password, role, hospital_name, first_name, last_name)
         values ($1, $2, $3, $4, 'Hana', 'Ward') returning id`,
        [email, password, role, hospitalName],
      )
    ).rows[0].id;
  const hospital = await insertUser('old.hospital@example.test', 'hospital', "St. Mary's");
  const other = await insertUser('other.hospital@example.test', 'hospital', 'Other Clinic');
  const patientUser = await insertUser('old.patient@example.test', 'patient');
  const admin = await insertUser('old.admin@example.test', 'medledger_admin');
  const patient = (
    await client.query<{ id: string }>(
      `insert into patients (patient_id, first_name, last_name, created_by_hospital_id, user_id)
       values ('MRN-OLD-1', 'Pat', 'Old', $1, $2) returning id`,
      [hospital, patientUser],
    )
  ).rows[0].id;
  await client.query(
    `insert into subscriptions (user_id, status, trial_ends_at) values ($1, 'trialing', now() + interval '5 days')`,
    [hospital],
  );
  await client.query(
    `insert into appointments (patient_id, hospital_id, doctor_name, department, appointment_type, appointment_date)
     values ($1, $2, 'Dr. House', 'cardiology', 'consultation', '2031-01-02T10:00:00Z')`,
    [patient, hospital],
  );
  await client.query(
    `insert into audit_logs (user_id, action, details, hospital_id, patient_id) values ($1, 'patient_create', 'Added Pat Old', $1, $2)`,
    [hospital, patient],
  );

  await finish();
  const rows = await db.select().from(schema.users);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of [hospital, other]) {
    expect(byId.get(id)).toMatchObject({ hospitalId: id, staffRole: 'hospital_admin', deactivatedAt: null });
  }
  for (const id of [patientUser, admin]) {
    expect(byId.get(id)).toMatchObject({ hospitalId: null, staffRole: null });
  }

  const database: Database = {
    db,
    kind: 'pglite',
    close: () => client.close(),
    observeQueries: () => {},
    poolStats: () => ({ max: 1, total: 1, idle: 1, waiting: 0 }),
  };
  const t = await createTestAppOn(database);
  try {
    const call = callerOf(t);
    const cookie = await login(t.app, 'old.hospital@example.test');
    const me = (await call('GET', '/api/auth/me', cookie)).json<{ user: PublicUser }>().user;
    expect(me).toMatchObject({
      id: hospital,
      hospitalId: hospital,
      staffRole: 'hospital_admin',
      hospitalName: "St. Mary's",
    });
    const patients = (await call('GET', '/api/patients', cookie)).json<{ items: { id: string }[] }>();
    expect(patients.items.map((p) => p.id)).toEqual([patient]);
    const calendar = await call('GET', `/api/appointments/hospital/${hospital}`, cookie);
    expect(calendar.json<{ items: { doctorName: string; practitionerId: string | null }[] }>().items).toEqual(
      [expect.objectContaining({ doctorName: 'Dr. House', practitionerId: null })],
    );
    const trail = (await call('GET', '/api/audit-logs', cookie)).json<{
      items: { action: string; userName: string }[];
    }>();
    expect(trail.items.find((e) => e.action === 'patient_create')?.userName).toBe("Hana Ward, St. Mary's");
    // The first admin can now invite staff; the other hospital sees none of this one's.
    expect((await call('GET', '/api/hospital/staff', cookie)).json<{ total: number }>().total).toBe(1);
    const otherCookie = await login(t.app, 'other.hospital@example.test');
    expect((await call('GET', `/api/patients/${patient}`, otherCookie)).statusCode).toBe(404);
    // The patient still signs in and sees the appointment.
    const patientCookie = await login(t.app, 'old.patient@example.test');
    expect((await call('GET', '/api/appointments/patient', patientCookie)).statusCode).toBeLessThan(300);
  } finally {
    await t.close();
  }
});
