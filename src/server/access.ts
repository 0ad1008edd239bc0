// The one place that answers "may this user see this patient / record?". Every service goes
// through it. Another party's resource is answered as 404, so its existence does not leak.
import type { FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ACCOUNT_SUSPENDED } from '../shared/admin-users.js';
import { CONSENT_TYPES } from '../shared/consent.js';
import type { Role, StaffRole } from '../shared/constants.js';
import { isUuid } from '../shared/fields.js';
import type { Db } from './db/connect.js';
import {
  appointments,
  consentSettings,
  familyContacts,
  familyGrants,
  medicalRecords,
  patients,
  shareLinks,
  users,
} from './db/schema.js';
import { forbidden, notFound } from './errors.js';
import { currentUser } from './plugins/session.js';

/**
 * The acting user of a request as the services take it: the person (id), their role, and for a
 * hospital's member the organization they act for and their staff role; and the IP the audit
 * trail keeps.
 */
export interface Actor {
  id: string;
  role: Role;
  ip: string;
  /** A hospital member's organization (shared/users.ts PublicUser.hospitalId); null otherwise. */
  hospitalId: string | null;
  staffRole: StaffRole | null;
}

export function actorOf(request: FastifyRequest): Actor {
  const user = currentUser(request);
  return {
    id: user.id,
    role: user.role,
    ip: request.ip,
    hospitalId: user.hospitalId ?? null,
    staffRole: user.staffRole ?? null,
  };
}

/** Who asks, for the access rules: the IP plays no part in them. */
type Who = Pick<Actor, 'id' | 'role'> & { hospitalId?: string | null };

/**
 * The organization a hospital member acts for: every hospital-scoped row (patients it created,
 * records, appointments, trail, settings, trial) belongs to it, not to the member. Null for a
 * non-hospital, so that no other role's id is ever taken for a hospital's.
 */
export const hospitalOf = (actor: Who): string | null =>
  actor.role === 'hospital' ? (actor.hospitalId ?? null) : null;

/** hospitalOf for code only hospital members reach (their route's policy): throws for anyone else. */
export function orgOf(actor: Who): string {
  const hospitalId = hospitalOf(actor);
  if (!hospitalId) throw forbidden();
  return hospitalId;
}

/**
 * Whether a hospital member may read records' contents and attachments: a front-desk member sees
 * that records exist (title, date, type) and no more (docs/decisions.md#staff-accounts).
 */
export const readsRecordContents = (actor: Pick<Actor, 'role'> & { staffRole?: StaffRole | null }) =>
  actor.role !== 'hospital' || actor.staffRole !== 'front_desk';
export type PatientRow = typeof patients.$inferSelect;
export type RecordRow = typeof medicalRecords.$inferSelect;
export type AppointmentRow = typeof appointments.$inferSelect;
export type ShareLinkRow = typeof shareLinks.$inferSelect;

/** Ids reach SQL only when well-formed; anything else is simply "not found". */
export { isUuid };

/**
 * A hospital reaches the patients it created (not archived ones); a patient reaches only the
 * patient row linked to their own account (archived or not).
 */
export async function findPatientForUser(db: Db, actor: Who, patientRowId: string): Promise<PatientRow> {
  if (!isUuid(patientRowId)) throw notFound('Patient not found.');
  const [row] = await db.select().from(patients).where(eq(patients.id, patientRowId));
  if (!row || !mayReachPatient(actor, row)) throw notFound('Patient not found.');
  return row;
}

export function mayReachPatient(
  actor: Who,
  patient: Pick<PatientRow, 'createdByHospitalId' | 'archivedAt' | 'userId'>,
): boolean {
  if (actor.role === 'hospital')
    return patient.createdByHospitalId === hospitalOf(actor) && patient.archivedAt === null;
  if (actor.role === 'patient') return patient.userId === actor.id;
  return false;
}

/** The patient row of a signed-in patient, or 404 when their account has none. */
export async function findOwnPatient(db: Db, actor: Who): Promise<PatientRow> {
  if (actor.role !== 'patient') throw notFound('Patient not found.');
  const [row] = await db.select().from(patients).where(eq(patients.userId, actor.id));
  if (!row) throw notFound('Patient not found.');
  return row;
}

/** A patient's own patient row by its id; 404 for any other row, and for anyone but a patient. */
export async function findOwnPatientRow(db: Db, actor: Who, patientRowId: string): Promise<PatientRow> {
  const own = await findOwnPatient(db, actor);
  if (own.id !== patientRowId) throw notFound('Patient not found.');
  return own;
}

/**
 * Which part of a patient row an edit changes (PUT /api/patients/{id}): a patient the profile
 * fields of their own row (phone, insurance, primary care); whoever keeps the row (the hospital
 * that created it) its demographics. Each part's service then finds the row as its editor may.
 */
