// Writing medical records: an upload (or a draft) is saved with its attachments, its ledger entry
// and its audit entry in ONE transaction, after its files were written and renamed; if the
// transaction fails the files are removed again, so there is never half a record or an orphan file.
// Every row is written once from what is in memory; nothing is read back inside the transaction.
import crypto from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { type MedicalRecord, type RecordFields, recordFieldsSchema } from '../../../shared/records.js';
import {
  type Actor,
  findPatientForUser,
  findRecordForUser,
  type PatientRow,
  type RecordRow,
  orgOf,
} from '../../access.js';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/outage.js';
import { attachments, medicalRecords } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { releaseInTransaction } from '../../files/pending.js';
import type { FileStore } from '../../files/store.js';
import type { FormPart } from '../../http/multipart.js';
import { recordAudit } from '../audit/service.js';
import { recordLedgerContent } from '../ledger/content.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { downloadUrl, loadRecord } from './load.js';
import { notifyRecordAvailable } from '../notifications/events.js';
import { findPractitioner } from '../staff/service.js';
import { STAFF_MESSAGES } from '../../../shared/staff.js';
import { readUploadForm, type UploadedFile } from './upload.js';

type AttachmentRow = typeof attachments.$inferSelect;

export interface UploadTarget {
  patient: PatientRow;
  draft: RecordRow | null;
  /** The draft's attachments, read once before any file is written. */
  existing: AttachmentRow[];
  /** An amendment: the current version it corrects (records/amend.ts). */
  supersedes?: RecordRow;
  /** The practitioner the record is by (`practitionerId`), checked before any file is written. */
  practitioner?: { id: string; name: string } | null;
}

/** The practitioner a form names, a member of the actor's hospital; 400 for anyone else. */
export async function practitionerOfFields(db: Db, actor: Actor, fields: RecordFields) {
  if (!fields.practitionerId) return null;
  const practitioner = await findPractitioner(db, actor, fields.practitionerId);
  if (!practitioner) throw badRequest(STAFF_MESSAGES.practitionerNotFound);
  return { id: practitioner.id, name: practitioner.name };
}

/** Checks the fields' targets before any file is written: the patient, and the draft if continued. */
export async function prepareUpload(db: Db, actor: Actor, fields: RecordFields): Promise<UploadTarget> {
  const patient = await findPatientForUser(db, actor, fields.patientId);
  const practitioner = await practitionerOfFields(db, actor, fields);
  if (!fields.draftId) return { patient, draft: null, existing: [], practitioner };
  const { record, files } = await findDraft(db, actor, fields.draftId);
  return { patient, draft: record, existing: files, practitioner };
}

/** A draft the actor may reach, with its files in order; 409 once it was uploaded. */
async function findDraft(db: Db, actor: Actor, recordId: string) {
  const { record } = await findRecordForUser(db, actor, recordId);
  if (record.status !== 'draft') throw conflict('This record was already uploaded.');
  const files = await db
    .select()
    .from(attachments)
    .where(eq(attachments.recordId, record.id))
    .orderBy(asc(attachments.position));
  return { record, files };
}

/**
 * The one upload service: reads the form's parts (fields checked and access proven before the
 * first file is written), streams the files into the store, then saves in one transaction.
 */
export async function uploadRecord(
  db: Db,
  store: FileStore,
  actor: Actor,
  parts: AsyncIterable<FormPart>,
  now: Date,
): Promise<MedicalRecord> {
  const form = await readUploadForm(parts, store, async (raw) => {
    const parsed = recordFieldsSchema.safeParse(raw);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid form');
    const target = await prepareUpload(db, actor, parsed.data);
    return { value: { fields: parsed.data, target }, existingFiles: target.existing.length };
  });
  return saveUpload(db, actor, form.fields.fields, form.fields.target, form.files, now);
}

/**
 * Saves an upload or a draft from what is in memory: each row is written once (the record with
 * its first attachment and, when final, its ledger hash), nothing is read back in the transaction.
 */
