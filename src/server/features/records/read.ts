// Reading records: lists, one record, sharing switches and the attachment lookup for downloads.
// Every read is audited (record_access for lists, record_view for one record, record_download
// for a file), with the reader's IP, in the trails of the record's hospital and patient.
import { and, eq } from 'drizzle-orm';
import type { Paged } from '../../../shared/paging.js';
import type { MedicalRecord, RecordListQuery } from '../../../shared/records.js';
import {
  type Actor,
  findOwnPatient,
  findRecordForUser,
  hospitalPatientsFilter,
  isUuid,
  mayReachPatient,
  namesOwnAccount,
  findNamedPatient,
  type PatientRow,
  reachesRecord,
  recordReaderHospital,
  orgOf,
  readsRecordContents,
} from '../../access.js';
import type { Db } from '../../db/connect.js';
import { attachments, medicalRecords, patients } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { isStorageKey, type FileStore } from '../../files/store.js';
import { recordAudit } from '../audit/service.js';
import { appendLedgered } from '../ledger/ledgered.js';
import { verifyRecord } from '../ledger/verify.js';
import { loadRecord, loadRecords, loadScopedRecordPage, scopeWhere } from './load.js';

/**
 * What a reader may list: drafts only for the hospital that wrote them; by default only current
 * versions (not superseded, not entered in error), with `view=all` every version.
 */
export const listScope = (actor: Actor, patientRowId: string, view: RecordListView) => ({
  patientId: patientRowId,
  hospitalId: recordReaderHospital(actor),
  view,
});
export const visibleTo = (actor: Actor, patientRowId: string, view: RecordListView) =>
  scopeWhere(listScope(actor, patientRowId, view));
type RecordListView = RecordListQuery['view'];

/** Audits a page of a patient's records as listed (record_access), and gives the page back. */
export async function auditList(
  db: Db,
  actor: Actor,
  patient: Pick<PatientRow, 'id' | 'patientId' | 'createdByHospitalId'>,
  page: Paged<MedicalRecord>,
): Promise<Paged<MedicalRecord>> {
  const count = page.items.length;
  // A page short of the whole list says which page of how many.
  const of = page.total === count ? {} : { page: page.page, total: page.total };
  await recordAudit(db, actor, {
    event: { kind: 'record_access', data: { read: 'list', mrn: patient.patientId, count, ...of } },
    subject: { type: 'patient', id: patient.id, hospitalId: patient.createdByHospitalId },
  });
  return readsRecordContents(actor) ? page : { ...page, items: page.items.map(withoutContents) };
}

/**
 * What a front-desk member sees of a record in a list: that it exists (title, date, type, who and
 * its status), not what it says or holds (docs/decisions.md#staff-accounts).
 */
const withoutContents = (record: MedicalRecord): MedicalRecord => ({
  ...record,
  description: null,
  fileName: null,
  fileUrl: null,
  attachments: [],
  enteredInError: record.enteredInError && { ...record.enteredInError, reason: '' },
});

/**
 * GET /api/medical-records/{patientId or userId}: a hospital names one of its patients (patients.id);
 * a patient names their own patient row or their own user id. The page is read first, in one
 * statement that joins the patient row, and nothing leaves before access is checked on that row
 * (access.ts, mayReachPatient); an empty page, another party's patient or a patient's user id
 * take the usual way, the patient looked up first (404 unless reachable).
 */
export async function listPatientRecords(
  db: Db,
  actor: Actor,
  id: string,
  query: RecordListQuery,
): Promise<Paged<MedicalRecord>> {
  if (!isUuid(id)) throw notFound('Patient not found.');
  // A patient naming their own user id (not a patients.id) skips the first try, which would find
  // no patient by that id.
  if (!namesOwnAccount(actor, id)) {
    const first = await loadScopedRecordPage(db, listScope(actor, id, query.view), query);
    if (first.patient && mayReachPatient(actor, first.patient)) {
      return auditList(db, actor, first.patient, first.page);
    }
  }
  const patient = await findNamedPatient(db, actor, id);
  const { page } = await loadScopedRecordPage(db, listScope(actor, patient.id, query.view), query);
  return auditList(db, actor, patient, page);
}

/** GET /api/medical-records for a signed-in patient: their own uploaded records, one page. */
export async function listOwnRecords(
  db: Db,
  actor: Actor,
  query: RecordListQuery,
): Promise<Paged<MedicalRecord>> {
  const patient = await findOwnPatient(db, actor).catch(() => null);
  if (!patient) return { items: [], total: 0, page: query.page, pageSize: query.pageSize };
  const { page } = await loadScopedRecordPage(db, listScope(actor, patient.id, query.view), query);
  return auditList(db, actor, patient, page);
}