export const editsOwnProfile = (actor: Who) => actor.role === 'patient';

/**
 * Whether `id` is the asker's own user id, which a patient may use to name their own patient row
 * (the record list); nobody else names a patient row by an account.
 */
export const namesOwnAccount = (actor: Who, id: string) => actor.role === 'patient' && id === actor.id;

/**
 * The patient row `id` names for the actor: a patient's own, by its id or by their user id; a
 * hospital's, by its id (findPatientForUser). Anything else is 404.
 */
export async function findNamedPatient(db: Db, actor: Who, id: string): Promise<PatientRow> {
  if (actor.role !== 'patient') return findPatientForUser(db, actor, id);
  const own = await findOwnPatient(db, actor);
  if (id !== own.id && id !== actor.id) throw notFound('Patient not found.');
  return own;
}

/**
 * The patient row of an account, as `actor` may see it: a patient only their own user id, a
 * hospital only patients it created. Anything else is 404.
 */
export async function findPatientByUserId(db: Db, actor: Who, userId: string): Promise<PatientRow> {
  if (!isUuid(userId)) throw notFound('Patient not found.');
  if (actor.role === 'patient' && userId !== actor.id) throw notFound('Patient not found.');
  const [row] = await db.select().from(patients).where(eq(patients.userId, userId));
  if (!row || !mayReachPatient(actor, row)) throw notFound('Patient not found.');
  return row;
}

/**
 * A hospital reaches the records it uploaded for its own (non-archived) patients, drafts
 * included; a patient reaches the final (uploaded) records of their own patient row.
 */
export async function findRecordForUser(
  db: Db,
  actor: Who,
  recordId: string,
): Promise<{ record: RecordRow; patient: PatientRow }> {
  if (!isUuid(recordId)) throw notFound('Record not found.');
  const [row] = await db
    .select({ record: medicalRecords, patient: patients })
    .from(medicalRecords)
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))
    .where(eq(medicalRecords.id, recordId));
  if (!row || !(await reachesRecord(db, actor, row.record, row.patient))) throw notFound('Record not found.');
  return row;
}

/** mayReachRecord, and for a family member the live grant (a query, so it is async). */
export async function reachesRecord(db: Db, actor: Who, record: RecordRow, patient: PatientRow) {
  if (actor.role !== 'family') return mayReachRecord(actor, record, patient);
  const grant = await liveGrantOf(db, actor.id, patient.id);
  return !!grant && proxyMayReadRecord(record, grant);
}

export function mayReachRecord(actor: Who, record: RecordRow, patient: PatientRow): boolean {
  if (!mayReachPatient(actor, patient)) return false;
  const hospitalId = recordReaderHospital(actor);
  return hospitalId !== null ? record.hospitalId === hospitalId : record.status === 'final';
}

/** Whose records a reader reaches, as reachableRecordsFilter takes it: a hospital's own id, or null. */
export const recordReaderHospital = (actor: Who) => hospitalOf(actor);

/**
 * mayReachRecord's rule on the record itself as SQL, for the record lists (the patient half is
 * checked on the patient row): a hospital reaches its own records, drafts included; every other
 * reader final records only. A placeholder serves the prepared list statements.
 */
export const reachableRecordsFilter = (hospitalId: string | Placeholder | null) =>
  hospitalId !== null ? eq(medicalRecords.hospitalId, hospitalId) : eq(medicalRecords.status, 'final');

/**
 * An appointment for reading (its calendar file): the hospital that booked it, for a patient it
 * still reaches, or the patient it is for.
 */
export async function findAppointmentForUser(
  db: Db,
  actor: Who,
  appointmentId: string,
): Promise<{ appointment: AppointmentRow; patient: PatientRow }> {
  if (!isUuid(appointmentId)) throw notFound('Appointment not found.');
  const [row] = await db
    .select({ appointment: appointments, patient: patients })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .where(eq(appointments.id, appointmentId));
  const reaches = row && mayReachAppointment(actor, row.appointment, row.patient);
  if (!reaches) throw notFound('Appointment not found.');
  return row;
}

export function mayReachAppointment(actor: Who, appointment: AppointmentRow, patient: PatientRow): boolean {
  return (
    mayReachPatient(actor, patient) &&
    (actor.role === 'patient' || appointment.hospitalId === hospitalOf(actor))
  );
}

/** An appointment a hospital may change: one it booked, for a patient it still reaches. */
export async function findHospitalAppointment(db: Db, actor: Who, appointmentId: string) {
  if (actor.role !== 'hospital') throw notFound('Appointment not found.');
  return findAppointmentForUser(db, actor, appointmentId);
}

