// Patients of a hospital: add (with a generated MRN), list (search, department, paging), read,
// edit demographics, archive. A hospital reaches only the patients it created (access.ts).
import {
  and,
  count,
  desc,
  eq,
  exists,
  or,
  sql,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  DUPLICATE_PATIENT_MESSAGE,
  type Paged,
  type Patient,
  type PatientCreateInput,
  type PatientInput,
  type PatientListQuery,
  type PossibleDuplicate,
} from '../../../shared/patients.js';
import {
  type Actor,
  findPatientForUser,
  hospitalPatientsFilter,
  type PatientRow,
  orgOf,
} from '../../access.js';
import type { Db } from '../../db/connect.js';
import { isoFromTimestamptz, isoOf, isoTime } from '../../db/iso-time.js';
import { isUniqueViolation } from '../../db/outage.js';
import { fetchPage, subqueryTotal } from '../../db/paging.js';
import { preparedPerDb } from '../../db/prepared.js';
import { appointments, hospitalPatientCounts, medicalRecords, patients, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import { issueActivationCode, type ActivationSettings, type IssuedActivationCode } from './activation.js';
import { patientSearchFilter } from './search.js';
import { generateMrn, MRN_ATTEMPTS } from './mrn.js';

/**
 * What a Patient shows, and nothing else: the list decodes these for each of its rows (the whole
 * row added archived_at and updated_at, two dates per row nobody reads). Its date comes as the
 * API's ISO string (db/iso-time.ts).
 */
const patientColumns = {
  patient: {
    id: patients.id,
    patientId: patients.patientId,
    userId: patients.userId,
    createdByHospitalId: patients.createdByHospitalId,
    firstName: patients.firstName,
    lastName: patients.lastName,
    email: patients.email,
    dateOfBirth: patients.dateOfBirth,
    gender: patients.gender,
    phone: patients.phone,
    insuranceProvider: patients.insuranceProvider,
    insurancePolicy: patients.insurancePolicy,
    primaryCarePhysician: patients.primaryCarePhysician,
    address: patients.address,
    preferredLanguage: patients.preferredLanguage,
    emergencyContactName: patients.emergencyContactName,
    emergencyContactPhone: patients.emergencyContactPhone,
    createdAt: isoTime(patients.createdAt),
  },
  user: { firstName: users.firstName, lastName: users.lastName, email: users.email },
};
/** createdAt: an ISO string from a list, a Date from the insert's RETURNING. */
type ShownPatient = Pick<PatientRow, Exclude<keyof typeof patientColumns.patient, 'createdAt'>> & {
  createdAt: Date | string;
};

/**
 * The latest completed visit of the patient at the hospital that created it (issue 57: a booking
 * that merely started, or was a no-show, is not a visit). Completed is set only from the visit's
 * time on (statusAllowedAt), so it is never in the future.
 */
const lastVisit = () =>
  sql`(select max(${appointments.appointmentDate}) from ${appointments}
    where ${appointments.patientId} = ${patients.id}
      and ${appointments.hospitalId} = ${patients.createdByHospitalId}
      and ${appointments.status} = 'completed')`.mapWith(isoFromTimestamptz) as SQL<string | null>;

/** The hospital's active patients, kept by a trigger (one row read instead of a count). */
const activePatientCount = (db: Db, hospitalId: string | Placeholder) =>
  db
    .select({ total: sql<number>`coalesce(max(${hospitalPatientCounts.active}), 0)`.mapWith(Number) })
    .from(hospitalPatientCounts)
    .where(eq(hospitalPatientCounts.hospitalId, hospitalId));

/**
 * A page of patients matching `where`, newest first, with the last visit of each and the list's
 * total on every row (db/paging.ts): the count a scalar subquery, the last visit worked out for the
 * page's rows only.
 */
function patientPageQuery(
  db: Db,
  where: SQL | undefined,
  total: SQLWrapper,
  bounds: { limit: number | Placeholder; offset: number | Placeholder },
) {
  return db
    .select({ ...patientColumns, lastVisit: lastVisit(), total: subqueryTotal(total) })
    .from(patients)
    .leftJoin(users, eq(users.id, patients.userId))
    .where(where)
    .orderBy(desc(patients.createdAt), desc(patients.id))
    .limit(bounds.limit)
    .offset(bounds.offset);
}

/** The unfiltered list, the one every visit to the Patients tab opens on: prepared once. */
const unfilteredPage = preparedPerDb((db) => {
  const hospitalId = sql.placeholder('hospitalId');
  return patientPageQuery(db, hospitalPatientsFilter(hospitalId), activePatientCount(db, hospitalId), {
    limit: sql.placeholder('limit'),
    offset: sql.placeholder('offset'),
  }).prepare('patient_page_unfiltered');
});

function toPatient(
  row: ShownPatient,
  user: { firstName: string | null; lastName: string | null; email: string | null } | null,
  visit: string | null,
): Patient {
  return {
    id: row.id,
    patientId: row.patientId,
    userId: row.userId,
    createdByHospitalId: row.createdByHospitalId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    dateOfBirth: row.dateOfBirth,
    gender: row.gender,
    phone: row.phone,
    insuranceProvider: row.insuranceProvider,
    insurancePolicy: row.insurancePolicy,
    primaryCarePhysician: row.primaryCarePhysician,
    address: row.address,
    preferredLanguage: row.preferredLanguage,
    emergencyContactName: row.emergencyContactName,
    emergencyContactPhone: row.emergencyContactPhone,
    createdAt: isoOf(row.createdAt),
    user: user?.email ? { firstName: user.firstName, lastName: user.lastName, email: user.email } : null,
    lastVisit: visit,
  };
}

/** Only the fields present in the input; absent ones stay as they are on an edit. */
function demographics(input: PatientInput) {
  const out: Partial<Record<keyof PatientInput, string | null>> = {};
  for (const [key, value] of Object.entries(input) as [keyof PatientInput, string | null | undefined][]) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * This hospital's patients that a new one may duplicate: the same first and last name (any case)
 * with the same date of birth (names accent- and case-folded), or the same e-mail. Other hospitals' patients are never looked at.
 */
export async function findPossibleDuplicates(
  db: Db,
  hospitalId: string,
  input: PatientInput,
): Promise<PossibleDuplicate[]> {
  const sameNameAndBirth =
    input.firstName && input.lastName && input.dateOfBirth
      ? and(
          // Folded like the search (migration 0035): "Chloe Muller" duplicates "Chloé Müller".
          sql`medledger_fold(${patients.lastName}) = medledger_fold(${input.lastName})`,
          sql`medledger_fold(${patients.firstName}) = medledger_fold(${input.firstName})`,
          eq(patients.dateOfBirth, input.dateOfBirth),
        )
      : undefined;
  const sameEmail = input.email ? eq(patients.email, input.email) : undefined;
  if (!sameNameAndBirth && !sameEmail) return [];
  return db
    .select({
      id: patients.id,
      patientId: patients.patientId,
      firstName: patients.firstName,
      lastName: patients.lastName,
      dateOfBirth: patients.dateOfBirth,
      email: patients.email,
    })
    .from(patients)
    .where(and(hospitalPatientsFilter(hospitalId), or(sameNameAndBirth, sameEmail)))
    .limit(5);
}

/**
 * Adds a patient with a new MRN and its first activation code (shown to the hospital once; the
 * caller mails the link when the patient has an e-mail).
 */
export async function createPatient(
  db: Db,
  actor: Actor,
  { confirmDuplicate, ...input }: PatientCreateInput,
  now: Date,
  activation: ActivationSettings,
): Promise<{ patient: Patient; activation: IssuedActivationCode }> {
  if (!confirmDuplicate) {
    const duplicates = await findPossibleDuplicates(db, orgOf(actor), input);
    if (duplicates.length > 0) throw conflict(DUPLICATE_PATIENT_MESSAGE, { duplicates });
  }
  for (let attempt = 1; ; attempt++) {
    const mrn = generateMrn(now);
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(patients)
          .values({ ...demographics(input), patientId: mrn, createdByHospitalId: orgOf(actor) })
          .returning();
        const issued = await issueActivationCode(tx, activation, row.id, now);
        await recordAudit(tx, actor, {
          event: { kind: 'patient_create', data: { mrn } },
          subject: { type: 'patient', id: row.id, hospitalId: orgOf(actor) },
        });
        return { patient: toPatient(row, null, null), activation: issued };
      });
    } catch (err) {
      if (isUniqueViolation(err, 'patients_patient_id_unique') && attempt < MRN_ATTEMPTS) continue;
      throw err;
    }
  }
}

