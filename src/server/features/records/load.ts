// Loading records with their attachments, provider name and ledger check, shaped for the API.
import { and, count, desc, eq, getTableColumns, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import { patientDisplayName } from '../../../shared/patients.js';
import type { Paged, PagingQuery } from '../../../shared/paging.js';
import type { DocumentStatus, MedicalRecord, RecordListQuery } from '../../../shared/records.js';
import { joinedDisplayName } from '../../../shared/users.js';
import { reachableRecordsFilter, type PatientRow } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { isoOf, isoTime } from '../../db/iso-time.js';
import { fetchPage, subqueryTotal } from '../../db/paging.js';
import { preparedPerDb } from '../../db/prepared.js';
import {
  attachments,
  ledgerContents,
  ledgerEntries,
  medicalRecords,
  patients,
  users,
} from '../../db/schema.js';
import { recanonicalAs, type EntryHeader } from '../ledger/commitments.js';
import {
  ATTACHMENT_CONTENT_INPUTS,
  RECORD_CONTENT_INPUTS,
  recordLedgerContent,
  type AttachmentContentSource,
} from '../ledger/content.js';
import { sha256Hex } from '../ledger/hashing.js';

/** What a record list reads of its patient: the name shown, and what access and the audit need. */
export type ListedPatient = Pick<
  PatientRow,
  'id' | 'patientId' | 'firstName' | 'lastName' | 'email' | 'createdByHospitalId' | 'archivedAt' | 'userId'
>;

/** Its times: ISO strings as the lists read them (recordColumns), or Dates. */
type RecordRow = Omit<typeof medicalRecords.$inferSelect, 'createdAt' | 'updatedAt' | 'enteredInErrorAt'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  enteredInErrorAt: Date | string | null;
};
type AttachmentRow = typeof attachments.$inferSelect;
/** What the check reads of the entry: its hash and the fields beside its text, not the text. */
type EntryRow = EntryHeader & Pick<typeof ledgerEntries.$inferSelect, 'hash'>;

/**
 * The salt of a format-2 entry's opening (null when none is stored: erased, or format 1), which the
 * row holds apart (it is ledger_contents'). The check commits to the record's own fields under it;
 * the stored content is not read.
 */
type OpeningSalt = string | null;

const retractor = alias(users, 'retractor');

export const downloadUrl = (storageKey: string) => `/api/download/${storageKey}`;

/**
 * Whether the record's ledger entry exists and its hash is the hash of the entry's text made again
 * from what the record and its attachment rows hold now: then they hold exactly what was entered.
 * The stored text is not read (a page of 30 records carried about 30 KB of it): only the hash
 * vouches for content, and whether the text still hashes to it, like the chain and the proofs, is
 * the full verification's to check (GET /api/medical-records/{id}/verification), as is a file
 * replaced on disk, which that verification reads.
 */
export function matchesLedger(
  record: RecordRow,
  files: readonly AttachmentContentSource[],
  entry: EntryRow | null,
  salt: OpeningSalt,
): boolean {
  if (record.status !== 'final' || !record.isBlockchainVerified || !record.blockchainHash || !entry)
    return false;
  if (entry.recordId !== record.id || entry.hash !== record.blockchainHash) return false;
  const inputs = checkInputs(entry, salt, record, files);
  const known = checkedInputs.get(entry.hash);
  if (known && sameInputs(known.inputs, inputs)) return known.result;
  if (checkedInputs.size >= CHECKED_INPUTS_KEPT) checkedInputs.clear();
  const result = recomputesEntry(entry, salt, recordLedgerContent(record, files));
  checkedInputs.set(entry.hash, { inputs, result });
  return result;
}

function recomputesEntry(entry: EntryRow, salt: OpeningSalt, content: Record<string, unknown>): boolean {
  // The entry recomputed from the row: format 2 (commitments under its salt) when it has an
  // opening, which only format-2 entries have; else format 1 (content inline), which an erased
  // format-2 entry, its opening deleted, can never hash to.
  const recomputed =
    salt !== null ? recanonicalAs(2, entry, content, { salt }) : recanonicalAs(1, entry, content, null);
  return recomputed !== null && sha256Hex(recomputed) === entry.hash;
}

/**
 * Everything the check reads, each part as it is: the entry's fields and its opening's salt, and
 * the record's and attachments' fields its content is made of (ledger/content.ts lists them),
 * dates as their time. Comparing these is cheaper than building the content and its JSON for
 * every record of every list, as the check did (2% of the record list's app CPU, bench/api-cpu).
 */