/** The hospital's saved drafts (of patients still on its list). */
export async function listDrafts(db: Db, actor: Actor): Promise<MedicalRecord[]> {
  const drafts = await loadRecords(
    db,
    and(
      eq(medicalRecords.status, 'draft'),
      eq(medicalRecords.hospitalId, orgOf(actor)),
      hospitalPatientsFilter(orgOf(actor)),
    ),
  );
  await recordAudit(db, actor, {
    event: { kind: 'record_access', data: { read: 'drafts', count: drafts.length } },
    subject: { type: 'hospital', id: orgOf(actor) },
  });
  return drafts;
}

/** One record (the record detail dialog); a patient's first view marks it as viewed. */
/**
 * One record, audited as record_view. Its isBlockchainVerified is the full check of
 * GET /api/medical-records/{id}/verification (ledger/verify.ts): the fields and every attachment's
 * bytes read back and hashed against the ledger entry, the chain and the inclusion proof, so a file
 * changed on disk (say one a download was refused for) shows as not verified. Lists do not read the
 * files (it would cost a full decrypt of every attachment per list): their flag compares the rows
 * with the ledger entry only (load.ts, matchesLedger).
 */
export async function viewRecord(
  db: Db,
  files: FileStore,
  actor: Actor,
  recordId: string,
  now: Date,
): Promise<MedicalRecord> {
  const { record, patient } = await findRecordForUser(db, actor, recordId);
  await db.transaction(async (tx) => {
    if (actor.role === 'patient' && !record.viewedByPatient) {
      await tx
        .update(medicalRecords)
        .set({ viewedByPatient: true, updatedAt: now })
        .where(eq(medicalRecords.id, record.id));
    }
    await recordAudit(tx, actor, {
      event: { kind: 'record_view', data: { title: record.title } },
      subject: {
        type: 'medical_record',
        id: record.id,
        patientId: patient.id,
        hospitalId: record.hospitalId,
      },
    });
  });
  const [loaded, check] = await Promise.all([
    loadRecord(db, record.id),
    verifyRecord(db, files, record, now),
  ]);
  return { ...loaded, isBlockchainVerified: loaded.isBlockchainVerified && check.verified };
}

/**
 * The record's sharing switches (Specialists, Family). A consent change: ledgered and audited.
 * The hospital records what the patient agreed to; the patient may change it on their own record.
 */
export async function updateSharing(
  db: Db,
  actor: Actor,
  recordId: string,
  sharing: { shareWithSpecialists: boolean; shareWithFamily: boolean },
  now: Date,
): Promise<MedicalRecord> {
  const { record, patient } = await findRecordForUser(db, actor, recordId);
  await db.transaction(async (tx) => {
    await tx
      .update(medicalRecords)
      .set({ ...sharing, updatedAt: now })
      .where(eq(medicalRecords.id, record.id));
    // A draft's sharing is audited only; it enters the ledger with its upload.
    await appendLedgered(
      tx,
      actor,
      {
        entry:
          record.status === 'final'
            ? {
                kind: 'consent_change',
                recordId: record.id,
                patientId: patient.id,
                content: { scope: 'record', recordId: record.id, ...sharing },
              }
            : null,
        audit: {
          event: {
            kind: 'consent_change',
            data: {
              change: 'record_sharing',
              title: record.title,
              specialists: sharing.shareWithSpecialists,
              family: sharing.shareWithFamily,
            },
          },
          subject: {
            type: 'medical_record',
            id: record.id,
            patientId: patient.id,
            hospitalId: record.hospitalId,
          },
        },
      },
      now,
    );
  });
  return loadRecord(db, record.id);
}

/**
 * The attachment behind GET /api/download/{fileName}: the name is an opaque storage key (never a
 * path); only readers of its record get it, and the download is audited.
 */
/** An attachment someone may download, with what its audit entries name. */
export interface DownloadTarget {
  file: typeof attachments.$inferSelect;
  recordTitle: string;
  hospitalId: string;
  patientId: string;
}

export async function findDownload(db: Db, actor: Actor, fileName: string): Promise<DownloadTarget> {
  if (!isStorageKey(fileName)) throw notFound('File not available.');
  const [row] = await db
    .select({ file: attachments, record: medicalRecords, patient: patients })
    .from(attachments)
    .innerJoin(medicalRecords, eq(medicalRecords.id, attachments.recordId))
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))
    .where(eq(attachments.storageKey, fileName));
  if (!row || !(await reachesRecord(db, actor, row.record, row.patient)))
    throw notFound('File not available.');
  await recordAudit(db, actor, {
    event: { kind: 'record_download', data: { title: row.record.title, fileName: row.file.fileName } },
    subject: {
      type: 'attachment',
      id: row.file.id,
      patientId: row.patient.id,
      hospitalId: row.record.hospitalId,
    },
  });
  return {
    file: row.file,
    recordTitle: row.record.title,
    hospitalId: row.record.hospitalId,
    patientId: row.patient.id,
  };
}