/** A page's rows as Patients (at module level: tsx names a closure made per request each time). */
const toItems = (rows: Awaited<ReturnType<typeof patientPageQuery>>) =>
  rows.map((r) => toPatient(r.patient, r.user, r.lastVisit));

export async function listPatients(
  db: Db,
  hospitalId: string,
  query: PatientListQuery,
): Promise<Paged<Patient>> {
  const conditions: (SQL | undefined)[] = [hospitalPatientsFilter(hospitalId)];
  const search = query.search?.trim();
  if (search) {
    conditions.push(patientSearchFilter(db, search));
  }
  if (query.department && query.department !== 'all') {
    // Patients have no department of their own: a patient is "in" a department when this
    // hospital has a record or an appointment for them there.
    const department = query.department;
    conditions.push(
      or(
        exists(
          db
            .select({ one: sql`1` })
            .from(medicalRecords)
            .where(
              and(
                eq(medicalRecords.patientId, patients.id),
                eq(medicalRecords.hospitalId, hospitalId),
                eq(medicalRecords.department, department),
              ),
            ),
        ),
        exists(
          db
            .select({ one: sql`1` })
            .from(appointments)
            .where(
              and(
                eq(appointments.patientId, patients.id),
                eq(appointments.hospitalId, hospitalId),
                eq(appointments.department, department),
              ),
            ),
        ),
      ),
    );
  }
  if (conditions.length === 1) {
    // hospitalPatientsFilter alone (no search, no department): the prepared statement.
    return fetchPage(
      query,
      (bounds) => unfilteredPage(db).execute({ hospitalId, ...bounds }),
      async () => (await activePatientCount(db, hospitalId))[0].total,
      toItems,
    );
  }
  const where = and(...conditions);
  const countAll = db
    .select({ total: count() })
    .from(patients)
    .leftJoin(users, eq(users.id, patients.userId))
    .where(where);
  return fetchPage(
    query,
    (bounds) => patientPageQuery(db, where, countAll, bounds),
    async () => (await countAll)[0].total,
    toItems,
  );
}

