// A receipt: what a patient keeps to prove, without asking the server, that a record was entered
// in the ledger. It holds the entry's fields exactly as hashed, the leaf index, an RFC 9162
// inclusion proof and the signed checkpoint (c2sp.org/tlog-checkpoint) the proof leads to.
// verifyReceipt is the one check, run by `npm run ledger -- verify-receipt`, by /verify in the
// browser (offline) and by the tests. For a format-2 entry (salted commitments, see entry.ts) the
// receipt also carries the entry's opening, its salt and content: the patient's own copy, from
// which the check re-derives the entry's commitments.
// Zod's mini build: /verify parses receipts in the browser, and with the mini build the page
// downloads Zod's core alone (14.8 KB compressed) instead of the full build (23.0 KB). It
// carries no messages of its own; the English ones, which the full build sets when it loads, are
// set here so that a broken receipt is explained the same way in the browser and in the CLI.
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { canonicalJson } from './canonical.js';
import { envelopeVersion, opensCommitments } from './entry.js';
import { leafHash, verifyInclusion } from './merkle.js';
import { NoteError, openCheckpoint, parseVerifierKey, type Checkpoint, type VerifierKey } from './note.js';
import { fromHex, sha256, toHex, utf8 } from './sha256.js';

z.config(en());

export const RECEIPT_FORMAT = 'medledger-receipt/v1';

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a lowercase SHA-256 in hex'));
const count = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));

export const receiptSchema = z.object({
  format: z.literal(RECEIPT_FORMAT),
  /** The log's origin (and key name). */
  origin: z.string().check(z.minLength(1), z.maxLength(300)),
  /** The verifier key the server published when it made the receipt (pin your own with --key). */
  verifierKey: z.string().check(z.minLength(1), z.maxLength(500)),
  recordId: z.string().check(z.maxLength(100)),
  /** The ledger entry's envelope, exactly the fields its hash covers (canonical JSON of this). */
  entry: z.record(z.string(), z.unknown()),
  entryHash: hex64,
  leafIndex: count,
  treeSize: count,
  inclusionProof: z.array(hex64).check(z.maxLength(64)),
  /** The signed checkpoint of `treeSize` entries the inclusion proof leads to. */
  checkpoint: z.string().check(z.minLength(1), z.maxLength(64 * 1024)),
  /**
   * Format-2 entries only: the salt (hex) and the content the entry's commitments were made over.
   * Whoever holds them can prove the content; keep the receipt private.
   */
  opening: z.optional(z.object({ salt: hex64, content: z.record(z.string(), z.unknown()) })),
  /** The record's files, as entered in the ledger (a copy of the content's attachments). */
  attachments: z
    .array(z.object({ fileName: z.string().check(z.maxLength(500)), sha256: hex64, size: count }))
    .check(z.maxLength(100)),
  issuedAt: z.string().check(z.maxLength(40)),
  /**
   * For people reading the file: the record, its hospital and its practitioner, as the server has
   * them now. Not part of the entry, not hashed and not checked: the entry's fields are the proof.
   */
  summary: z.optional(
    z.object({
      title: z.string().check(z.maxLength(300)),
      hospital: z.nullable(z.string().check(z.maxLength(300))),
      /** "Dr. Ada Okafor, St. Mary's": the practitioner and their organization, or the free-text doctor. */
      practitioner: z.nullable(z.string().check(z.maxLength(700))),
      /** The date of service (YYYY-MM-DD), when given; the entry's content holds it too. */
      serviceDate: z.optional(z.nullable(z.string().check(z.maxLength(10)))),
    }),
  ),
});
export type Receipt = z.infer<typeof receiptSchema>;

export type ReceiptCheckName = 'format' | 'signature' | 'entry' | 'inclusion' | 'attachments' | 'files';

export interface ReceiptCheck {
  name: ReceiptCheckName;
  ok: boolean;
  detail: string;
}

export interface ReceiptVerification {
  ok: boolean;
  checks: ReceiptCheck[];
  /** Things to know that do not make the receipt fail (the key was taken from the receipt). */
  warnings: string[];
  checkpoint: Checkpoint | null;
  receipt: Receipt | null;
}

export interface ReceiptFile {
  name: string;
  /** SHA-256 of the file's bytes, lowercase hex. */
  sha256: string;
}

interface EntryAttachment {
  fileName?: unknown;
  sha256?: unknown;
  size?: unknown;
}

/** The content the entry covers: inline (format 1) or the receipt's opening (format 2). */
function coveredContent(receipt: Receipt): Record<string, unknown> | undefined {
  return envelopeVersion(receipt.entry) === 2
    ? receipt.opening?.content
    : (receipt.entry.content as Record<string, unknown> | undefined);
}

function entryAttachments(receipt: Receipt): EntryAttachment[] {
  const content = coveredContent(receipt) as { attachments?: unknown } | undefined;
  return Array.isArray(content?.attachments) ? (content.attachments as EntryAttachment[]) : [];
}

/** Why a format-2 entry's opening fails, or null when it opens the commitments (or format 1). */
function openingProblem(receipt: Receipt): string | null {
  const version = envelopeVersion(receipt.entry);
  if (version === null) return `The entry's format (${String(receipt.entry.v)}) is not one this check knows.`;
  if (version === 1) return null;
  if (!receipt.opening)
    return 'The entry commits to its content with a salt, and this receipt does not carry the salt and content.';
  return opensCommitments(receipt.entry.commitments, receipt.opening.salt, receipt.opening.content)
    ? null
    : "The receipt's content does not match the entry's commitments: the content was changed.";
}

