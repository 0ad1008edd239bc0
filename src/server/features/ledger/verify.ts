// Checking one record against the ledger: recompute its entry's hash from the stored row and the
// attachment bytes, check the entry's links in the hash chain, and check its inclusion proof
// against the current tree head. Each part is reported, so a failure says what was changed.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { canonicalJson } from '../../../shared/ledger/canonical.js';
import { GENESIS_CHAIN_HASH } from '../../../shared/ledger/entry.js';
import { verifyInclusion } from '../../../shared/ledger/merkle.js';
import { findRecordForUser, type Actor, type RecordRow } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { attachments, ledgerEntries } from '../../db/schema.js';
import type { FileStore } from '../../files/store.js';
import {
  openEntry,
  openingOf,
  recanonicalOpened,
  type LedgerEntryRow,
  type OpenedEntry,
  type Opening,
} from './commitments.js';
import { RECORD_LEDGER_FIELDS, recordLedgerContent, type RecordContentSource } from './content.js';
import { bytesOf, chainHashOf, hexOf, leafOf, sha256, sha256Hex } from './hashing.js';
import { inclusionProof, LedgerDamagedError, ledgerSize } from './tree.js';

export type CheckName = 'entry' | 'content' | 'attachments' | 'chain' | 'inclusion';

export interface VerificationCheck {
  name: CheckName;
  ok: boolean;
  detail: string;
}

export interface RecordVerification {
  verified: boolean;
  /** What failed, in words; null when verified. */
  reason: string | null;
  failedCheck: CheckName | null;
  checks: VerificationCheck[];
  /** The ledger entry's hash (the record's blockchainHash). */
  hash: string | null;
  leafIndex: number | null;
  entryCreatedAt: string | null;
  treeSize: number;
  /** The root the inclusion proof was checked against. */
  rootHash: string | null;
  auditPath: string[];
  checkedAt: string;
  /** The entry's content was erased (its salt deleted): the record can no longer be compared with it. */
  contentErased: boolean;
}

export type { LedgerEntryRow };

const FIELD_LABELS: Record<(typeof RECORD_LEDGER_FIELDS)[number], string> = {
  title: 'title',
  description: 'description',
  recordType: 'record type',
  doctorName: 'doctor name',
  department: 'department',
  serviceDate: 'date of service',
  patientId: 'patient',
  hospitalId: 'hospital',
  createdAt: 'creation date',
};

/** The record_upload entry of a record (the first, should there ever be more). */
export async function findRecordEntry(db: Db, recordId: string): Promise<LedgerEntryRow | undefined> {
  const [entry] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.recordId, recordId), eq(ledgerEntries.kind, 'record_upload')))
    .orderBy(asc(ledgerEntries.seq))
    .limit(1);
  return entry;
}

/**
 * Names the record fields and attachments that differ from the content the entry holds (v1: in
 * the entry; v2: in its opening, checked against the entry's commitments first).
 */
export function describeDifferences(
  entry: LedgerEntryRow,
  content: Record<string, unknown>,
  opening: Opening | null = null,
): string {
  const opened = openEntry(entry, opening);
  if (opened.state === 'unreadable') return "The ledger entry's stored text is not readable.";
  if (opened.state === 'erased') return ERASED_DETAIL;
  if (opened.state === 'altered')
    return "The ledger's stored content of this entry was changed: it no longer matches the entry's commitments.";
  const recorded = opened.content;
  const fields = RECORD_LEDGER_FIELDS.filter(
    (f) => canonicalJson(recorded[f] ?? null) !== canonicalJson(content[f] ?? null),
  );
  const parts = fields.map((f) => FIELD_LABELS[f]);
  if (canonicalJson(recorded.attachments ?? null) !== canonicalJson(content.attachments ?? null))
    parts.push('attachments');
  if (parts.length === 0) return 'The record differs from what was entered in the ledger.';
  return `The record's ${parts.join(', ')} ${parts.length === 1 ? 'differs' : 'differ'} from what was entered in the ledger.`;
}

export const ERASED_DETAIL =
  "This entry's content was erased from the ledger (its salt was deleted): the entry still stands in the chain and the tree, but the record can no longer be compared with it.";

