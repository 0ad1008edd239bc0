// What a family member reads of the patients who granted them access (docs/decisions.md#family-proxy-access),
// and the patient's list of who holds access with its "Revoke". Access itself is decided in
// access.ts (findProxyPatient, liveGrantFilter, proxyRecordsFilter); every read is audited in the
// patient's trail with the family member as the actor.
import { and, asc, eq, gte, ne } from 'drizzle-orm';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { AccessHolder, ProxyPatient } from '../../../shared/proxy.js';
import type { MedicalRecord, RecordListQuery } from '../../../shared/records.js';
import type { Appointment } from '../../../shared/appointments.js';
import { displayName, joinNames } from '../../../shared/users.js';
import {
  type Actor,
  findOwnPatient,
  findProxyPatient,
  isUuid,
  liveGrantFilter,
  liveGrantJoin,
  lockPatientGrants,
  proxyRecordsFilter,
} from '../../access.js';
import type { Db } from '../../db/connect.js';
import { appointments, familyContacts, familyGrants, patients, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { listWhere } from '../appointments/service.js';
import { recordAudit } from '../audit/service.js';
import { auditList } from '../records/read.js';
import { endContactGrants } from './invitations.js';
import { loadRecordPage } from '../records/load.js';

/** GET /api/proxy/patients: the family member's live grants, one per patient. */
export async function listProxyPatients(db: Db, actor: Actor): Promise<ProxyPatient[]> {
  const rows = await db
    .select({ patient: patients, relationship: familyContacts.relationship, since: familyGrants.createdAt })
    .from(familyGrants)
    .innerJoin(familyContacts, liveGrantJoin)
    .innerJoin(patients, eq(patients.id, familyGrants.patientId))
    .where(liveGrantFilter(actor.id))
    .orderBy(asc(familyGrants.createdAt), asc(familyGrants.id));
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.patient.id) && seen.add(r.patient.id))
    .map((r) => ({
      id: r.patient.id,
      name: joinNames(r.patient.firstName, r.patient.lastName) || r.patient.patientId,
      mrn: r.patient.patientId,
      relationship: r.relationship,
      since: r.since.toISOString(),
    }));
}

/** GET /api/proxy/patients/{patientId}/records: current records shared with family, one page (audited). */
export async function listProxyRecords(
  db: Db,
  actor: Actor,
  patientRowId: string,
  query: RecordListQuery,
): Promise<Paged<MedicalRecord>> {
  const { patient, grant } = await findProxyPatient(db, actor, patientRowId);
  return auditList(
    db,
    actor,
    patient,
    await loadRecordPage(db, proxyRecordsFilter(patient.id, grant), query),
  );
}

/** GET /api/proxy/patients/{patientId}/appointments: the patient's upcoming appointments, one page. */
export async function listProxyAppointments(
  db: Db,
  actor: Actor,
  patientRowId: string,
  paging: PagingQuery,
  now: Date,
): Promise<Paged<Appointment>> {
  const { patient } = await findProxyPatient(db, actor, patientRowId);
  return listWhere(
    db,
    and(
      eq(appointments.patientId, patient.id),
      gte(appointments.appointmentDate, now),
      ne(appointments.status, 'cancelled'),
    ),
    paging,
  );
}

/** GET /api/proxy/holders: who holds access to the signed-in patient's records now. */
export async function listAccessHolders(db: Db, actor: Actor): Promise<AccessHolder[]> {
  const patient = await findOwnPatient(db, actor);
  const rows = await db
    .select({ contact: familyContacts, user: users, since: familyGrants.createdAt })
    .from(familyGrants)
    .innerJoin(familyContacts, liveGrantJoin)
    .innerJoin(users, eq(users.id, familyGrants.familyUserId))
    .where(and(eq(familyGrants.patientId, patient.id), liveGrantFilter(undefined)))
    .orderBy(asc(familyGrants.createdAt), asc(familyGrants.id));
  return rows.map((r) => ({
    contactId: r.contact.id,
    contactName: `${r.contact.firstName} ${r.contact.lastName}`,
    relationship: r.contact.relationship,
    email: r.user.email,
    accountName: displayName(r.user),
    since: r.since.toISOString(),
  }));
}

/**
 * DELETE /api/proxy/holders/{contactId}: "Revoke" clears the contact's "Can Access Medical Records"
 * flag and ends every grant made through that contact (audited), at once.
 */
export async function revokeHolder(db: Db, actor: Actor, contactId: string, now: Date): Promise<void> {
  if (!isUuid(contactId)) throw notFound('Family contact not found.');
  const patient = await findOwnPatient(db, actor);
  await db.transaction(async (tx) => {
    await lockPatientGrants(tx, patient.id);
    const [row] = await tx
      .update(familyContacts)
      .set({ canAccessRecords: false, updatedAt: now })
      .where(and(eq(familyContacts.id, contactId), eq(familyContacts.patientId, patient.id)))
      .returning();
    if (!row) throw notFound('Family contact not found.');
    // Ticking the flag again later asks for a new invitation: the grant is gone, not paused.
    await endContactGrants(tx, row.id);
    await recordAudit(tx, actor, {
      event: {
        kind: 'family_access',
        data: { change: 'revoked', contact: `${row.firstName} ${row.lastName} (${row.relationship})` },
      },
      subject: {
        type: 'family_contact',
        id: row.id,
        patientId: patient.id,
        hospitalId: patient.createdByHospitalId,
      },
    });
  });
}