function checkInputs(
  entry: EntryRow,
  salt: OpeningSalt,
  record: RecordRow,
  files: readonly AttachmentContentSource[],
): unknown[] {
  const inputs: unknown[] = [
    entry.seq,
    timeOf(entry.createdAt),
    entry.kind,
    entry.recordId,
    entry.patientId,
    entry.userId,
    salt,
  ];
  for (const key of RECORD_CONTENT_INPUTS) inputs.push(timeOf(record[key]));
  for (const file of files) for (const key of ATTACHMENT_CONTENT_INPUTS) inputs.push(file[key]);
  return inputs;
}

const timeOf = (value: unknown) => (value instanceof Date ? value.getTime() : value);

const sameInputs = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Past the cheap comparisons above, the check is a pure function of the entry row with its opening
 * and of the content the record and attachment rows make, so its answer is kept under the entry's
 * hash together with every input it was worked out from: a list read again compares the inputs
 * (string comparisons) instead of hashing every ledgered field, and any change to any input is
 * checked afresh. Bounded (the inputs are a few KB per record): emptied when full.
 */
const checkedInputs = new Map<string, { inputs: unknown[]; result: boolean }>();
const CHECKED_INPUTS_KEPT = 10_000;

/** What a record shows of its attachments and what its ledger content takes, as one JSON array. */
type AttachmentJson = Pick<
  AttachmentRow,
  'id' | 'recordId' | 'storageKey' | 'fileName' | 'mimeType' | 'size' | 'sha256' | 'position'
