// Medical records (docs/spec.md#screens-and-routes, #entities, #validation and #calls): the upload
// form's fields, the accepted files and the shapes the API answers with. Used by the upload route
// and by the hospital dashboard.
import { z } from 'zod';
import { pagingQuerySchema } from './paging.js';
import { booleans, nullableStrings, only, optionalText, picked, strings } from './fields.js';
import { text } from './text.js';
import { pastDateSchema } from './patients.js';
import { ACCEPTED_FILE_EXTENSIONS, DEPARTMENTS, MAX_UPLOAD_BYTES, RECORD_TYPES } from './constants.js';

export { RECORD_TYPES, RECORD_TYPE_LABELS, type RecordType } from './constants.js';

export const MAX_FILES_PER_RECORD = 10;
export const MISSING_INFORMATION = 'Please fill in all required fields.';
/** What the upload form says under each required field left empty. */
export const RECORD_FORM_MESSAGES = {
  patient: 'Choose a patient',
  recordType: 'Choose a record type',
  title: 'Enter a title',
} as const;
export const TOO_LARGE_MESSAGE = `File is too large. The limit is ${MAX_UPLOAD_BYTES / 1024 / 1024} MB per file.`;

export type AcceptedExtension = (typeof ACCEPTED_FILE_EXTENSIONS)[number];
export const MIME_TYPES: Record<AcceptedExtension, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** The accepted extension of a file name (lower-cased), or null. */
export function acceptedExtension(fileName: string): AcceptedExtension | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName);
  const ext = match?.[1].toLowerCase();
  return (ACCEPTED_FILE_EXTENSIONS as readonly string[]).includes(ext ?? '')
    ? (ext as AcceptedExtension)
    : null;
}

/** Multipart sends text: "true"/"false" (also "on"/"1"/"0"); absent keeps the default. */
const formBoolean = (fallback: boolean) =>
  z.preprocess(
    (v) =>
      v === undefined || v === '' ? fallback : ['true', 'on', '1', true].includes(v as string | boolean),
    z.boolean(),
  );
/** The same, with absent left undefined: the server decides what an unset switch means. */
const unsetFormBoolean = z.preprocess(
  (v) =>
    v === undefined || v === '' ? undefined : ['true', 'on', '1', true].includes(v as string | boolean),
  z.boolean().optional(),
);

/** The upload form's fields. hospitalId, isBlockchainVerified and blockchainHash are ignored. */
/** A record's date of service: a real date, from 1900 to today. */
export const serviceDateSchema = pastDateSchema('Date of service', '1900-01-01');

export const recordFieldsSchema = z.object({
  patientId: text({ error: MISSING_INFORMATION }).trim().min(1, MISSING_INFORMATION).max(100),
  recordType: z.enum(RECORD_TYPES, {
    error: (issue) =>
      issue.input === undefined || issue.input === '' ? MISSING_INFORMATION : 'Unknown record type',
  }),
  title: text({ error: MISSING_INFORMATION })
    .trim()
    .min(1, MISSING_INFORMATION)
    .max(200, 'Title is too long'),
  description: optionalText(5000),
  doctorName: optionalText(200),
  /** The practitioner (GET /api/hospital/practitioners) the record is by; their name is its doctor's. */
  practitionerId: optionalText(100),
  department: z.preprocess(
    (v) => (v === '' ? null : v),
    z.enum(DEPARTMENTS, { error: 'Unknown department' }).nullish(),
  ),
  /**
   * The date of service (YYYY-MM-DD): when the visit, test or scan took place, apart from the
   * upload. Left out on an amendment, the corrected version's.
   */
  serviceDate: serviceDateSchema,
  consentProvided: formBoolean(true),
  /**
   * The sharing switches; left out, they are the version's the upload continues (the record an
   * amendment corrects, the draft it finishes), else off (docs/decisions.md#records).
   */
  shareWithSpecialists: unsetFormBoolean,
  shareWithFamily: unsetFormBoolean,
  /** "Save as Draft": kept for the hospital only, not ledgered until uploaded. */
  draft: formBoolean(false),
  /** Continue a saved draft (its fields are replaced, its files kept, new files added). */
  draftId: optionalText(100),
});
export type RecordFields = z.infer<typeof recordFieldsSchema>;

/**
 * The Upload Records (and Amend) form as it holds its fields: pickers start empty (null), the
 * switches are booleans, and each required field names what is missing. Its output is what the
 * form sends as multipart fields.
 */