/**
 * The SQL side of mayReachAppointment, over appointments joined with patients: a hospital lists
 * the ones it booked for patients not archived; a patient those of their own patient row.
 */
export const hospitalAppointmentsFilter = (hospitalId: string | Placeholder) =>
  and(eq(appointments.hospitalId, hospitalId), isNull(patients.archivedAt));
export const patientAppointmentsFilter = (patientRowId: string) => eq(appointments.patientId, patientRowId);

/** Patients a hospital may list (its own, not archived). */
export const hospitalPatientsFilter = (hospitalId: string | Placeholder) =>
  and(eq(patients.createdByHospitalId, hospitalId), isNull(patients.archivedAt));

// Family proxy access (docs/decisions.md#family-proxy-access). A grant counts while the patient's
// "Share with family" consent is on (on until the patient saves it off), the contact it was made for
// still exists (the grant goes with it), that contact's "Can Access Medical Records" flag is on and
// the patient's account is not suspended.
// Evaluated on every request: nothing is cached, so turning any of them off ends access at once.

/**
 * The SQL filter of live grants (of one family member, or of anyone), for a query over
 * family_grants inner-joined with family_contacts on `liveGrantJoin`: the predicate below and the
 * proxy lists use the same one.
 */
export const liveGrantJoin = and(
  eq(familyContacts.id, familyGrants.contactId),
  eq(familyContacts.patientId, familyGrants.patientId),
);
export const liveGrantFilter = (familyUserId?: string) =>
  and(
    familyUserId ? eq(familyGrants.familyUserId, familyUserId) : undefined,
    // Not while the patient who gave it is suspended (docs/decisions.md#account-control).
    isNull(familyGrants.suspendedAt),
    eq(familyContacts.canAccessRecords, true),
    familySharingOn(familyGrants.patientId),
  );

/**
 * Serialises, until the transaction ends, every change that grants or revokes a reach into one
 * patient's records by link or by relative: consent saves, share links made, invitations sent and
 * accepted, contact changes and revokes. Each reads the state it depends on after taking it, so a
 * revocation and a grant racing it are decided one after the other (docs/decisions.md#consent).
 * NO KEY UPDATE conflicts with itself but not with the key-share locks of foreign keys, so records
 * and appointments of the patient can still be written meanwhile.
 */
export async function lockPatientGrants(tx: Db, patientRowId: string) {
  await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.id, patientRowId))
    .for('no key update');
}

/**
 * Holds the account that a grant comes from (the maker of a share link, the patient behind a family
 * invitation) against a suspension until the grant's transaction ends, and refuses a suspended one.
 * Suspension updates this row before it marks the account's links and grants, so a grant made
 * alongside it is either refused here or committed first and then marked with the rest
 * (docs/decisions.md#account-control). Take it after `lockPatientGrants` and before any other row.
 */
