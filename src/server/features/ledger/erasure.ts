// Erasure as a ledgered event (docs/decisions.md#erasure-is-an-event): `npm run ledger -- erase`
// deletes a v2 entry's opening and, in the same transaction, appends a `content_erasure` entry
// saying which entry, who, when and why. Its content is committed to like any v2 entry (the ledger
// holds salted commitments only). For a record's upload it also holds the digest of the record as
// it stood when erased, so a row changed afterwards is still caught. `verify` accepts a missing
// opening only when such an entry records it: deleting a ledger_contents row is not an erasure.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { HASH_HEX } from '../../../shared/ledger/sha256.js';
import { text } from '../../../shared/text.js';
import type { Db } from '../../db/connect.js';
import { attachments, ledgerContents, ledgerEntries, medicalRecords } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { openEntry, openingOf, recanonicalOpened, storedContent, versionOf } from './commitments.js';
import { recordLedgerContent } from './content.js';
import { sha256Hex } from './hashing.js';
import { appendLedgerEntry } from './service.js';

/** Who erases and why, as `erase --by <who> --reason <why>` takes them. */
export const erasureRequestSchema = z.object({
  by: text({ error: 'Say who erases the entry (--by).' })
    .trim()
    .min(1, 'Say who erases the entry (--by).')
    .max(200, '--by takes at most 200 characters.'),
  reason: text({ error: 'Say why the entry is erased (--reason).' })
    .trim()
    .min(1, 'Say why the entry is erased (--reason).')
    .max(500, '--reason takes at most 500 characters.'),
});
export type ErasureRequest = z.infer<typeof erasureRequestSchema>;

/** The content of a `content_erasure` entry. */
const erasureContentSchema = z.object({
  erasedSeq: z.number().int().nonnegative(),
  erasedHash: z.string().regex(HASH_HEX),
  erasedBy: z.string(),
  reason: z.string(),
  /** SHA-256 of the record's ledger content (content.ts) when its upload entry was erased. */
  recordDigest: z.string().regex(HASH_HEX).nullable(),
});

/** A recorded erasure, as verify reads it. */
export interface Erasure {
  /** The seq of the `content_erasure` entry. */
  seq: number;
  erasedSeq: number;
  erasedHash: string;
  erasedBy: string;
  reason: string;
  recordDigest: string | null;
  at: Date;
}

/** The digest an erasure keeps of a record's ledger content. */
export const recordDigestOf = (content: Record<string, unknown>) => sha256Hex(storedContent(content));

/**
 * Every erasure recorded in the ledger whose own entry opens (an erasure entry cannot itself be
 * erased, and one whose opening is missing or changed proves nothing), by the seq it erased.
 * Erasures are rare, so the audit reads them all before the entries they concern.
 */
export async function recordedErasures(db: Db): Promise<Map<number, Erasure>> {
  const rows = await db
    .select({ entry: ledgerEntries, salt: ledgerContents.salt, content: ledgerContents.content })
    .from(ledgerEntries)
    .leftJoin(ledgerContents, eq(ledgerContents.seq, ledgerEntries.seq))
    .where(eq(ledgerEntries.kind, 'content_erasure'));
  const erasures = new Map<number, Erasure>();
  for (const { entry, salt, content } of rows) {
    const opened = openEntry(entry, salt !== null && content !== null ? { salt, content } : null);
    if (opened.state !== 'open' || sha256Hex(entry.canonical) !== entry.hash) continue;
    const parsed = erasureContentSchema.safeParse(opened.content);
    const seq = Number(entry.seq);
    // An erasure can only follow the entry it erases.
    if (!parsed.success || parsed.data.erasedSeq >= seq || erasures.has(parsed.data.erasedSeq)) continue;
    erasures.set(parsed.data.erasedSeq, { seq, at: entry.createdAt, ...parsed.data });
  }
  return erasures;
}

export interface ErasureResult {
  seq: number;
  hash: string;
  kind: string;
  /** true: the opening was deleted now; false: nothing to delete (already erased, or a v1 entry). */
  erased: boolean;
  /** Nothing to delete because an earlier erasure did it (recorded then, or now with `earlier`). */
  alreadyErased: boolean;
  /** The seq of the `content_erasure` entry that records it (null when nothing was erased). */
  erasureSeq: number | null;
  message: string;
}

/**
 * Erasure: deletes the salt and content of a v2 entry (found by its number or its hash), so the
 * entry can no longer be linked to any content, and ledgers the erasure. The entry, its hash, the
 * chain and the tree stay. A v1 entry holds its content inline and cannot be erased this way (the
 * ledger is append-only); an erasure entry cannot be erased (it is what makes the missing opening
 * legitimate); nor can an upload whose record no longer matches its entry (erasing would hide it).
 */
