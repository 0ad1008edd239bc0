// The content of a record_upload ledger entry, made from the medical_records row and its
// attachments rows. The upload (records feature) and the verification (this feature) both call
// this, so they hash the same thing. Attachments enter by their SHA-256, never by their bytes.

export interface RecordContentSource {
  id: string;
  patientId: string;
  hospitalId: string;
  title: string;
  description: string | null;
  recordType: string;
  doctorName: string | null;
  department: string | null;
  /** YYYY-MM-DD; entered only when given, so the content of older entries is as it was. */
  serviceDate?: string | null;
  createdAt: Date | string;
  /** An amendment: the record it corrects and that record's ledger entry hash. */
  supersedesId?: string | null;
  supersedesHash?: string | null;
}

export interface AttachmentContentSource {
  fileName: string;
  mimeType: string;
  size: number;
  /** SHA-256 of the plaintext bytes, lowercase hex. */
  sha256: string;
  position: number;
}

/**
 * Every field of a record and of an attachment that recordLedgerContent reads: the content is a
 * function of these alone, so a check of the content can be remembered against them
 * (records/load.ts, matchesLedger); records/ledger-flag.test.ts holds recordLedgerContent to them.
 */
export const RECORD_CONTENT_INPUTS = [
  'id',
  'patientId',
  'hospitalId',
  'title',
  'description',
  'recordType',
  'doctorName',
  'department',
  'serviceDate',
  'createdAt',
  'supersedesId',
  'supersedesHash',
] as const satisfies readonly (keyof RecordContentSource)[];
export const ATTACHMENT_CONTENT_INPUTS = [
  'position',
  'fileName',
  'mimeType',
  'size',
  'sha256',
] as const satisfies readonly (keyof AttachmentContentSource)[];
// A field added to either source type and not to its list fails the build here.
type Lists<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const everyInputListed: [
  Lists<(typeof RECORD_CONTENT_INPUTS)[number], keyof RecordContentSource>,
  Lists<(typeof ATTACHMENT_CONTENT_INPUTS)[number], keyof AttachmentContentSource>,
] = [true, true];
void everyInputListed;

/** The fields of a record that its ledger entry covers (used to name what changed). */
export const RECORD_LEDGER_FIELDS = [
  'title',
  'description',
  'recordType',
  'doctorName',
  'department',
  'serviceDate',
  'patientId',
  'hospitalId',
  'createdAt',
] as const;

export function recordLedgerContent(
  record: RecordContentSource,
  attachments: readonly AttachmentContentSource[],
): Record<string, unknown> {
  const sorted = [...attachments].sort((a, b) => a.position - b.position || a.sha256.localeCompare(b.sha256));
  return {
    id: record.id,
    patientId: record.patientId,
    hospitalId: record.hospitalId,
    title: record.title,
    description: record.description ?? null,
    recordType: record.recordType,
    doctorName: record.doctorName ?? null,
    department: record.department ?? null,
    ...(record.serviceDate ? { serviceDate: record.serviceDate } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    // Only amendments carry the link, so the content of every other entry is as it always was.
    ...(record.supersedesId
      ? { supersedes: { recordId: record.supersedesId, entryHash: record.supersedesHash ?? null } }
      : {}),
    attachments: sorted.map((a) => ({
      position: a.position,
      fileName: a.fileName,
      mimeType: a.mimeType,
      size: Number(a.size),
      sha256: a.sha256.toLowerCase(),
    })),
  };
}