export type AttachmentRow = typeof attachments.$inferSelect;

/** The checks of the record's content and attachments against its entry. */
export async function checkRecordContent(
  db: Db,
  files: FileStore,
  record: RecordRow,
  entry: LedgerEntryRow,
): Promise<RecordComparison> {
  const rows = await db
    .select()
    .from(attachments)
    .where(eq(attachments.recordId, record.id))
    .orderBy(asc(attachments.position));
  return compareRecord(files, record, rows, entry, await openingOf(db, Number(entry.seq)));
}

/** What compareRecord reads of a record: the fields its entry covers and its entry hash. */
export type ComparedRecord = RecordContentSource & Pick<RecordRow, 'blockchainHash'>;

export interface RecordComparison {
  content: VerificationCheck;
  attachments: VerificationCheck;
  /** The entry's opening is gone: `content` cannot compare the record with it. */
  erased: boolean;
  /** The record's ledger content as it stands (content.ts, attachments by the bytes read back). */
  recordContent: Record<string, unknown>;
}

/** Reads back every attachment and recomputes the entry's hash from the row and the bytes. */
export async function compareRecord(
  files: Pick<FileStore, 'hashStored'>,
  record: ComparedRecord,
  rows: readonly AttachmentRow[],
  entry: LedgerEntryRow,
  opening: Opening | null,
  /** The entry read with its opening, when the caller has read it already (the audit). */
  opened: OpenedEntry = openEntry(entry, opening),
): Promise<RecordComparison> {
  const problems: string[] = [];
  const fromBytes: AttachmentRow[] = [];
  for (const row of rows) {
    const stored = await files.hashStored(row);
    if (!stored.ok) {
      problems.push(
        stored.reason === 'missing'
          ? `Attachment "${row.fileName}" is missing from storage.`
          : stored.reason === 'key-missing'
            ? `Attachment "${row.fileName}" is sealed with key id ${stored.keyId}, which is neither FILE_ENCRYPTION_KEY nor one of FILE_ENCRYPTION_PREVIOUS_KEYS.`
            : `Attachment "${row.fileName}" was altered on disk.`,
      );
      fromBytes.push(row);
    } else {
      if (stored.sha256 !== row.sha256)
        problems.push(`Attachment "${row.fileName}" does not match its recorded SHA-256.`);
      fromBytes.push({ ...row, sha256: stored.sha256 });
    }
  }
  const content = recordLedgerContent(record, fromBytes);
  const recomputed = recanonicalOpened(entry, content, opening, opened);
  const contentOk = opened.state === 'open' && recomputed !== null && sha256Hex(recomputed) === entry.hash;
  const hashOk = record.blockchainHash === entry.hash;
  return {
    erased: opened.state === 'erased',
    recordContent: content,
    content: {
      name: 'content',
      ok: contentOk && hashOk,
      detail: !contentOk
        ? describeDifferences(entry, content, opening)
        : hashOk
          ? 'The record and its attachments hash to the ledger entry.'
          : "The record's blockchain hash is not its ledger entry's hash.",
    },
    attachments: {
      name: 'attachments',
      ok: problems.length === 0,
      detail: problems.length === 0 ? `${rows.length} attachment(s) read back intact.` : problems.join(' '),
    },
  };
}

/** Does the entry link to the one before it, and the one after it to it? */
export async function checkChain(db: Db, entry: LedgerEntryRow): Promise<VerificationCheck> {
  const seq = Number(entry.seq);
  const neighbours = await db
    .select({ seq: ledgerEntries.seq, hash: ledgerEntries.hash, chainHash: ledgerEntries.chainHash })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.seq, seq === 0 ? [1] : [seq - 1, seq + 1]));
  const before = neighbours.find((n) => Number(n.seq) === seq - 1);
  const after = neighbours.find((n) => Number(n.seq) === seq + 1);
  const fail = (detail: string): VerificationCheck => ({ name: 'chain', ok: false, detail });
  if (seq > 0 && !before)
    return fail(`Ledger entry ${seq - 1} is missing: the chain is broken before this entry.`);
  if (entry.chainHash !== chainHashOf(before?.chainHash ?? GENESIS_CHAIN_HASH, entry.hash)) {
    return fail(`Entry ${seq}'s chain hash does not follow from entry ${seq - 1}.`);
  }
  if (after && after.chainHash !== chainHashOf(entry.chainHash, after.hash)) {
    return fail(`Entry ${seq + 1}'s chain hash does not follow from this entry.`);
  }
  return { name: 'chain', ok: true, detail: 'The entry is linked to its neighbours in the hash chain.' };
}