export async function saveUpload(
  db: Db,
  actor: Actor,
  fields: RecordFields,
  target: UploadTarget,
  files: UploadedFile[],
  now: Date,
): Promise<MedicalRecord> {
  const finalise = !fields.draft;
  const id = target.draft?.id ?? crypto.randomUUID();
  const firstPosition = target.existing.reduce((max, a) => Math.max(max, a.position + 1), 0);
  const newFiles = files.map((f, i) => ({
    id: crypto.randomUUID(),
    recordId: id,
    storageKey: f.pending.storageKey,
    fileName: f.fileName,
    mimeType: f.mimeType,
    size: f.pending.size,
    sha256: f.pending.sha256,
    format: f.pending.format,
    iv: f.pending.iv,
    authTag: f.pending.authTag,
    keyId: f.pending.keyId,
    position: firstPosition + i,
  }));
  const all = [...target.existing, ...newFiles];
  const first = all[0];
  const createdAt = target.draft && !finalise ? target.draft.createdAt : now;
  const continued = target.supersedes ?? target.draft;
  const values = {
    patientId: target.patient.id,
    hospitalId: orgOf(actor),
    title: fields.title,
    description: fields.description ?? null,
    recordType: fields.recordType,
    doctorName: target.practitioner?.name ?? fields.doctorName ?? null,
    practitionerId: target.practitioner?.id ?? null,
    department: fields.department ?? null,
    serviceDate: fields.serviceDate !== undefined ? fields.serviceDate : (continued?.serviceDate ?? null),
    consentProvided: fields.consentProvided,
    // An amendment keeps its predecessor's switches unless it sets them (so do the links and the
    // family access that follow it); a draft keeps its own.
    shareWithSpecialists: fields.shareWithSpecialists ?? continued?.shareWithSpecialists ?? false,
    shareWithFamily: fields.shareWithFamily ?? continued?.shareWithFamily ?? false,
    status: finalise ? ('final' as const) : ('draft' as const),
    fileName: first?.fileName ?? null,
    fileUrl: first ? downloadUrl(first.storageKey) : null,
    createdAt,
    updatedAt: now,
    supersedesId: target.supersedes?.id ?? null,
    supersedesHash: target.supersedes?.blockchainHash ?? null,
  };
  try {
    for (const f of files) await f.pending.commit();
    await db.transaction(async (tx) => {
      if (target.draft) {
        // Guarded by status and updatedAt: a concurrent upload or save of the same draft
        // changed it (or its attachments) since it was read, so this one fails cleanly.
        const updated = await tx
          .update(medicalRecords)
          .set(values)
          .where(
            and(
              eq(medicalRecords.id, id),
              eq(medicalRecords.status, 'draft'),
              eq(medicalRecords.updatedAt, target.draft.updatedAt),
            ),
          )
          .returning({ id: medicalRecords.id });
        if (updated.length === 0) throw conflict('This draft was changed or uploaded meanwhile. Reload it.');
      } else {
        await tx.insert(medicalRecords).values({ id, ...values });
      }
      if (newFiles.length > 0) await tx.insert(attachments).values(newFiles);
      if (target.supersedes) await markSuperseded(tx, target.supersedes, id, now);
      await releaseInTransaction(
        tx,
        newFiles.map((f) => f.storageKey),
      );
      if (finalise) await notifyRecordAvailable(tx, { id, patientId: values.patientId }, now);
      // Last, because the ledger lock is held from the append to the commit: only the hash's
      // stamp and the audit row are written under it. A draft is audited only.
      await appendLedgered(
        tx,
        actor,
        {
          entry: finalise
            ? {
                kind: 'record_upload',
                recordId: id,
                patientId: values.patientId,
                content: recordLedgerContent({ id, ...values }, all),
              }
            : null,
          stampWith: (hash) =>
            tx
              .update(medicalRecords)
              .set({ blockchainHash: hash, isBlockchainVerified: true })
              .where(eq(medicalRecords.id, id))
              .returning({ id: medicalRecords.id }),
          audit: {
            event: target.supersedes
              ? {
                  kind: 'record_amend',
                  data: { title: target.supersedes.title, newTitle: fields.title, files: all.length },
                }
              : finalise
                ? { kind: 'record_upload', data: { title: fields.title, files: all.length } }
                : { kind: 'record_draft', data: { title: fields.title, discarded: false } },
            subject: { type: 'medical_record', id, patientId: values.patientId, hospitalId: orgOf(actor) },
          },
        },
        now,
      );
    });
    return loadRecord(db, id);
  } catch (err) {
    await Promise.all(files.map((f) => f.pending.discard().catch(() => {})));
    // Two amendments of one version at once: the second fails on the one-successor index.
    if (isUniqueViolation(err, 'medical_records_supersedes_idx')) throw conflict(RECORD_NOT_CURRENT);
    throw err;
  }
}

