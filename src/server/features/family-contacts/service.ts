// Family contacts of a patient: listed by the patient themself or the hospital that created the
// patient (read only); added, changed and removed only by the patient, each change audited in
// the same transaction. Another patient's contact is 404. One contact at most is the primary one.
import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import {
  MAX_FAMILY_CONTACTS,
  type FamilyContact,
  type FamilyContactInput,
} from '../../../shared/family-contacts.js';
import { findOwnPatient, findPatientForUser, isUuid, type PatientRow } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { familyContacts } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { writeAudit } from '../audit/service.js';
import type { Actor } from '../patients/actor.js';

type ContactRow = typeof familyContacts.$inferSelect;

function toContact(row: ContactRow): FamilyContact {
  return {
    id: row.id,
    patientId: row.patientId,
    firstName: row.firstName,
    lastName: row.lastName,
    relationship: row.relationship,
    phone: row.phone,
    email: row.email,
    address: row.address,
    isPrimary: row.isPrimary,
    canAccessRecords: row.canAccessRecords,
    emergencyContact: row.emergencyContact,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const values = (input: FamilyContactInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  relationship: input.relationship,
  phone: input.phone ?? null,
  email: input.email ?? null,
  address: input.address ?? null,
  isPrimary: input.isPrimary,
  canAccessRecords: input.canAccessRecords,
  emergencyContact: input.emergencyContact,
});

const label = (c: Pick<ContactRow, 'firstName' | 'lastName' | 'relationship'>) =>
  `${c.firstName} ${c.lastName} (${c.relationship})`;

async function audit(tx: Db, actor: Actor, patient: PatientRow, contactId: string, details: string) {
  await writeAudit(tx, {
    userId: actor.id,
    action: 'family_contact_change',
    entityType: 'family_contact',
    entityId: contactId,
    details,
    ipAddress: actor.ip,
    hospitalId: patient.createdByHospitalId,
    patientId: patient.id,
  });
}

/** A new primary contact takes the place of the previous one. */
async function clearOtherPrimary(tx: Db, patientId: string, keepId: string) {
  await tx
    .update(familyContacts)
    .set({ isPrimary: false })
    .where(
      and(
        eq(familyContacts.patientId, patientId),
        eq(familyContacts.isPrimary, true),
        ne(familyContacts.id, keepId),
      ),
    );
}

/** GET /api/family-contacts/patient/{patientId} (patients.id). */
export async function listContacts(db: Db, actor: Actor, patientRowId: string): Promise<FamilyContact[]> {
  const patient = await findPatientForUser(db, actor, patientRowId);
  const rows = await db
    .select()
    .from(familyContacts)
    .where(eq(familyContacts.patientId, patient.id))
    .orderBy(desc(familyContacts.isPrimary), asc(familyContacts.createdAt), asc(familyContacts.id));
  return rows.map(toContact);
}

/** The signed-in patient's own contact, or 404 (another patient's contact included). */
async function findOwnContact(db: Db, actor: Actor, contactId: string) {
  if (actor.role !== 'patient') throw forbidden();
  if (!isUuid(contactId)) throw notFound('Family contact not found.');
  const patient = await findOwnPatient(db, actor);
  const [row] = await db
    .select()
    .from(familyContacts)
    .where(and(eq(familyContacts.id, contactId), eq(familyContacts.patientId, patient.id)));
  if (!row) throw notFound('Family contact not found.');
  return { patient, row };
}

export async function addContact(
  db: Db,
  actor: Actor,
  input: FamilyContactInput,
  now: Date,
): Promise<FamilyContact> {
  if (actor.role !== 'patient') throw forbidden();
  const patient = await findOwnPatient(db, actor);
  const [{ n }] = await db
    .select({ n: count() })
    .from(familyContacts)
    .where(eq(familyContacts.patientId, patient.id));
  if (n >= MAX_FAMILY_CONTACTS)
    throw badRequest(`You can keep at most ${MAX_FAMILY_CONTACTS} family contacts.`);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(familyContacts)
      .values({ ...values(input), patientId: patient.id, createdAt: now, updatedAt: now })
      .returning();
    if (row.isPrimary) await clearOtherPrimary(tx, patient.id, row.id);
    await audit(tx, actor, patient, row.id, `Added family contact ${label(row)}`);
    return toContact(row);
  });
}

export async function updateContact(
  db: Db,
  actor: Actor,
  contactId: string,
  input: FamilyContactInput,
  now: Date,
): Promise<FamilyContact> {
  const { patient, row: existing } = await findOwnContact(db, actor, contactId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(familyContacts)
      .set({ ...values(input), updatedAt: now })
      .where(and(eq(familyContacts.id, existing.id), eq(familyContacts.patientId, patient.id)))
      .returning();
    if (row.isPrimary) await clearOtherPrimary(tx, patient.id, row.id);
    await audit(tx, actor, patient, row.id, `Updated family contact ${label(row)}`);
    return toContact(row);
  });
}

export async function deleteContact(db: Db, actor: Actor, contactId: string): Promise<void> {
  const { patient, row } = await findOwnContact(db, actor, contactId);
  await db.transaction(async (tx) => {
    await tx
      .delete(familyContacts)
      .where(and(eq(familyContacts.id, row.id), eq(familyContacts.patientId, patient.id)));
    await audit(tx, actor, patient, row.id, `Removed family contact ${label(row)}`);
  });
}
