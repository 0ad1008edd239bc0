// Corrections without erasure (docs/decisions.md#records), after FHIR's DocumentReference.status:
// an amendment is a new record that supersedes the current version (its ledger entry names the
// old record and that record's entry hash); "entered in error" retracts a version, which is kept,
// ledgered and hidden from default lists. Nothing uploaded is ever changed or deleted.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { recordFieldsSchema, type MedicalRecord, type RecordVersion } from '../../../shared/records.js';
import { type Actor, findRecordForUser, type RecordRow } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { attachments, medicalRecords } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors.js';
import type { FileStore } from '../../files/store.js';
import type { FormPart } from '../../http/multipart.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { loadRecord, loadRecords } from './load.js';
import { RECORD_NOT_CURRENT, practitionerOfFields, saveUpload } from './service.js';
import { readUploadForm, type UploadedFile } from './upload.js';

/** The version a hospital may correct or retract: its own, uploaded, and still current. */
async function currentVersion(db: Db, actor: Actor, recordId: string) {
  const found = await findRecordForUser(db, actor, recordId);
  if (found.record.status !== 'final')
    throw conflict('A draft is corrected by editing it; only uploaded records are amended.');
  if (found.record.supersededById || found.record.enteredInErrorAt) throw conflict(RECORD_NOT_CURRENT);
  return found;
}

/**
 * POST /api/medical-records/{id}/amend: the upload form's fields and files make the new version.
 * Sent without files, the new version keeps the old one's files (copied in the store, so each
 * attachment row still owns its own file; the bytes and their SHA-256 are the same).
 */
export async function amendRecord(
  db: Db,
  store: FileStore,
  actor: Actor,
  parts: AsyncIterable<FormPart>,
  recordId: string,
  now: Date,
): Promise<MedicalRecord> {
  const form = await readUploadForm(parts, store, async (raw) => {
    const parsed = recordFieldsSchema.safeParse(raw);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid form');
    const { record: old, patient } = await currentVersion(db, actor, recordId);
    if (parsed.data.draft || parsed.data.draftId)
      throw badRequest('An amendment cannot be saved as a draft.');
    if (parsed.data.patientId !== old.patientId) {
      throw badRequest(
        'An amendment stays with the same patient. For a record uploaded to the wrong patient, mark it as entered in error and upload it to the right one.',
      );
    }
    const practitioner = await practitionerOfFields(db, actor, parsed.data);
    return { value: { fields: parsed.data, old, patient, practitioner }, existingFiles: 0 };
  });
  const { fields, old, patient, practitioner } = form.fields;
  const files = form.files.length > 0 ? form.files : await copyFiles(db, store, old.id);
  const target = { patient, draft: null, existing: [], supersedes: old, practitioner };
  return saveUpload(db, actor, fields, target, files, now);
}

async function copyFiles(db: Db, store: FileStore, recordId: string): Promise<UploadedFile[]> {
  const rows = await db
    .select()
    .from(attachments)
    .where(eq(attachments.recordId, recordId))
    .orderBy(asc(attachments.position));
  const copies: UploadedFile[] = [];
  try {
    for (const row of rows) {
      const source = await store.open(row);
      if (!source)
        throw conflict(
          `"${row.fileName}" is missing from storage, so it cannot be carried over. Attach it again.`,
        );
      const pending = await store.write(source, Number.MAX_SAFE_INTEGER);
      if (pending.sha256 !== row.sha256) {
        await pending.discard();
        throw conflict(
          `"${row.fileName}" no longer matches what was uploaded, so it cannot be carried over.`,
        );
      }
      copies.push({ pending, fileName: row.fileName, mimeType: row.mimeType });
    }
  } catch (err) {
    await Promise.all(copies.map((c) => c.pending.discard().catch(() => {})));
    throw err;
  }
  return copies;
}

/** POST /api/medical-records/{id}/entered-in-error {reason}: retracted, kept and ledgered. */
export async function markEnteredInError(
  db: Db,
  actor: Actor,
  recordId: string,
  reason: string,
  now: Date,
): Promise<MedicalRecord> {
  const { record } = await currentVersion(db, actor, recordId);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(medicalRecords)
      .set({
        enteredInErrorAt: now,
        enteredInErrorBy: actor.id,
        enteredInErrorReason: reason,
        updatedAt: now,
      })
      .where(
        and(
          eq(medicalRecords.id, record.id),
          isNull(medicalRecords.supersededById),
          isNull(medicalRecords.enteredInErrorAt),
        ),
      )
      .returning({ id: medicalRecords.id });
    if (updated.length === 0) throw conflict(RECORD_NOT_CURRENT);
    await appendLedgered(
      tx,
      actor,
      {
        entry: {
          kind: 'record_entered_in_error',
          recordId: record.id,
          patientId: record.patientId,
          content: { recordId: record.id, entryHash: record.blockchainHash, reason },
        },
        audit: {
          event: { kind: 'record_entered_in_error', data: { title: record.title, reason } },
          subject: {
            type: 'medical_record',
            id: record.id,
            patientId: record.patientId,
            hospitalId: record.hospitalId,
          },
        },
      },
      now,
    );
  });
  return loadRecord(db, record.id);
}

/** GET /api/medical-records/{id}/history: every version of the record, oldest first. */
export async function recordHistory(db: Db, actor: Actor, recordId: string): Promise<RecordVersion[]> {
  const { record } = await findRecordForUser(db, actor, recordId);
  return recordVersions(db, await versionIds(db, record));
}

/**
 * The ids of every version of the record, oldest first (the last is the current one, or a
 * retracted one). Walks back to the first version, then forward; each step is one indexed lookup
 * and a correction chain is short.
 */
export async function versionIds(db: Db, record: RecordRow): Promise<string[]> {
  let first = record;
  for (let i = 0; first.supersedesId && i < MAX_VERSIONS; i++) {
    const [previous] = await db
      .select()
      .from(medicalRecords)
      .where(eq(medicalRecords.id, first.supersedesId));
    if (!previous) break;
    first = previous;
  }
  const ids = [first.id];
  let next = first.supersededById;
  while (next && ids.length < MAX_VERSIONS) {
    ids.push(next);
    const [row] = await db
      .select({ supersededById: medicalRecords.supersededById })
      .from(medicalRecords)
      .where(eq(medicalRecords.id, next));
    next = row?.supersededById ?? null;
  }
  return ids;
}

/** The versions named by `ids`, in that order, as a record's history shows them. */
export async function recordVersions(db: Db, ids: string[]): Promise<RecordVersion[]> {
  const loaded = await loadRecords(db, inArray(medicalRecords.id, ids));
  const byId = new Map(loaded.map((v) => [v.id, v]));
  const versions = ids.flatMap((id) => byId.get(id) ?? []);
  return versions.map((v) => ({
    id: v.id,
    title: v.title,
    createdAt: v.createdAt,
    providerName: v.providerName,
    documentStatus: v.documentStatus,
    blockchainHash: v.blockchainHash,
    enteredInError: v.enteredInError,
  }));
}

const MAX_VERSIONS = 100;