/**
 * The old version now points to its correction. Guarded: a version already amended or retracted
 * meanwhile fails the whole amendment with 409 (the unique index on supersedes_id holds too).
 */
async function markSuperseded(tx: Db, old: RecordRow, newId: string, now: Date) {
  const updated = await tx
    .update(medicalRecords)
    .set({ supersededById: newId, updatedAt: now })
    .where(
      and(
        eq(medicalRecords.id, old.id),
        isNull(medicalRecords.supersededById),
        isNull(medicalRecords.enteredInErrorAt),
      ),
    )
    .returning({ id: medicalRecords.id });
  if (updated.length === 0) throw conflict(RECORD_NOT_CURRENT);
}

export const RECORD_NOT_CURRENT =
  'This record was amended or marked as entered in error meanwhile. Reload it and work on its current version.';

/** Uploads a saved draft as it is: it becomes final and enters the ledger now. */
export async function finaliseDraft(
  db: Db,
  actor: Actor,
  recordId: string,
  now: Date,
): Promise<MedicalRecord> {
  const { record, files } = await findDraft(db, actor, recordId);
  const final = { ...record, createdAt: now };
  await db.transaction(async (tx) => {
    await notifyRecordAvailable(tx, record, now);
    await appendLedgered(
      tx,
      actor,
      {
        entry: {
          kind: 'record_upload',
          recordId: record.id,
          patientId: record.patientId,
          content: recordLedgerContent(final, files),
        },
        stamp: async (hash) => {
          // Guarded by updatedAt: a draft saved again since it was read fails cleanly instead.
          const updated = await tx
            .update(medicalRecords)
            .set({
              status: 'final',
              createdAt: now,
              updatedAt: now,
              blockchainHash: hash,
              isBlockchainVerified: true,
            })
            .where(
              and(
                eq(medicalRecords.id, record.id),
                eq(medicalRecords.status, 'draft'),
                eq(medicalRecords.updatedAt, record.updatedAt),
              ),
            )
            .returning({ id: medicalRecords.id });
          if (updated.length === 0) throw conflict('This record was already uploaded.');
        },
        audit: {
          event: { kind: 'record_upload', data: { title: record.title, files: files.length } },
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

/** Throws a draft away with its files. Uploaded (final) records are never deleted. */
export async function discardDraft(db: Db, store: FileStore, actor: Actor, recordId: string): Promise<void> {
  const { record } = await findRecordForUser(db, actor, recordId);
  if (record.status !== 'draft') {
    throw conflict("Uploaded records cannot be deleted; they are part of the patient's history.");
  }
  const removed = await db.transaction(async (tx) => {
    const files = await tx.delete(attachments).where(eq(attachments.recordId, record.id)).returning();
    const gone = await tx
      .delete(medicalRecords)
      .where(and(eq(medicalRecords.id, record.id), eq(medicalRecords.status, 'draft')))
      .returning({ id: medicalRecords.id });
    if (gone.length === 0) throw notFound('Record not found.');
    await recordAudit(tx, actor, {
      event: { kind: 'record_draft', data: { title: record.title, discarded: true } },
      subject: {
        type: 'medical_record',
        id: record.id,
        patientId: record.patientId,
        hospitalId: orgOf(actor),
      },
    });
    return files;
  });
  // After the commit; a file left behind by a crash here is removed by the start-up sweep.
  for (const f of removed) await store.remove(f.storageKey).catch(() => {});
}
