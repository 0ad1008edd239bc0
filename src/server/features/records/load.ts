// Loading records with their attachments, provider name and ledger check, shaped for the API.
import { and, asc, count, desc, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { patientDisplayName } from '../../../shared/patients.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { DocumentStatus, MedicalRecord, RecordListQuery } from '../../../shared/records.js';
import type { Db } from '../../db/connect.js';
import { fetchPage, windowTotal } from '../../db/paging.js';
import { preparedPerDb } from '../../db/prepared.js';
import { attachments, ledgerContents, ledgerEntries, medicalRecords, patients, users } from '../../db/schema.js';
import { recanonicalWith } from '../ledger/commitments.js';
import { recordLedgerContent } from '../ledger/content.js';
import { sha256Hex } from '../ledger/hashing.js';

type RecordRow = typeof medicalRecords.$inferSelect;
type AttachmentRow = typeof attachments.$inferSelect;
type EntryRow = typeof ledgerEntries.$inferSelect & {
  /** The opening of a format-2 entry (null when none is stored: erased, or format 1). */
  opening: { salt: string; content: string } | null;
};

const retractor = alias(users, 'retractor');

export const downloadUrl = (storageKey: string) => `/api/download/${storageKey}`;

/**
 * Whether the record's ledger entry exists, is intact (its hash is the hash of its text) and
 * covers exactly what the record and its attachment rows hold now. A file replaced on disk is
 * caught by the full verification (GET /api/medical-records/{id}/verification), which reads it.
 */
export function matchesLedger(
  record: RecordRow,
  files: AttachmentRow[],
  entry: EntryRow | undefined,
): boolean {
  if (record.status !== 'final' || !record.isBlockchainVerified || !record.blockchainHash || !entry)
    return false;
  if (entry.recordId !== record.id || entry.hash !== record.blockchainHash) return false;
  const content = recordLedgerContent(record, files);
  const inputs = sha256Hex(JSON.stringify([entry, content]));
  const known = checkedInputs.get(inputs);
  if (known !== undefined) return known;
  if (checkedInputs.size >= CHECKED_INPUTS_KEPT) checkedInputs.clear();
  const result = recomputesEntry(entry, content);
  checkedInputs.set(inputs, result);
  return result;
}

function recomputesEntry(entry: EntryRow, content: Record<string, unknown>): boolean {
  if (sha256Hex(entry.canonical) !== entry.hash) return false;
  // The entry recomputed from the row (v1: content inline; v2: commitments under its salt).
  const recomputed = recanonicalWith(entry, content, entry.opening);
  return recomputed !== null && sha256Hex(recomputed) === entry.hash;
}

/**
 * Past the cheap comparisons above, the check is a pure function of the entry row with its opening
 * and of the content the record and attachment rows make, so its answer is kept under one SHA-256
 * of both: reading a list again costs one hash per record instead of one per ledgered field (a
 * third of a 50-record page's time), and any change to any input is a new key, checked afresh.
 * Bounded: emptied when full.
 */
const checkedInputs = new Map<string, boolean>();
const CHECKED_INPUTS_KEPT = 50_000;

/** Only the patient columns a record shows (a page repeats them on every row). */
const patientColumns = {
  id: patients.id,
  patientId: patients.patientId,
  firstName: patients.firstName,
  lastName: patients.lastName,
  email: patients.email,
};
const recordColumns = {
  record: medicalRecords,
  patient: patientColumns,
  providerName: users.hospitalName,
  providerVerifiedAt: users.verifiedAt,
  retractedBy: { firstName: retractor.firstName, lastName: retractor.lastName, email: retractor.email },
};
/** Newest first; the id breaks ties so that pages never overlap or skip a record. */
const newestFirst = [desc(medicalRecords.createdAt), desc(medicalRecords.id)] as const;

/** Every record matching `where`, newest first (a record's versions, the drafts, one record). */
export async function loadRecords(db: Db, where: SQL | undefined): Promise<MedicalRecord[]> {
  const rows = await db
    .select(recordColumns)
    .from(medicalRecords)
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))
    .innerJoin(users, eq(users.id, medicalRecords.hospitalId))
    .leftJoin(retractor, eq(retractor.id, medicalRecords.enteredInErrorBy))
    .where(where)
    .orderBy(...newestFirst);
  return shapeRecords(db, rows);
}