export async function lockActiveAccount(tx: Db, userId: string) {
  const [account] = await tx
    .select({ suspendedAt: users.suspendedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('share');
  if (!account || account.suspendedAt !== null) throw forbidden(ACCOUNT_SUSPENDED);
}

/**
 * A grant belongs to the person who accepted the invitation, not to the contact row: a change
 * that may point the contact at someone else (its e-mail or name), or that touches a contact whose
 * access is off, ends the contact's grants, and only a new invitation, accepted, gives access again.
 */
export function contactChangeEndsGrant(
  before: Pick<typeof familyContacts.$inferSelect, 'email' | 'firstName' | 'lastName' | 'canAccessRecords'>,
  after: Pick<typeof familyContacts.$inferSelect, 'email' | 'firstName' | 'lastName' | 'canAccessRecords'>,
): boolean {
  return (
    (before.email ?? '').toLowerCase() !== (after.email ?? '').toLowerCase() ||
    before.firstName !== after.firstName ||
    before.lastName !== after.lastName ||
    // Off on either side: taken away now, or given back after a Revoke (grants from before this
    // rule, kept while the flag was off, end here too instead of coming back).
    !before.canAccessRecords ||
    !after.canAccessRecords
  );
}

/** What a live grant gives: whether its contact has every record shared (else only switched-on ones). */
export interface LiveGrant {
  shareAllRecords: boolean;
}

/** The family member's live grant for the patient row, or null (one with share-all wins). */
export async function liveGrantOf(
  db: Db,
  familyUserId: string,
  patientRowId: string,
): Promise<LiveGrant | null> {
  const rows = await db
    .select({ shareAllRecords: familyContacts.shareAllRecords })
    .from(familyGrants)
    .innerJoin(familyContacts, liveGrantJoin)
    .where(and(liveGrantFilter(familyUserId), eq(familyGrants.patientId, patientRowId)));
  if (rows.length === 0) return null;
  return { shareAllRecords: rows.some((r) => r.shareAllRecords) };
}

/** The patient a family member names, while their grant is live; 404 otherwise (missing, another's). */
export async function findProxyPatient(
  db: Db,
  actor: Who,
  patientRowId: string,
): Promise<{ patient: PatientRow; grant: LiveGrant }> {
  if (actor.role !== 'family' || !isUuid(patientRowId)) throw notFound('Patient not found.');
  const [row] = await db.select().from(patients).where(eq(patients.id, patientRowId));
  const grant = row ? await liveGrantOf(db, actor.id, row.id) : null;
  if (!row || !grant) throw notFound('Patient not found.');
  return { patient: row, grant };
}

/**
 * What a proxy reads of a patient it may reach: current records (uploaded, not superseded, not
 * entered in error) whose own "Family" sharing switch is on, or all of them when the patient shares
 * every record with this relative (issue 57). Predicate and SQL filter side by side.
 */
export const proxyMayReadRecord = (record: RecordRow, grant: LiveGrant) =>
  record.status === 'final' &&
  record.supersededById === null &&
  record.enteredInErrorAt === null &&
  (record.shareWithFamily || grant.shareAllRecords);
export const proxyRecordsFilter = (patientRowId: string, grant: LiveGrant) =>
  and(
    eq(medicalRecords.patientId, patientRowId),
    eq(medicalRecords.status, 'final'),
    isNull(medicalRecords.supersededById),
    isNull(medicalRecords.enteredInErrorAt),
    grant.shareAllRecords ? undefined : eq(medicalRecords.shareWithFamily, true),
  );

/**
 * A patient-wide consent as SQL over `patientId` (a column or a value): on until the patient saves
 * it off (docs/decisions.md#consent), so it is "no saved row saying no". A column must be one
 * drizzle writes with its table (a query with a join), or it would name consent_settings' own.
 */
const patientConsentOn = (consentType: string, patientId: AnyColumn | SQL) =>
  sql<boolean>`not exists (select 1 from ${consentSettings} where ${consentSettings.patientId} = ${patientId}
    and ${consentSettings.recordId} is null and ${consentSettings.consentType} = ${consentType}
    and not ${consentSettings.isGranted})`;
export const familySharingOn = (patientId: AnyColumn | SQL) =>
  patientConsentOn(CONSENT_TYPES.shareWithFamily, patientId);
export const specialistsConsentOn = (patientId: AnyColumn | SQL) =>
  patientConsentOn(CONSENT_TYPES.shareWithSpecialists, patientId);

/**
 * A specialist share link opens (docs/decisions.md#specialist-share-links) while it is neither
 * revoked nor expired nor suspended with the account that made it, the patient's "Share with
 * specialists" consent is on, and the current version of its record (a link follows its record
 * through amendments: `linkedRecordVersion`) has its own Specialists switch on and is uploaded and
 * not entered in error. The predicate (given that current version) and its SQL (over share_links
 * joined with medical_records on `linkedRecordVersion`) say the same.
 */
export function mayOpenShareLink(
  link: Pick<ShareLinkRow, 'revokedAt' | 'expiresAt' | 'suspendedAt'>,
  record: Pick<RecordRow, 'shareWithSpecialists' | 'status' | 'enteredInErrorAt' | 'supersededById'>,
  specialistsConsent: boolean,
  now: Date,
): boolean {
  return (
    link.revokedAt === null &&
    link.suspendedAt === null &&
    link.expiresAt > now &&
    specialistsConsent &&
    record.shareWithSpecialists &&
    record.status === 'final' &&
    record.supersededById === null &&
    record.enteredInErrorAt === null
  );
}

export const openShareLinkFilter = (now: Date) =>
  and(
    isNull(shareLinks.revokedAt),
    isNull(shareLinks.suspendedAt),
    gt(shareLinks.expiresAt, now),
    specialistsConsentOn(medicalRecords.patientId),
    eq(medicalRecords.shareWithSpecialists, true),
    eq(medicalRecords.status, 'final'),
    isNull(medicalRecords.supersededById),
    isNull(medicalRecords.enteredInErrorAt),
  );

const version = alias(medicalRecords, 'version');
/**
 * The id of the latest version of the record a share link was made for: its record, or the end of
 * that record's chain of amendments (one version has at most one successor, so the chain is a
 * line), as SQL over share_links. Join medical_records on it to read what the link opens now.
 */
export const linkedRecordVersion = sql<string>`(
  with recursive chain(id, next) as (
    select ${version.id}, ${version.supersededById} from ${medicalRecords} as ${version} where ${version.id} = ${shareLinks.recordId}
    union all
    select ${version.id}, ${version.supersededById} from ${medicalRecords} as ${version}
      join chain on ${version.id} = chain.next
  )
  select chain.id from chain where chain.next is null)`;