export async function getPatient(db: Db, actor: Actor, patientRowId: string): Promise<Patient> {
  const found = await findPatientForUser(db, actor, patientRowId);
  const [row] = await db
    .select({ ...patientColumns, lastVisit: lastVisit() })
    .from(patients)
    .leftJoin(users, eq(users.id, patients.userId))
    .where(eq(patients.id, found.id));
  return toPatient(row.patient, row.user, row.lastVisit);
}

/** A hospital changes the demographics of its own patient; the change is audited. */
export async function updatePatientDemographics(
  db: Db,
  actor: Actor,
  patientRowId: string,
  input: PatientInput,
  now: Date,
): Promise<Patient> {
  const existing = await findPatientForUser(db, actor, patientRowId);
  const changes = demographics(input);
  const changed = Object.keys(changes).filter(
    (k) => changes[k as keyof PatientInput] !== existing[k as keyof PatientInput],
  );
  await db.transaction(async (tx) => {
    await tx
      .update(patients)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(patients.id, existing.id), hospitalPatientsFilter(orgOf(actor))));
    await recordAudit(tx, actor, {
      event: { kind: 'patient_update', data: { mrn: existing.patientId, fields: changed } },
      subject: { type: 'patient', id: existing.id, hospitalId: orgOf(actor) },
    });
  });
  return getPatient(db, actor, existing.id);
}

export const ALREADY_ACTIVATED =
  'This patient has already created their account; no activation code is needed.';

/**
 * A new activation code for one of the hospital's own patients who has not signed up yet; the old
 * code is void from now on. Audited.
 */
export async function reissueActivationCode(
  db: Db,
  actor: Actor,
  patientRowId: string,
  now: Date,
  activation: ActivationSettings,
): Promise<{ patient: PatientRow; activation: IssuedActivationCode }> {
  const existing = await findPatientForUser(db, actor, patientRowId);
  return db.transaction(async (tx) => {
    // Locks the row, so a sign-up racing with the new code either claimed first (409 here) or
    // waits and then needs the new code.
    const [row] = await tx
      .select()
      .from(patients)
      .where(and(eq(patients.id, existing.id), hospitalPatientsFilter(orgOf(actor))))
      .for('update');
    if (!row || row.userId) throw conflict(ALREADY_ACTIVATED);
    const issued = await issueActivationCode(tx, activation, row.id, now);
    await recordAudit(tx, actor, {
      event: { kind: 'activation_code_issue', data: { mrn: row.patientId } },
      subject: { type: 'patient', id: row.id, hospitalId: orgOf(actor) },
    });
    return { patient: row, activation: issued };
  });
}

/**
 * "Deleting" archives: the patient leaves the hospital's lists, but the row, its records,
 * attachments and ledger entries stay, and the patient's own account keeps reading them.
 */
export async function archivePatient(db: Db, actor: Actor, patientRowId: string, now: Date): Promise<void> {
  const existing = await findPatientForUser(db, actor, patientRowId);
  await db.transaction(async (tx) => {
    // The filter re-checks "not archived" under the row lock: of two removals at once, one archives
    // (and is audited) and the other finds nothing, as it would one after the other.
    const archived = await tx
      .update(patients)
      .set({ archivedAt: now, updatedAt: now })
      .where(and(eq(patients.id, existing.id), hospitalPatientsFilter(orgOf(actor))))
      .returning({ id: patients.id });
    if (archived.length === 0) throw notFound('Patient not found.');
    await recordAudit(tx, actor, {
      event: { kind: 'patient_archive', data: { mrn: existing.patientId } },
      subject: { type: 'patient', id: existing.id, hospitalId: orgOf(actor) },
    });
  });
}
