// Public reads of the ledger: the tree head, an entry's inclusion proof found by its hash or by the
// SHA-256 of a file it covers, and consistency proofs. Nothing here returns an entry's content,
// ids or canonical text: only hashes, positions, times and kinds (and, for a file, whether its
// provider is verified, without naming it). A file is found through the content of the entry that
// covers it (inline in v1, the opening in ledger_contents in v2), so an erased entry no longer
// answers for its files.
import { and, asc, eq, sql } from 'drizzle-orm';
import { emptyRoot } from '../../../shared/ledger/merkle.js';
import type { Db } from '../../db/connect.js';
import { preparedPerDb } from '../../db/prepared.js';
import type { RecordFate } from '../../../shared/ledger/api.js';
import { attachments, ledgerContents, ledgerEntries, medicalRecords, users } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { openEntry } from './commitments.js';
import { hexOf, sha256 } from './hashing.js';
import { consistencyProof, inclusionProof, ledgerSize, nodesFromJson, rootAt } from './tree.js';

export interface TreeHead {
  treeSize: number;
  rootHash: string;
}

export interface EntryProof extends TreeHead {
  hash: string;
  leafIndex: number;
  auditPath: string[];
  createdAt: string;
  kind: string;
}

/** The size to answer at: the current size, or an earlier one the client asks for. */
async function sizeAt(db: Db, requested?: number, current?: number): Promise<number> {
  const size = current ?? (await ledgerSize(db));
  if (requested === undefined) return size;
  if (requested > size) throw badRequest(`The ledger has only ${size} entries.`);
  return requested;
}

export async function treeHead(db: Db, requestedSize?: number): Promise<TreeHead> {
  const treeSize = await sizeAt(db, requestedSize);
  const root = treeSize === 0 ? emptyRoot(sha256) : await rootAt(db, treeSize);
  return { treeSize, rootHash: hexOf(root) };
}

async function proofFor(
  db: Db,
  entry: { seq: number; hash: string; createdAt: Date; kind: string; currentSize: number },
  requestedSize?: number,
  stored?: Map<string, Uint8Array>,
): Promise<EntryProof> {
  const treeSize = await sizeAt(db, requestedSize, Number(entry.currentSize));
  if (entry.seq >= treeSize) throw badRequest(`The entry was added after the tree had ${treeSize} entries.`);
  const { auditPath, rootHash } = await inclusionProof(db, entry.seq, treeSize, stored);
  return {
    hash: entry.hash,
    leafIndex: entry.seq,
    treeSize,
    rootHash: hexOf(rootHash),
    auditPath: auditPath.map(hexOf),
    createdAt: entry.createdAt.toISOString(),
    kind: entry.kind,
  };
}

const entryColumns = {
  seq: ledgerEntries.seq,
  hash: ledgerEntries.hash,
  createdAt: ledgerEntries.createdAt,
  kind: ledgerEntries.kind,
  // The tree size read with the entry saves a round trip (the primary key index answers it).
  currentSize: sql<number>`(select coalesce(max(${ledgerEntries.seq}) + 1, 0) from ${ledgerEntries})`,
};

/**
 * The verify page's lookup: the entry with this hash and the stored subtrees of its inclusion proof,
 * one statement (the function medledger_entry_proof, migration 0023) prepared once per database
 * (db/prepared.ts). bench:ledger, proofs at 10^6 entries: as two statements 1.43-1.50 ms on PGlite
 * and 0.76 on PostgreSQL, as this one 0.90-0.94 and 0.56.
 */
const entryWithProofNodes = preparedPerDb((db) =>
  db
    .select({
      seq: sql`proof.seq`.mapWith(ledgerEntries.seq),
      hash: sql<string>`proof.hash`,
      createdAt: sql`proof.created_at`.mapWith(ledgerEntries.createdAt),
      kind: sql<string>`proof.kind`,
      currentSize: sql`proof.current_size`.mapWith(Number),
      nodes: sql<[number, number, string][]>`proof.nodes`,
    })
    .from(sql`medledger_entry_proof(${sql.placeholder('hash')}, ${sql.placeholder('size')}::bigint) as proof`)
    .prepare('ledger_entry_proof'),
);

/** The entry with this hash (lowercase hex) and its inclusion proof, or null. */
export async function entryProofByHash(
  db: Db,
  hash: string,
  requestedSize?: number,
): Promise<EntryProof | null> {
  const [entry] = await entryWithProofNodes(db).execute({ hash, size: requestedSize ?? null });
  return entry ? proofFor(db, entry, requestedSize, nodesFromJson(entry.nodes)) : null;
}

/**
 * For an entry about a record: whether the record's hospital is a verified provider (never which
 * hospital); null for entries about no record.
 */