export const recordFormSchema = recordFieldsSchema.pick({ description: true, doctorName: true }).extend({
  /** YYYY-MM-DD, or null (the upload's date is the record's date). */
  serviceDate: z
    .string()
    .nullable()
    .default(null)
    .pipe(z.preprocess((v) => v ?? undefined, serviceDateSchema))
    .transform((v) => v ?? null),
  patientId: picked(text({ error: RECORD_FORM_MESSAGES.patient }).min(1, RECORD_FORM_MESSAGES.patient)),
  patientLabel: z.string().nullable(),
  /** The practitioner chosen in the form (else the free-text doctor name). */
  practitionerId: z.string().nullable().default(null),
  recordType: picked(z.enum(RECORD_TYPES, { error: RECORD_FORM_MESSAGES.recordType })),
  title: text().trim().min(1, RECORD_FORM_MESSAGES.title).max(200, 'Title is too long'),
  department: z
    .string()
    .nullable()
    .pipe(z.enum(DEPARTMENTS, { error: 'Unknown department' }).nullable()),
  ...booleans('consentProvided', 'shareWithSpecialists', 'shareWithFamily'),
});
export const RECORD_FIELD_NAMES = Object.keys(recordFieldsSchema.shape);

export const attachmentSchema = z.object({
  ...strings('id', 'fileName', 'mimeType'),
  size: z.number(),
  sha256: z.string(),
  position: z.number(),
  /** `/api/download/<opaque id>` */
  url: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const DOCUMENT_STATUSES = ['current', 'superseded', 'entered-in-error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const recordSchema = z.object({
  ...strings('id', 'patientId', 'hospitalId', 'title'),
  description: z.string().nullable(),
  recordType: z.string(),
  ...nullableStrings('fileName', 'fileUrl', 'doctorName', 'department'),
  /** The practitioner it is by (null on records with a free-text doctor, or none). */
  practitionerId: z.string().nullable(),
  /** The date of service (YYYY-MM-DD), when it was given; lists are sorted by it, else by upload. */
  serviceDate: z.string().nullable(),
  status: z.enum(['draft', 'final']),
  ...booleans('consentProvided', 'shareWithSpecialists', 'shareWithFamily'),
  /** True only when the record's ledger entry exists and matches (checked by the server). */
  isBlockchainVerified: z.boolean(),
  blockchainHash: z.string().nullable(),
  viewedByPatient: z.boolean(),
  ...strings('createdAt', 'updatedAt'),
  /** The hospital's name (the record's provider). */
  providerName: z.string().nullable(),
  /** The issuing hospital is a verified provider (approved application or verified by MedLedger). */
  providerVerified: z.boolean(),
  patient: z.object({ id: z.string(), mrn: z.string(), name: z.string() }),
  attachments: z.array(attachmentSchema),
  /** FHIR DocumentReference.status: amended records are `superseded`, retracted ones `entered-in-error`. */
  documentStatus: z.enum(DOCUMENT_STATUSES),
  /** The earlier version this one corrects (FHIR relatesTo `replaces`). */
  supersedesId: z.string().nullable(),
  /** The later version that corrects this one. */
  supersededById: z.string().nullable(),
  enteredInError: z.object({ at: z.string(), reason: z.string(), byName: z.string().nullable() }).nullable(),
});
export type MedicalRecord = z.infer<typeof recordSchema>;

/** POST /api/medical-records/{id}/entered-in-error */
export const enteredInErrorSchema = z.object({
  reason: text({ error: 'Please give a reason' })
    .trim()
    .min(3, 'Please give a reason (at least 3 characters)')
    .max(500, 'The reason is too long (500 characters at most)'),
});

/** Which records a list shows: current ones (the default), or every version and retraction too. */
/** `?view=` and paging of a record list (current versions by default, `all` for every version). */
export const recordListQuerySchema = pagingQuerySchema.extend({
  view: z.enum(['current', 'all'], { error: 'view must be "current" or "all"' }).default('current'),
});
export type RecordListQuery = z.infer<typeof recordListQuerySchema>;

/** One version in a record's history, oldest first. */
export const recordVersionSchema = recordSchema.pick(
  only('id', 'title', 'createdAt', 'providerName', 'documentStatus', 'blockchainHash', 'enteredInError'),
);
export type RecordVersion = z.infer<typeof recordVersionSchema>;

export const sharingSchema = z.object({
  shareWithSpecialists: z.boolean({ error: 'shareWithSpecialists must be true or false' }),
  shareWithFamily: z.boolean({ error: 'shareWithFamily must be true or false' }),
});

/** Content signatures of the accepted types (magic numbers at the start of the file). */
export const SIGNATURES: Record<AcceptedExtension, number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46], // %PDF
  docx: [0x50, 0x4b, 0x03, 0x04], // PK\x03\x04 (a zip container)
  jpg: [0xff, 0xd8, 0xff],
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

export function matchesSignature(ext: AcceptedExtension, head: Uint8Array): boolean {
  const sig = SIGNATURES[ext];
  return head.length >= sig.length && sig.every((byte, i) => head[i] === byte);
}

/** "Record: <title> - <description>" (Share with Doctor). */
export const shareSummary = (r: Pick<MedicalRecord, 'title' | 'description'>) =>
  `Record: ${r.title} - ${r.description ?? ''}`;