export async function checkInclusion(
  db: Db,
  entry: LedgerEntryRow,
): Promise<{ check: VerificationCheck; treeSize: number; rootHash: string | null; auditPath: string[] }> {
  const seq = Number(entry.seq);
  const treeSize = await ledgerSize(db);
  if (seq >= treeSize) {
    return {
      check: { name: 'inclusion', ok: false, detail: 'The entry lies outside the tree.' },
      treeSize,
      rootHash: null,
      auditPath: [],
    };
  }
  try {
    const { auditPath, rootHash } = await inclusionProof(db, seq, treeSize);
    const ok = verifyInclusion(seq, treeSize, leafOf(bytesOf(entry.hash)), auditPath, rootHash, sha256);
    return {
      check: {
        name: 'inclusion',
        ok,
        detail: ok
          ? `Included at leaf ${seq} of the tree of ${treeSize} entries (proof of ${auditPath.length} hashes).`
          : 'The inclusion proof does not lead to the tree head: the entry or the tree was changed.',
      },
      treeSize,
      rootHash: hexOf(rootHash),
      auditPath: auditPath.map(hexOf),
    };
  } catch (err) {
    if (!(err instanceof LedgerDamagedError)) throw err;
    return {
      check: { name: 'inclusion', ok: false, detail: err.message },
      treeSize,
      rootHash: null,
      auditPath: [],
    };
  }
}

/** GET /api/medical-records/{id}/verification: a record the actor reaches (else 404), checked. */
export async function verifyRecordFor(
  db: Db,
  files: FileStore,
  actor: Pick<Actor, 'id' | 'role'>,
  recordId: string,
  now: Date,
): Promise<RecordVerification> {
  const { record } = await findRecordForUser(db, actor, recordId);
  return verifyRecord(db, files, record, now);
}

export async function verifyRecord(
  db: Db,
  files: FileStore,
  record: RecordRow,
  now: Date,
): Promise<RecordVerification> {
  const base = {
    checkedAt: now.toISOString(),
    treeSize: 0,
    rootHash: null,
    auditPath: [] as string[],
    contentErased: false,
  };
  const entry = await findRecordEntry(db, record.id);
  if (!entry) {
    const detail =
      record.status === 'draft'
        ? 'This record is a draft; it has not been entered in the ledger.'
        : 'No ledger entry exists for this record.';
    return {
      ...base,
      treeSize: await ledgerSize(db),
      verified: false,
      reason: detail,
      failedCheck: 'entry',
      checks: [{ name: 'entry', ok: false, detail }],
      hash: null,
      leafIndex: null,
      entryCreatedAt: null,
    };
  }
  const selfOk = sha256Hex(entry.canonical) === entry.hash;
  const entryCheck: VerificationCheck = {
    name: 'entry',
    ok: selfOk,
    detail: selfOk
      ? `Ledger entry ${entry.seq} found.`
      : "The ledger entry's stored text does not match its hash.",
  };
  const { content, attachments: files_, erased } = await checkRecordContent(db, files, record, entry);
  const chain = await checkChain(db, entry);
  const inclusion = await checkInclusion(db, entry);
  const checks = [entryCheck, content, files_, chain, inclusion.check];
  const failed = checks.find((c) => !c.ok) ?? null;
  return {
    ...base,
    verified: failed === null,
    reason: failed?.detail ?? null,
    failedCheck: failed?.name ?? null,
    checks,
    hash: entry.hash,
    leafIndex: Number(entry.seq),
    entryCreatedAt: entry.createdAt.toISOString(),
    treeSize: inclusion.treeSize,
    rootHash: inclusion.rootHash,
    auditPath: inclusion.auditPath,
    contentErased: erased,
  };
}