/**
 * The statement behind a page of records (exported for the benchmark's EXPLAIN): the page's ids and
 * `count(*) over ()` come from medical_records alone (an index scan on medical_records_patient_idx
 * or medical_records_patient_status_idx for a patient's list), and only those ids are joined.
 */
export function recordPageQuery(
  db: Db,
  where: SQL | undefined,
  bounds: { limit: number | Placeholder; offset: number | Placeholder },
) {
  const page = db
    .select({ id: medicalRecords.id, total: windowTotal().as('total') })
    .from(medicalRecords)
    .where(where)
    .orderBy(...newestFirst)
    .limit(bounds.limit)
    .offset(bounds.offset)
    .as('page');
  return db
    .select({ ...recordColumns, total: page.total })
    .from(page)
    .innerJoin(medicalRecords, eq(medicalRecords.id, page.id))
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))
    .innerJoin(users, eq(users.id, medicalRecords.hospitalId))
    .leftJoin(retractor, eq(retractor.id, medicalRecords.enteredInErrorBy))
    .orderBy(...newestFirst);
}

/**
 * Which records of one patient a list shows: with `hospitalId`, that hospital's records, drafts
 * included; without (the patient, or anyone else the access module admits), final records only.
 * `view: 'current'` leaves out superseded versions and records entered in error.
 */
export interface RecordListScope {
  patientId: string | Placeholder;
  hospitalId: string | Placeholder | null;
  view: RecordListQuery['view'];
}

export const scopeWhere = ({ patientId, hospitalId, view }: RecordListScope) =>
  and(
    eq(medicalRecords.patientId, patientId),
    hospitalId !== null ? eq(medicalRecords.hospitalId, hospitalId) : eq(medicalRecords.status, 'final'),
    view === 'current' ? isNull(medicalRecords.supersededById) : undefined,
    view === 'current' ? isNull(medicalRecords.enteredInErrorAt) : undefined,
  );

/** The page statement of each kind of scope (by hospital or not, current or all), prepared once. */
const scopedPages = new Map<string, ReturnType<typeof prepareScopedPage>>();
function prepareScopedPage(byHospital: boolean, view: RecordListScope['view']) {
  const name = `record_page_${byHospital ? 'hospital' : 'final'}_${view}`;
  const where = scopeWhere({
    patientId: sql.placeholder('patientId'),
    hospitalId: byHospital ? sql.placeholder('hospitalId') : null,
    view,
  });
  return preparedPerDb((db) =>
    recordPageQuery(db, where, { limit: sql.placeholder('limit'), offset: sql.placeholder('offset') }).prepare(name),
  );
}

/** One page of a patient's records in `scope`, newest first, with the total (prepared statements). */
export async function loadScopedRecordPage(
  db: Db,
  scope: { patientId: string; hospitalId: string | null; view: RecordListScope['view'] },
  paging: PagingQuery,
): Promise<Paged<MedicalRecord>> {
  const key = `${scope.hospitalId !== null}:${scope.view}`;
  let statement = scopedPages.get(key);
  if (!statement) {
    statement = prepareScopedPage(scope.hospitalId !== null, scope.view);
    scopedPages.set(key, statement);
  }
  const page = statement(db);
  return fetchPage(
    paging,
    (bounds) => page.execute({ patientId: scope.patientId, hospitalId: scope.hospitalId, ...bounds }),
    async () => (await db.select({ total: count() }).from(medicalRecords).where(scopeWhere(scope)))[0].total,
    (rows) => shapeRecords(db, rows),
  );
}

/** One page of the records matching `where` (only medical_records columns), newest first, with the total. */
export async function loadRecordPage(
  db: Db,
  where: SQL | undefined,
  paging: PagingQuery,
): Promise<Paged<MedicalRecord>> {
  return fetchPage(
    paging,
    (bounds) => recordPageQuery(db, where, bounds),
    async () => (await db.select({ total: count() }).from(medicalRecords).where(where))[0].total,
    (rows) => shapeRecords(db, rows),
  );
}