export async function entryProviderVerified(db: Db, hash: string): Promise<boolean | null> {
  const [row] = await db
    .select({ verifiedAt: users.verifiedAt })
    .from(ledgerEntries)
    .innerJoin(medicalRecords, eq(medicalRecords.id, ledgerEntries.recordId))
    .innerJoin(users, eq(users.id, medicalRecords.hospitalId))
    .where(eq(ledgerEntries.hash, hash));
  return row ? row.verifiedAt !== null : null;
}

/**
 * The record_upload entry that covers a file with this SHA-256, and its proof, or null: of the
 * records holding the file, a current one first (an amendment may carry a file over), else the
 * first. The attachment row only points at candidates; the entry's own content must list the hash.
 */
export async function entryProofByFileHash(
  db: Db,
  sha256: string,
): Promise<{ entry: EntryProof; fate: RecordFate; providerVerified: boolean } | null> {
  const candidates = await db
    .selectDistinct({
      ...entryColumns,
      canonical: ledgerEntries.canonical,
      salt: ledgerContents.salt,
      content: ledgerContents.content,
      recordId: medicalRecords.id,
      supersededById: medicalRecords.supersededById,
      enteredInErrorAt: medicalRecords.enteredInErrorAt,
      providerVerifiedAt: users.verifiedAt,
    })
    .from(attachments)
    .innerJoin(medicalRecords, eq(medicalRecords.id, attachments.recordId))
    .innerJoin(users, eq(users.id, medicalRecords.hospitalId))
    .innerJoin(
      ledgerEntries,
      and(eq(ledgerEntries.recordId, attachments.recordId), eq(ledgerEntries.kind, 'record_upload')),
    )
    .leftJoin(ledgerContents, eq(ledgerContents.seq, ledgerEntries.seq))
    .where(eq(attachments.sha256, sha256))
    .orderBy(asc(ledgerEntries.seq))
    .limit(20);
  const covering = candidates.filter((c) =>
    coversFile(
      c.canonical,
      c.salt !== null && c.content !== null ? { salt: c.salt, content: c.content } : null,
      sha256,
    ),
  );
  const chosen = covering.find((c) => !c.supersededById && !c.enteredInErrorAt) ?? covering[0];
  if (!chosen) return null;
  const entry = await proofFor(db, { ...chosen, seq: Number(chosen.seq) });
  return { entry, fate: await fateOf(db, chosen), providerVerified: chosen.providerVerifiedAt !== null };
}

async function fateOf(
  db: Db,
  record: { recordId: string; supersededById: string | null; enteredInErrorAt: Date | null },
): Promise<RecordFate> {
  const later = async (recordId: string, kind: 'record_upload' | 'record_entered_in_error') => {
    const [row] = await db
      .select({ hash: ledgerEntries.hash, createdAt: ledgerEntries.createdAt })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.recordId, recordId), eq(ledgerEntries.kind, kind)))
      .orderBy(asc(ledgerEntries.seq))
      .limit(1);
    return row ? { hash: row.hash, createdAt: row.createdAt.toISOString() } : null;
  };
  return {
    documentStatus: record.enteredInErrorAt
      ? 'entered-in-error'
      : record.supersededById
        ? 'superseded'
        : 'current',
    supersededBy: record.supersededById ? await later(record.supersededById, 'record_upload') : null,
    enteredInError: record.enteredInErrorAt ? await later(record.recordId, 'record_entered_in_error') : null,
  };
}

/** The public answer for a file hash: found or not, the entry's proof, what became of its record. */
export async function fileVerification(db: Db, sha256: string) {
  const found = await entryProofByFileHash(db, sha256);
  return {
    found: found !== null,
    sha256,
    entry: found?.entry ?? null,
    fate: found?.fate ?? null,
    // Whether the hospital that entered the file is a verified provider; never which hospital.
    providerVerified: found?.providerVerified ?? null,
  };
}

function coversFile(
  canonical: string,
  opening: { salt: string; content: string } | null,
  sha256: string,
): boolean {
  const opened = openEntry({ canonical }, opening);
  if (opened.state !== 'open') return false;
  const list = opened.content.attachments;
  return Array.isArray(list) && list.some((a) => (a as { sha256?: unknown } | null)?.sha256 === sha256);
}

export async function consistency(
  db: Db,
  from: number,
  to: number,
): Promise<{ from: number; to: number; proof: string[] }> {
  if (from > to) throw badRequest('from must not be larger than to.');
  const size = await ledgerSize(db);
  if (to > size) throw badRequest(`The ledger has only ${size} entries.`);
  return { from, to, proof: (await consistencyProof(db, from, to)).map(hexOf) };
}