export async function eraseEntryContent(
  db: Db,
  entryId: string,
  request: ErasureRequest,
  options: {
    now?: Date;
    /**
     * Ledger the erasure of an opening that is already gone (one deleted before erasures were
     * ledgered): the operator vouches for it, and the record's digest is taken as it stands.
     */
    earlier?: boolean;
  } = {},
): Promise<ErasureResult> {
  const now = options.now ?? new Date();
  const id = entryId.trim().toLowerCase();
  const where = /^\d{1,15}$/.test(id)
    ? eq(ledgerEntries.seq, Number(id))
    : /^[0-9a-f]{64}$/.test(id)
      ? eq(ledgerEntries.hash, id)
      : null;
  if (!where) throw badRequest('Give the entry as its number (seq) or its 64-character hash.');
  const checked = erasureRequestSchema.safeParse(request);
  if (!checked.success) throw badRequest(checked.error.issues[0].message);
  const { by, reason } = checked.data;
  return db.transaction(async (tx) => {
    const [entry] = await tx.select().from(ledgerEntries).where(where);
    if (!entry) throw notFound(`No ledger entry ${entryId}.`);
    const seq = Number(entry.seq);
    const base = { seq, hash: entry.hash, kind: entry.kind, erasureSeq: null };
    if (versionOf(entry.canonical) !== 2) {
      return {
        ...base,
        erased: false,
        alreadyErased: false,
        message: `Entry ${seq} (${entry.kind}) is a format-1 entry: its content is inside the append-only ledger and cannot be erased. Nothing was changed.`,
      };
    }
    if (entry.kind === 'content_erasure')
      throw conflict(`Entry ${seq} records an erasure: it cannot be erased itself. Nothing was changed.`);
    const opening = await openingOf(tx, seq);
    if (!opening) {
      const recorded = (await recordedErasures(tx)).get(seq);
      if (recorded)
        return {
          ...base,
          erased: false,
          alreadyErased: true,
          erasureSeq: recorded.seq,
          message: `Entry ${seq} (${entry.kind}): its content was already erased (erasure entry ${recorded.seq}). Nothing was changed.`,
        };
      if (!options.earlier)
        throw conflict(
          `Entry ${seq} (${entry.kind}): its content is missing but no erasure entry records its erasure, so it was deleted outside this command (verify reports it). Nothing was changed. If it was erased before erasures were ledgered, record that with --earlier.`,
        );
    } else if (options.earlier)
      throw conflict(
        `Entry ${seq} (${entry.kind}): its content is still there; --earlier is for one already gone.`,
      );
    const recordDigest = entry.kind === 'record_upload' ? await recordDigestAt(tx, entry, opening) : null;
    if (opening) await tx.delete(ledgerContents).where(eq(ledgerContents.seq, seq));
    const erasure = await appendLedgerEntry(
      tx,
      {
        kind: 'content_erasure',
        recordId: entry.recordId,
        patientId: entry.patientId,
        userId: null,
        content: { erasedSeq: seq, erasedHash: entry.hash, erasedBy: by, reason, recordDigest },
      },
      { now },
    );
    const done = opening
      ? 'its salt and content were deleted, recorded'
      : 'the earlier deletion of its salt and content is recorded';
    return {
      ...base,
      erased: opening !== null,
      alreadyErased: opening === null,
      erasureSeq: erasure.seq,
      message: `Entry ${seq} (${entry.kind}, hash ${entry.hash}): ${done} as erasure entry ${erasure.seq} (by ${by}). The entry, the hash chain and the Merkle tree are unchanged; the entry can no longer be linked to its content.`,
    };
  });
}

/**
 * The digest of an upload's record as it stands, once it is shown to match its entry (from the
 * rows: the attachments' recorded SHA-256, which verify checks against their bytes); without an
 * opening (`--earlier`) nothing can show that, and the digest is of the record as it is. Null when
 * the record is gone (verify reports that on its own).
 */
async function recordDigestAt(
  tx: Db,
  entry: typeof ledgerEntries.$inferSelect,
  opening: Awaited<ReturnType<typeof openingOf>>,
): Promise<string | null> {
  if (!entry.recordId) return null;
  const [record] = await tx.select().from(medicalRecords).where(eq(medicalRecords.id, entry.recordId));
  if (!record) return null;
  const rows = await tx.select().from(attachments).where(eq(attachments.recordId, record.id));
  const content = recordLedgerContent(record, rows);
  if (!opening) return recordDigestOf(content);
  const recomputed = recanonicalOpened(entry, content, opening, openEntry(entry, opening));
  if (recomputed === null || sha256Hex(recomputed) !== entry.hash)
    throw conflict(
      `Entry ${Number(entry.seq)}: record ${record.id} no longer matches its entry, and erasing the entry would hide that (run verify). Nothing was changed.`,
    );
  return recordDigestOf(content);
}