>;
const attachmentsJson = sql<AttachmentJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', ${attachments.id}, 'recordId', ${attachments.recordId}, 'storageKey', ${attachments.storageKey},
    'fileName', ${attachments.fileName}, 'mimeType', ${attachments.mimeType}, 'size', ${attachments.size},
    'sha256', ${attachments.sha256}, 'position', ${attachments.position}
  ) order by ${attachments.position})
  from ${attachments} where ${attachments.recordId} = ${medicalRecords.id}), '[]'::json)`;

/**
 * A record with everything it shows, in one row: its patient (what it shows of them and what access
 * is checked on: ListedPatient), provider, retractor, attachments and the ledger entry it names
 * with that entry's salt (the record id guards against a hash reused). One statement per page
 * instead of one per kind of detail.
 */
const recordColumns = {
  // Its times as ISO strings (db/iso-time.ts): two or three dates a row not parsed and printed again.
  record: {
    ...getTableColumns(medicalRecords),
    createdAt: isoTime(medicalRecords.createdAt),
    updatedAt: isoTime(medicalRecords.updatedAt),
    enteredInErrorAt: isoTime(medicalRecords.enteredInErrorAt),
  },
  patient: {
    id: patients.id,
    patientId: patients.patientId,
    firstName: patients.firstName,
    lastName: patients.lastName,
    email: patients.email,
    createdByHospitalId: patients.createdByHospitalId,
    archivedAt: patients.archivedAt,
    userId: patients.userId,
  },
  providerName: users.hospitalName,
  providerVerifiedAt: users.verifiedAt,
  retractedBy: { firstName: retractor.firstName, lastName: retractor.lastName, email: retractor.email },
  files: attachmentsJson,
  entry: {
    seq: ledgerEntries.seq,
    kind: ledgerEntries.kind,
    recordId: ledgerEntries.recordId,
    patientId: ledgerEntries.patientId,
    userId: ledgerEntries.userId,
    hash: ledgerEntries.hash,
    createdAt: ledgerEntries.createdAt,
  },
  salt: ledgerContents.salt,
};
/**
 * Newest first by the date of service (issue 57: a back-scanned result sorts by when it was taken),
 * the upload's UTC day when none was given, then by upload; the id breaks ties so that pages never
 * overlap or skip a record. A list is one patient's, so the sort is over that patient's rows.
 */
const recordDate = sql`coalesce(${medicalRecords.serviceDate}, (${medicalRecords.createdAt} at time zone 'UTC')::date)`;
const newestFirst = [desc(recordDate), desc(medicalRecords.createdAt), desc(medicalRecords.id)] as const;

/**
 * The joins behind recordColumns, on a select from medical_records (or from a page of its ids).
 * A dynamic query keeps its declared row type: the left-joined columns are typed in LoadedRow.
 */
function withDetails<Q extends PgSelect>(query: Q) {
  return query
    .innerJoin(patients, eq(patients.id, medicalRecords.patientId))
    .innerJoin(users, eq(users.id, medicalRecords.hospitalId))
    .leftJoin(retractor, eq(retractor.id, medicalRecords.enteredInErrorBy))
    .leftJoin(
      ledgerEntries,
      and(
        eq(ledgerEntries.hash, medicalRecords.blockchainHash),
        eq(ledgerEntries.recordId, medicalRecords.id),
      ),
    )
    .leftJoin(ledgerContents, eq(ledgerContents.seq, ledgerEntries.seq));
}

/** Every record matching `where`, newest first (a record's versions, the drafts, one record). */
export async function loadRecords(db: Db, where: SQL | undefined): Promise<MedicalRecord[]> {
  const rows = await withDetails(db.select(recordColumns).from(medicalRecords).$dynamic())
    .where(where)
    .orderBy(...newestFirst);
  return rows.map(shapeRecord);
}

/**
 * The statement behind a page of records (exported for the benchmark's EXPLAIN): the page's ids
 * and the list's count come from medical_records alone (index scans on the list indexes, the count
 * index-only; db/paging.ts, subqueryTotal), and only the page's ids are joined.
 */
export function recordPageQuery(
  db: Db,
  where: SQL | undefined,
  bounds: { limit: number | Placeholder; offset: number | Placeholder },
) {
  const total = db.select({ n: count() }).from(medicalRecords).where(where);
  const page = db
    .select({ id: medicalRecords.id, total: subqueryTotal(total).as('total') })
    .from(medicalRecords)
    .where(where)
    .orderBy(...newestFirst)
    .limit(bounds.limit)
    .offset(bounds.offset)
    .as('page');
  return withDetails(
    db
      .select({ ...recordColumns, total: page.total })
      .from(page)
      .innerJoin(medicalRecords, eq(medicalRecords.id, page.id))
      .$dynamic(),
  ).orderBy(...newestFirst);
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
    reachableRecordsFilter(hospitalId),
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
    recordPageQuery(db, where, {
      limit: sql.placeholder('limit'),
      offset: sql.placeholder('offset'),
    }).prepare(name),
  );
}

/**
 * One page of a patient's records in `scope`, newest first, with the total, in one prepared
 * statement; with it the patient row its records joined (null for an empty page), on which the
 * caller checks access before anything leaves (records/read.ts).
 */
export async function loadScopedRecordPage(
  db: Db,
  scope: { patientId: string; hospitalId: string | null; view: RecordListScope['view'] },
  paging: PagingQuery,
): Promise<{ page: Paged<MedicalRecord>; patient: ListedPatient | null }> {
  const key = `${scope.hospitalId !== null}:${scope.view}`;
  let statement = scopedPages.get(key);
  if (!statement) {
    statement = prepareScopedPage(scope.hospitalId !== null, scope.view);
    scopedPages.set(key, statement);
  }
  const prepared = statement(db);
  let patient: ListedPatient | null = null;
  const page = await fetchPage(
    paging,
    (bounds) => prepared.execute({ patientId: scope.patientId, hospitalId: scope.hospitalId, ...bounds }),
    async () => (await db.select({ total: count() }).from(medicalRecords).where(scopeWhere(scope)))[0].total,
    (rows) => {
      patient = rows[0]?.patient ?? null;
      return rows.map(shapeRecord);
    },
  );
  return { page, patient };
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
    (rows) => rows.map(shapeRecord),
  );
}

type LoadedRow = {
  record: RecordRow;
  patient: ListedPatient;
  providerName: string | null;
  providerVerifiedAt: Date | null;
  retractedBy: { firstName: string | null; lastName: string | null; email: string | null } | null;
  files: AttachmentJson[];
  entry: EntryRow | null;
  salt: OpeningSalt;
};

/** A row with its attachments and ledger check, shaped for the API. */
function shapeRecord(row: LoadedRow): MedicalRecord {
  // The entry and its salt are passed as the row holds them: a copy of the entry with the salt
  // added took V8's slow path on every row (Runtime_DefineNamedOwnIC_Slow, 1.5% of the record
  // list's app CPU, when it was a spread).
  const { record, patient, providerName, providerVerifiedAt, retractedBy, files: own, entry, salt } = row;
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
    practitionerId: record.practitionerId,
    department: record.department,
    serviceDate: record.serviceDate,
    status: record.status,
    consentProvided: record.consentProvided,
    shareWithSpecialists: record.shareWithSpecialists,
    shareWithFamily: record.shareWithFamily,
    isBlockchainVerified: matchesLedger(record, own, entry, salt),
    blockchainHash: record.blockchainHash,
    viewedByPatient: record.viewedByPatient,
    createdAt: isoOf(record.createdAt),
    updatedAt: isoOf(record.updatedAt),
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
          at: isoOf(record.enteredInErrorAt),
          reason: record.enteredInErrorReason ?? '',
          byName: joinedDisplayName(retractedBy),
        }
      : null,
  };
}

/** FHIR DocumentReference.status of a record row. */
export function documentStatusOf(
  record: Pick<RecordRow, 'enteredInErrorAt' | 'supersededById'>,
): DocumentStatus {
  if (record.enteredInErrorAt) return 'entered-in-error';
  return record.supersededById ? 'superseded' : 'current';
}

export async function loadRecord(db: Db, recordId: string): Promise<MedicalRecord> {
  const [record] = await loadRecords(db, eq(medicalRecords.id, recordId));
  return record;
}