/**
 * Checks a receipt: the checkpoint's signature (with `verifierKey` when given, else the
 * receipt's own key, with a warning), the entry hash recomputed from the entry's fields, the
 * inclusion proof against the signed root, the attachment list against the entry, and each file
 * given (by its SHA-256) against the entry's attachments.
 */
export async function verifyReceipt(
  input: unknown,
  options: { verifierKey?: string; files?: readonly ReceiptFile[] } = {},
): Promise<ReceiptVerification> {
  const checks: ReceiptCheck[] = [];
  const warnings: string[] = [];
  const result = (checkpoint: Checkpoint | null, receipt: Receipt | null): ReceiptVerification => ({
    ok: checks.every((c) => c.ok),
    checks,
    warnings,
    checkpoint,
    receipt,
  });

  const parsed = receiptSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    checks.push({
      name: 'format',
      ok: false,
      detail: `This is not a MedLedger receipt (${issue.path.join('.') || 'file'}: ${issue.message}).`,
    });
    return result(null, null);
  }
  const receipt = parsed.data;
  checks.push({ name: 'format', ok: true, detail: `A ${RECEIPT_FORMAT} receipt for log ${receipt.origin}.` });

  // 1. The signed checkpoint.
  let key: VerifierKey;
  try {
    key = parseVerifierKey(options.verifierKey ?? receipt.verifierKey);
  } catch (err) {
    checks.push({ name: 'signature', ok: false, detail: (err as Error).message });
    return result(null, receipt);
  }
  if (!options.verifierKey) {
    warnings.push(
      `The signing key was taken from the receipt itself (${receipt.verifierKey}). Compare it with the key the log publishes (GET /api/ledger/public-key) or pin it.`,
    );
  }
  let checkpoint: Checkpoint | null = null;
  try {
    checkpoint = await openCheckpoint(receipt.checkpoint, key);
    checks.push({
      name: 'signature',
      ok: true,
      detail: `The checkpoint of ${checkpoint.treeSize} entries is signed by ${key.name}+${toHex(key.keyId)}.`,
    });
  } catch (err) {
    checks.push({
      name: 'signature',
      ok: false,
      detail: err instanceof NoteError ? err.message : 'The signature could not be checked.',
    });
  }

  // 2. The entry hash, recomputed from the fields.
  try {
    const hash = toHex(sha256(utf8(canonicalJson(receipt.entry))));
    const detail =
      hash !== receipt.entryHash
        ? `The entry's fields hash to ${hash}, not to the receipt's ${receipt.entryHash}: the fields were changed.`
        : receipt.entry.seq !== receipt.leafIndex
          ? `The entry says it is number ${String(receipt.entry.seq)}, the receipt says ${receipt.leafIndex}.`
          : receipt.entry.kind !== 'record_upload' || receipt.entry.recordId !== receipt.recordId
            ? `The entry is not the upload of record ${receipt.recordId}.`
            : openingProblem(receipt);
    const opened =
      envelopeVersion(receipt.entry) === 2 ? ', and its salted commitments open to the content given' : '';
    checks.push({
      name: 'entry',
      ok: detail === null,
      detail: detail ?? `The entry's fields hash to ${hash}${opened}.`,
    });
  } catch {
    checks.push({ name: 'entry', ok: false, detail: "The entry's fields cannot be encoded." });
  }

  // 3. The inclusion proof against the signed root.
  if (!checkpoint) {
    checks.push({
      name: 'inclusion',
      ok: false,
      detail: 'Without a valid signed checkpoint there is no root to check against.',
    });
  } else if (checkpoint.treeSize !== receipt.treeSize) {
    checks.push({
      name: 'inclusion',
      ok: false,
      detail: `The proof is for ${receipt.treeSize} entries, the checkpoint for ${checkpoint.treeSize}.`,
    });
  } else {
    const ok = verifyInclusion(
      receipt.leafIndex,
      receipt.treeSize,
      leafHash(fromHex(receipt.entryHash)),
      receipt.inclusionProof.map(fromHex),
      checkpoint.rootHash,
    );
    checks.push({
      name: 'inclusion',
      ok,
      detail: ok
        ? `Entry ${receipt.leafIndex} is in the signed tree of ${receipt.treeSize} entries.`
        : 'The inclusion proof does not lead to the signed root.',
    });
  }

  // 4. The attachment list is the one the entry covers.
  const covered = entryAttachments(receipt);
  const listed = receipt.attachments;
  const sameList =
    covered.length === listed.length &&
    listed.every(
      (a, i) =>
        covered[i].sha256 === a.sha256 && covered[i].fileName === a.fileName && covered[i].size === a.size,
    );
  checks.push({
    name: 'attachments',
    ok: sameList,
    detail: sameList
      ? `The entry covers ${listed.length} file${listed.length === 1 ? '' : 's'}.`
      : "The receipt's list of files differs from the files the entry covers.",
  });

  // 5. The files the user has, by their SHA-256.
  for (const file of options.files ?? []) {
    const match = covered.find((a) => a.sha256 === file.sha256.toLowerCase());
    checks.push({
      name: 'files',
      ok: match !== undefined,
      detail: match
        ? `${file.name} is the file "${String(match.fileName)}" of the entry (SHA-256 ${file.sha256}).`
        : `${file.name} (SHA-256 ${file.sha256}) is not one of the entry's files.`,
    });
  }
  return result(checkpoint, receipt);
}
