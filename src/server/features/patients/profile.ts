// A patient's profile (GET /api/patients/profile/{userId}): read by the patient themself or by
// the hospital that created them (by the patient's user id), and changed by the patient (phone,
// insurance, primary care only). A change updates the row, enters the ledger (profile_change) and
// is audited, in one transaction.
import { and, eq } from 'drizzle-orm';
import {
  PROFILE_FIELDS,
  profileUpdateSchema,
  type ProfileField,
  type ProfileUpdate,
} from '../../../shared/patient-profile.js';
import type { Patient } from '../../../shared/patients.js';
import { findOwnPatientRow, findPatientByUserId, type Actor } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { patients } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { getPatient } from './service.js';

export async function getProfile(db: Db, actor: Actor, userId: string): Promise<Patient> {
  const row = await findPatientByUserId(db, actor, userId);
  return getPatient(db, actor, row.id);
}

/** The body as the patient sent it: keys with no value are left out ("not sent"). */
function parseUpdate(body: unknown): ProfileUpdate {
  const sent =
    body && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))
      : body;
  const parsed = profileUpdateSchema.safeParse(sent);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid profile');
  return parsed.data;
}

/**
 * PUT /api/patients/{patientId} by the patient themself. Fields not sent stay as they are; an
 * empty field clears the value. Saving without a change writes nothing.
 */
export async function updateOwnProfile(
  db: Db,
  actor: Actor,
  patientRowId: string,
  body: unknown,
  now: Date,
): Promise<Patient> {
  const existing = await findOwnPatientRow(db, actor, patientRowId);
  const input = parseUpdate(body);
  const changes: Partial<Record<ProfileField, string | null>> = {};
  for (const field of PROFILE_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== existing[field]) changes[field] = value;
  }
  const changed = Object.keys(changes) as ProfileField[];
  if (changed.length > 0) {
    await db.transaction(async (tx) => {
      await tx
        .update(patients)
        .set({ ...changes, updatedAt: now })
        .where(and(eq(patients.id, existing.id), eq(patients.userId, actor.id)));
      await appendLedgered(
        tx,
        actor,
        {
          entry: {
            kind: 'profile_change',
            patientId: existing.id,
            content: { patientId: existing.id, changes },
          },
          audit: {
            event: { kind: 'profile_change', data: { fields: changed } },
            subject: { type: 'patient', id: existing.id, hospitalId: existing.createdByHospitalId },
          },
        },
        now,
      );
    });
  }
  return getPatient(db, actor, existing.id);
}
