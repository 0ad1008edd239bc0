// Writing medical records: an upload (or a draft) is saved with its attachments, its ledger entry
// and its audit entry in ONE transaction, after its files were written and renamed; if the
// transaction fails the files are removed again, so there is never half a record or an orphan file.
import { and, asc, eq } from 'drizzle-orm';
import type { MedicalRecord, RecordFields } from '../../../shared/records.js';
import { findPatientForUser, findRecordForUser, type PatientRow, type RecordRow } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { attachments, medicalRecords } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { FileStore } from '../../files/store.js';
import { writeAudit } from '../audit/service.js';
import { recordLedgerContent } from '../ledger/content.js';
import { appendLedgerEntry } from '../ledger/service.js';
import type { Actor } from '../patients/actor.js';
import { downloadUrl, loadRecord } from './load.js';
import type { UploadedFile } from './upload.js';

type Tx = Db;

/** Checks the fields' targets before any file is written: the patient, and the draft if continued. */
export async function prepareUpload(
  db: Db,
  actor: Actor,
  fields: RecordFields,
): Promise<{ patient: PatientRow; draft: RecordRow | null; existingFiles: number }> {
  const patient = await findPatientForUser(db, actor, fields.patientId);
  if (!fields.draftId) return { patient, draft: null, existingFiles: 0 };
  const { record } = await findRecordForUser(db, actor, fields.draftId);
  if (record.status !== 'draft') throw conflict('This record was already uploaded.');
  const existing = await db
    .select({ id: attachments.id })
    .from(attachments)
    .where(eq(attachments.recordId, record.id));
  return { patient, draft: record, existingFiles: existing.length };
}

/** Enters a final record in the ledger, stores the hash on it and writes the record_upload entry. */
async function ledgerRecord(tx: Tx, actor: Actor, recordId: string, now: Date) {
  const [record] = await tx.select().from(medicalRecords).where(eq(medicalRecords.id, recordId));
  const files = await tx
    .select()
    .from(attachments)
    .where(eq(attachments.recordId, recordId))
    .orderBy(asc(attachments.position));
  // The ledger lock is held from here until the commit, so only short statements follow.
  const entry = await appendLedgerEntry(
    tx,
    {
      kind: 'record_upload',
      recordId: record.id,
      patientId: record.patientId,
      userId: actor.id,
      content: recordLedgerContent(record, files),
    },
    { now },
  );
  await tx
    .update(medicalRecords)
    .set({ blockchainHash: entry.hash, isBlockchainVerified: true })
    .where(eq(medicalRecords.id, record.id));
  await writeAudit(tx, {
    userId: actor.id,
    action: 'record_upload',
    entityType: 'medical_record',
    entityId: record.id,
    details: `Uploaded "${record.title}" with ${files.length} file${files.length === 1 ? '' : 's'}`,
    ipAddress: actor.ip,
    blockchainHash: entry.hash,
    hospitalId: record.hospitalId,
    patientId: record.patientId,
  });
  return entry;
}

export async function saveUpload(
  db: Db,
  actor: Actor,
  fields: RecordFields,
  target: { patient: PatientRow; draft: RecordRow | null },
  files: UploadedFile[],
  now: Date,
): Promise<MedicalRecord> {
  const finalise = !fields.draft;
  const values = {
    patientId: target.patient.id,
    title: fields.title,
    description: fields.description ?? null,
    recordType: fields.recordType,
    doctorName: fields.doctorName ?? null,
    department: fields.department ?? null,
    consentProvided: fields.consentProvided,
    shareWithSpecialists: fields.shareWithSpecialists,
    shareWithFamily: fields.shareWithFamily,
    status: finalise ? ('final' as const) : ('draft' as const),
    updatedAt: now,
  };
  try {
    for (const f of files) await f.pending.commit();
    const recordId = await db.transaction(async (tx) => {
      let id: string;
      let position = 0;
      if (target.draft) {
        // The status guard makes a second, concurrent upload of the same draft fail cleanly.
        const updated = await tx
          .update(medicalRecords)
          .set({ ...values, ...(finalise ? { createdAt: now } : {}) })
          .where(and(eq(medicalRecords.id, target.draft.id), eq(medicalRecords.status, 'draft')))
          .returning({ id: medicalRecords.id });
        if (updated.length === 0) throw conflict('This record was already uploaded.');
        id = target.draft.id;
        const existing = await tx.select().from(attachments).where(eq(attachments.recordId, id));
        position = existing.reduce((max, a) => Math.max(max, a.position + 1), 0);
      } else {
        const [row] = await tx
          .insert(medicalRecords)
          .values({ ...values, hospitalId: actor.id, createdAt: now })
          .returning({ id: medicalRecords.id });
        id = row.id;
      }
      for (const f of files) {
        await tx.insert(attachments).values({
          recordId: id,
          storageKey: f.pending.storageKey,
          fileName: f.fileName,
          mimeType: f.mimeType,
          size: f.pending.size,
          sha256: f.pending.sha256,
          iv: f.pending.iv,
          authTag: f.pending.authTag,
          position: position++,
        });
      }
      await setFirstAttachment(tx, id);
      if (finalise) {
        await ledgerRecord(tx, actor, id, now);
      } else {
        await writeAudit(tx, {
          userId: actor.id,
          action: 'record_draft',
          entityType: 'medical_record',
          entityId: id,
          details: `Saved draft "${fields.title}"`,
          ipAddress: actor.ip,
          hospitalId: actor.id,
          patientId: target.patient.id,
        });
      }
      return id;
    });
    return loadRecord(db, recordId);
  } catch (err) {
    await Promise.all(files.map((f) => f.pending.discard().catch(() => {})));
    throw err;
  }
}

/** fileName / fileUrl of the spec: the record's first attachment. */
async function setFirstAttachment(tx: Tx, recordId: string) {
  const [first] = await tx
    .select()
    .from(attachments)
    .where(eq(attachments.recordId, recordId))
    .orderBy(asc(attachments.position))
    .limit(1);
  await tx
    .update(medicalRecords)
    .set({ fileName: first?.fileName ?? null, fileUrl: first ? downloadUrl(first.storageKey) : null })
    .where(eq(medicalRecords.id, recordId));
}

/** Uploads a saved draft as it is: it becomes final and enters the ledger now. */
export async function finaliseDraft(
  db: Db,
  actor: Actor,
  recordId: string,
  now: Date,
): Promise<MedicalRecord> {
  const { record } = await findRecordForUser(db, actor, recordId);
  if (record.status !== 'draft') throw conflict('This record was already uploaded.');
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(medicalRecords)
      .set({ status: 'final', createdAt: now, updatedAt: now })
      .where(and(eq(medicalRecords.id, record.id), eq(medicalRecords.status, 'draft')))
      .returning({ id: medicalRecords.id });
    if (updated.length === 0) throw conflict('This record was already uploaded.');
    await ledgerRecord(tx, actor, record.id, now);
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
    await writeAudit(tx, {
      userId: actor.id,
      action: 'record_draft',
      entityType: 'medical_record',
      entityId: record.id,
      details: `Discarded draft "${record.title}"`,
      ipAddress: actor.ip,
      hospitalId: actor.id,
      patientId: record.patientId,
    });
    return files;
  });
  // After the commit; a file left behind by a crash here is removed by the start-up sweep.
  for (const f of removed) await store.remove(f.storageKey).catch(() => {});
}
