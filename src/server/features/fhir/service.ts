// GET /api/fhir/Patient/{id}/$everything: the patient themself or the hospital that created them
// (access.ts; anyone else 404). Loads the rows, the SHA-1 FHIR asks for of each attachment (read
// back through the store, so a damaged file has no hash rather than a wrong one) and audits the export.
import crypto from 'node:crypto';
import type { Bundle } from '@medplum/fhirtypes';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { CONSENT_TYPES, DEFAULT_CONSENT } from '../../../shared/consent.js';
import { type Actor, findPatientForUser } from '../../access.js';
import type { Db } from '../../db/connect.js';
import {
  appointments,
  attachments,
  consentSettings,
  familyContacts,
  medicalRecords,
  users,
} from '../../db/schema.js';
import type { FileStore, StoredFileRef } from '../../files/store.js';
import { recordAudit } from '../audit/service.js';
import { buildPatientBundle, type PatientExport } from './bundle.js';

async function sha1Base64(files: FileStore, meta: StoredFileRef) {
  const hash = crypto.createHash('sha1');
  try {
    for await (const chunk of files.openDecrypted(meta)) hash.update(chunk as Buffer);
    return hash.digest('base64');
  } catch {
    return null;
  }
}

export async function exportPatient(
  deps: { db: Db; files: FileStore; publicUrl: string; now: Date },
  actor: Actor,
  patientRowId: string,
): Promise<Bundle> {
  const { db } = deps;
  const patient = await findPatientForUser(db, actor, patientRowId);
  const [hospital] = await db
    .select({
      id: users.id,
      hospitalName: users.hospitalName,
      hospitalAdminEmail: users.hospitalAdminEmail,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, patient.createdByHospitalId));
  // Drafts are the hospital's work in progress, not part of the patient's record.
  const recordRows = await db
    .select()
    .from(medicalRecords)
    .where(and(eq(medicalRecords.patientId, patient.id), eq(medicalRecords.status, 'final')))
    .orderBy(asc(medicalRecords.createdAt));
  const fileRows = recordRows.length
    ? await db
        .select()
        .from(attachments)
        .where(
          inArray(
            attachments.recordId,
            recordRows.map((r) => r.id),
          ),
        )
        .orderBy(asc(attachments.position))
    : [];
  const withHashes: PatientExport['records'][number]['files'] = [];
  for (const f of fileRows) withHashes.push({ ...f, sha1Base64: await sha1Base64(deps.files, f) });
  const consentRows = await db
    .select()
    .from(consentSettings)
    .where(and(eq(consentSettings.patientId, patient.id), isNull(consentSettings.recordId)));
  const saved = (type: string) => consentRows.find((r) => r.consentType === type);
  const updated = consentRows.map((r) => r.updatedAt).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;

  const appointmentRows = await db
    .select()
    .from(appointments)
    .where(eq(appointments.patientId, patient.id))
    .orderBy(asc(appointments.appointmentDate));
  // The hospital's members the records and appointments are by (Practitioner, PractitionerRole).
  const practitionerIds = [
    ...new Set(
      [...recordRows, ...appointmentRows].map((r) => r.practitionerId).filter((id): id is string => !!id),
    ),
  ];
  const practitioners = practitionerIds.length
    ? await db
        .select({
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
          department: users.department,
          staffRole: users.staffRole,
          hospitalId: users.hospitalId,
        })
        .from(users)
        .where(inArray(users.id, practitionerIds))
    : [];

  const data: PatientExport = {
    patient,
    practitioners,
    hospital, // patients.created_by_hospital_id is a foreign key to users, so it exists
    records: recordRows.map((record) => ({
      record,
      files: withHashes.filter((f) => f.recordId === record.id),
    })),
    appointments: appointmentRows,
    contacts: await db
      .select()
      .from(familyContacts)
      .where(eq(familyContacts.patientId, patient.id))
      .orderBy(asc(familyContacts.createdAt)),
    consent: {
      shareWithSpecialists:
        saved(CONSENT_TYPES.shareWithSpecialists)?.isGranted ?? DEFAULT_CONSENT.shareWithSpecialists,
      shareWithFamily: saved(CONSENT_TYPES.shareWithFamily)?.isGranted ?? DEFAULT_CONSENT.shareWithFamily,
      updatedAt: updated,
    },
    publicUrl: deps.publicUrl,
    now: deps.now,
  };
  await recordAudit(db, actor, {
    event: { kind: 'record_access', data: { read: 'fhir_export', records: recordRows.length } },
    subject: { type: 'patient', id: patient.id, hospitalId: patient.createdByHospitalId },
  });
  return buildPatientBundle(data);
}
