// A patient's consent settings (Share with Specialists, Family Access). Stored as two
// consent_settings rows with recordId null; a save upserts both, enters the ledger
// (consent_change) and is audited, in one transaction. Record-level sharing lives on the record
// (records/read.ts updateSharing) and is ledgered the same way with scope "record".
import { and, eq, isNull } from 'drizzle-orm';
import { CONSENT_TYPES, DEFAULT_CONSENT, type Consent, type ConsentInput } from '../../../shared/consent.js';
import type { Db } from '../../db/connect.js';
import { consentSettings } from '../../db/schema.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { findPatientByUserId, lockPatientGrants, type Actor } from '../../access.js';
import { revokePatientShares } from '../shares/service.js';

type ConsentKey = keyof typeof CONSENT_TYPES;
const KEYS = Object.keys(CONSENT_TYPES) as ConsentKey[];

/** GET /api/consent/{userId}: the patient themself, or the hospital that created the patient. */
export async function getConsent(db: Db, actor: Actor, userId: string): Promise<Consent> {
  const patient = await findPatientByUserId(db, actor, userId);
  const rows = await db
    .select()
    .from(consentSettings)
    .where(and(eq(consentSettings.patientId, patient.id), isNull(consentSettings.recordId)));
  const result: Consent = { ...DEFAULT_CONSENT, blockchainHash: null, updatedAt: null };
  let latest: Date | null = null;
  for (const key of KEYS) {
    const row = rows.find((r) => r.consentType === CONSENT_TYPES[key]);
    if (!row) continue;
    result[key] = row.isGranted;
    if (!latest || row.updatedAt > latest) {
      latest = row.updatedAt;
      result.blockchainHash = row.blockchainHash;
    }
  }
  result.updatedAt = latest ? latest.toISOString() : null;
  return result;
}

/** PUT /api/consent/{userId}: only the patient themself (a hospital may read, never change). */
export async function saveConsent(
  db: Db,
  actor: Actor,
  userId: string,
  input: ConsentInput,
  now: Date,
): Promise<Consent> {
  const patient = await findPatientByUserId(db, actor, userId);
  const consent = {
    shareWithSpecialists: input.shareWithSpecialists,
    shareWithFamily: input.shareWithFamily,
  };
  await db.transaction(async (tx) => {
    // A link being made meanwhile is either committed before this (and revoked below) or reads
    // the consent after this save.
    await lockPatientGrants(tx, patient.id);
    // docs/decisions.md#specialist-share-links: consent off ends every link at once.
    const revoked = consent.shareWithSpecialists ? 0 : await revokePatientShares(tx, patient.id, now);
    await appendLedgered(
      tx,
      actor,
      {
        entry: {
          kind: 'consent_change',
          patientId: patient.id,
          content: { scope: 'patient', patientId: patient.id, ...consent },
        },
        stamp: async (hash) => {
          for (const key of KEYS) {
            await tx
              .insert(consentSettings)
              .values({
                patientId: patient.id,
                recordId: null,
                consentType: CONSENT_TYPES[key],
                isGranted: consent[key],
                blockchainHash: hash,
                createdAt: now,
                updatedAt: now,
              })
              .onConflictDoUpdate({
                target: [consentSettings.patientId, consentSettings.recordId, consentSettings.consentType],
                set: { isGranted: consent[key], blockchainHash: hash, updatedAt: now },
              });
          }
        },
        audit: {
          event: {
            kind: 'consent_change',
            data: {
              change: 'consent',
              specialists: consent.shareWithSpecialists,
              family: consent.shareWithFamily,
              linksRevoked: revoked,
            },
          },
          subject: {
            type: 'consent_settings',
            id: patient.id,
            patientId: patient.id,
            hospitalId: patient.createdByHospitalId,
          },
        },
      },
      now,
    );
  });
  return getConsent(db, actor, userId);
}