const filesOfRecords = preparedPerDb((db) =>
  db
    .select()
    .from(attachments)
    .where(sql`${attachments.recordId} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(attachments.position))
    .prepare('record_files'),
);

/** The records' ledger entries with their openings (the record id guards against a hash reused). */
const entriesByHash = preparedPerDb((db) =>
  db
    .select({ entry: ledgerEntries, salt: ledgerContents.salt, content: ledgerContents.content })
    .from(ledgerEntries)
    .leftJoin(ledgerContents, eq(ledgerContents.seq, ledgerEntries.seq))
    .where(
      and(
        sql`${ledgerEntries.hash} = any(${sql.placeholder('hashes')}::text[])`,
        sql`${ledgerEntries.recordId} = any(${sql.placeholder('ids')}::uuid[])`,
      ),
    )
    .prepare('record_entries'),
);

type LoadedRow = {
  record: RecordRow;
  patient: Pick<typeof patients.$inferSelect, keyof typeof patientColumns>;
  providerName: string | null;
  providerVerifiedAt: Date | null;
  retractedBy: { firstName: string | null; lastName: string | null; email: string | null } | null;
};

/** The rows with their attachments and ledger check, shaped for the API. */
async function shapeRecords(db: Db, rows: LoadedRow[]): Promise<MedicalRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.record.id);
  const hashes = rows.map((r) => r.record.blockchainHash).filter((h): h is string => !!h);
  const [files, entries] = await Promise.all([
    filesOfRecords(db).execute({ ids }),
    hashes.length ? entriesByHash(db).execute({ hashes, ids }) : [],
  ]);
  const entryByHash = new Map<string, EntryRow>(
    entries.map(({ entry, salt, content }) => [
      entry.hash,
      { ...entry, opening: salt !== null && content !== null ? { salt, content } : null },
    ]),
  );
  return rows.map(({ record, patient, providerName, providerVerifiedAt, retractedBy }) => {
    const own = files.filter((f) => f.recordId === record.id);
    const entry = record.blockchainHash ? entryByHash.get(record.blockchainHash) : undefined;
    return {
      id: record.id,
      patientId: record.patientId,
      hospitalId: record.hospitalId,
      title: record.title,
      description: record.description,
      recordType: record.recordType,
      fileName: record.fileName,
      fileUrl: record.fileUrl,
      doctorName: record.doctorName,
      department: record.department,
      status: record.status,
      consentProvided: record.consentProvided,
      shareWithSpecialists: record.shareWithSpecialists,
      shareWithFamily: record.shareWithFamily,
      isBlockchainVerified: matchesLedger(record, own, entry),
      blockchainHash: record.blockchainHash,
      viewedByPatient: record.viewedByPatient,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
      providerName,
      providerVerified: providerVerifiedAt !== null,
      patient: { id: patient.id, mrn: patient.patientId, name: patientDisplayName(patient) },
      attachments: own.map((f) => ({
        id: f.id,
        fileName: f.fileName,
        mimeType: f.mimeType,
        size: Number(f.size),
        sha256: f.sha256,
        position: f.position,
        url: downloadUrl(f.storageKey),
      })),
      documentStatus: documentStatusOf(record),
      supersedesId: record.supersedesId,
      supersededById: record.supersededById,
      enteredInError: record.enteredInErrorAt
        ? {
            at: record.enteredInErrorAt.toISOString(),
            reason: record.enteredInErrorReason ?? '',
            byName: retractedBy?.email ? personName(retractedBy) : null,
          }
        : null,
    };
  });
}

/** FHIR DocumentReference.status of a record row. */
export function documentStatusOf(
  record: Pick<RecordRow, 'enteredInErrorAt' | 'supersededById'>,
): DocumentStatus {
  if (record.enteredInErrorAt) return 'entered-in-error';
  return record.supersededById ? 'superseded' : 'current';
}

const personName = (u: { firstName: string | null; lastName: string | null; email: string | null }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email || null;

export async function loadRecord(db: Db, recordId: string): Promise<MedicalRecord> {
  const [record] = await loadRecords(db, eq(medicalRecords.id, recordId));
  return record;
}
