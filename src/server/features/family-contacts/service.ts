// Family contacts of a patient: listed by the patient themself or the hospital that created the
// patient (read only); added, changed and removed only by the patient, each change audited in
// the same transaction. Another patient's contact is 404. One contact at most is the primary one
// (a partial unique index says so) and a patient keeps at most MAX_FAMILY_CONTACTS: every change
// runs under the patient's grant lock (access.ts), so parallel requests, and the invitations and
// acceptances racing them, are decided one after the other. A change of a contact's e-mail or name,
// or of its access, ends the grants made through it (contactChangeEndsGrant).
import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import {
  MAX_FAMILY_CONTACTS,
  type FamilyContact,
  type FamilyContactInput,
} from '../../../shared/family-contacts.js';
import {
  type Actor,
  contactChangeEndsGrant,
  findOwnPatient,
  findPatientForUser,
  isUuid,
  lockPatientGrants,
  type PatientRow,
} from '../../access.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { Db } from '../../db/connect.js';
import { fetchPage, windowTotal } from '../../db/paging.js';
import { familyContacts } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import { endContactGrants } from '../proxy/invitations.js';

type ContactRow = typeof familyContacts.$inferSelect;

export const CONTACT_LIMIT_REACHED = `You can keep at most ${MAX_FAMILY_CONTACTS} family contacts.`;

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
    shareAllRecords: row.shareAllRecords,
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
  shareAllRecords: input.canAccessRecords && input.shareAllRecords,
});

const label = (c: Pick<ContactRow, 'firstName' | 'lastName' | 'relationship'>) =>
  `${c.firstName} ${c.lastName} (${c.relationship})`;

/** A family contact as an audit entry's subject. */
const contactSubject = (patient: PatientRow, contactId: string) =>
  ({
    type: 'family_contact',
    id: contactId,
    patientId: patient.id,
    hospitalId: patient.createdByHospitalId,
  }) as const;

async function audit(
  tx: Db,
  actor: Actor,
  patient: PatientRow,
  row: ContactRow,
  change: 'added' | 'updated' | 'removed',
) {
  await recordAudit(tx, actor, {
    event: { kind: 'family_contact_change', data: { change, contact: label(row) } },
    subject: contactSubject(patient, row.id),
  });
}

/**
 * A new primary contact takes the place of the previous one. Cleared before the new one is
 * written, since the unique index is checked at each statement.
 */
async function clearPrimary(tx: Db, patientId: string, exceptId?: string) {
  await tx
    .update(familyContacts)
    .set({ isPrimary: false })
    .where(
      and(
        eq(familyContacts.patientId, patientId),
        eq(familyContacts.isPrimary, true),
        exceptId ? ne(familyContacts.id, exceptId) : undefined,
      ),
    );
}

/** GET /api/family-contacts/patient/{patientId} (patients.id). */
export async function listContacts(
  db: Db,
  actor: Actor,
  patientRowId: string,
  paging: PagingQuery,
): Promise<Paged<FamilyContact>> {
  const patient = await findPatientForUser(db, actor, patientRowId);
  const where = eq(familyContacts.patientId, patient.id);
  return fetchPage(
    paging,
    ({ limit, offset }) =>
      db
        .select({ contact: familyContacts, total: windowTotal() })
        .from(familyContacts)
        .where(where)
        .orderBy(desc(familyContacts.isPrimary), asc(familyContacts.createdAt), asc(familyContacts.id))
        .limit(limit)
        .offset(offset),
    async () => (await db.select({ total: count() }).from(familyContacts).where(where))[0].total,
    (rows) => rows.map((r) => toContact(r.contact)),
  );
}

/** The signed-in patient's own contact, or 404 (another patient's contact included). */
async function findOwnContact(db: Db, actor: Actor, contactId: string) {
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
  const patient = await findOwnPatient(db, actor);
  return db.transaction(async (tx) => {
    await lockPatientGrants(tx, patient.id);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(familyContacts)
      .where(eq(familyContacts.patientId, patient.id));
    if (n >= MAX_FAMILY_CONTACTS) throw conflict(CONTACT_LIMIT_REACHED);
    if (input.isPrimary) await clearPrimary(tx, patient.id);
    const [row] = await tx
      .insert(familyContacts)
      .values({ ...values(input), patientId: patient.id, createdAt: now, updatedAt: now })
      .returning();
    await audit(tx, actor, patient, row, 'added');
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
  const { patient, row: found } = await findOwnContact(db, actor, contactId);
  return db.transaction(async (tx) => {
    await lockPatientGrants(tx, patient.id);
    // Read again under the lock: the contact as the last change left it.
    const [before] = await tx.select().from(familyContacts).where(eq(familyContacts.id, found.id));
    // Removed by a parallel request after it was found.
    if (!before) throw notFound('Family contact not found.');
    if (input.isPrimary) await clearPrimary(tx, patient.id, before.id);
    const [row] = await tx
      .update(familyContacts)
      .set({ ...values(input), updatedAt: now })
      .where(and(eq(familyContacts.id, before.id), eq(familyContacts.patientId, patient.id)))
      .returning();
    await audit(tx, actor, patient, row, 'updated');
    // docs/decisions.md#family-proxy-access: the grant was the invited person's, not the row's.
    const ended = contactChangeEndsGrant(before, row) ? await endContactGrants(tx, row.id) : 0;
    if (ended > 0)
      await recordAudit(tx, actor, {
        event: { kind: 'family_access', data: { change: 'contact_changed', contact: label(before) } },
        subject: contactSubject(patient, row.id),
      });
    return toContact(row);
  });
}

export async function deleteContact(db: Db, actor: Actor, contactId: string): Promise<void> {
  const { patient, row } = await findOwnContact(db, actor, contactId);
  await db.transaction(async (tx) => {
    // An invitation being accepted meanwhile is decided before or after the removal.
    await lockPatientGrants(tx, patient.id);
    // Of two deletes at once, only the one that removed the row is audited; the other is a 404.
    const deleted = await tx
      .delete(familyContacts)
      .where(and(eq(familyContacts.id, row.id), eq(familyContacts.patientId, patient.id)))
      .returning({ id: familyContacts.id });
    if (deleted.length === 0) throw notFound('Family contact not found.');
    await audit(tx, actor, patient, row, 'removed');
  });
}
