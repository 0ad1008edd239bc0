// Signed checkpoints (c2sp.org/tlog-checkpoint). Signing is batched: the latest stored checkpoint
// is served while the tree has not grown or while it is younger than LEDGER_CHECKPOINT_SECONDS;
// otherwise a new one is signed under the ledger's advisory lock (so no append is half-way while
// the size and root are read) and stored. Every checkpoint ever served is kept in
// ledger_checkpoints, one per tree size; two processes signing the same size keep the first.
import { asc, desc, gt, sql } from 'drizzle-orm';
import { isKeyInForce, RETIRED_KEY_MESSAGE } from '../../../shared/ledger/key-rotation.js';
import { emptyRoot } from '../../../shared/ledger/merkle.js';
import type { Db } from '../../db/connect.js';
import { HttpError } from '../../errors.js';
import { ledgerCheckpoints } from '../../db/schema.js';
import { hexOf, sha256 } from './hashing.js';
import { LEDGER_LOCK_KEY } from './tree.js';
import type { LedgerSigner } from './signing.js';
import { ledgerSize, rootAt } from './tree.js';

export interface StoredCheckpoint {
  treeSize: number;
  /** Hex. */
  rootHash: string;
  /** The signed note, exactly as served. */
  note: string;
  createdAt: Date;
}

const columns = {
  treeSize: ledgerCheckpoints.treeSize,
  rootHash: ledgerCheckpoints.rootHash,
  note: ledgerCheckpoints.note,
  createdAt: ledgerCheckpoints.createdAt,
};

const toStored = (row: {
  treeSize: number;
  rootHash: string;
  note: string;
  createdAt: Date;
}): StoredCheckpoint => ({
  ...row,
  treeSize: Number(row.treeSize),
});

export async function latestCheckpoint(db: Db): Promise<StoredCheckpoint | null> {
  const [row] = await db
    .select(columns)
    .from(ledgerCheckpoints)
    .orderBy(desc(ledgerCheckpoints.treeSize))
    .limit(1);
  return row ? toStored(row) : null;
}

export interface CheckpointOptions {
  signer: LedgerSigner;
  now: Date;
  /** Seconds a checkpoint is served before a newer tree is signed. */
  intervalSeconds: number;
  /** Sign a new checkpoint now if the latest one has fewer entries (receipts need their entry in it). */
  minSize?: number;
}

/** The checkpoint to serve: the latest stored one, or a newly signed one (see the file's head). */
export async function currentCheckpoint(db: Db, options: CheckpointOptions): Promise<StoredCheckpoint> {
  const latest = await latestCheckpoint(db);
  if (latest) {
    const young = options.now.getTime() - latest.createdAt.getTime() < options.intervalSeconds * 1000;
    const coversMin = options.minSize === undefined || latest.treeSize >= options.minSize;
    if (coversMin && (young || latest.treeSize === (await ledgerSize(db)))) return latest;
  }
  return signCheckpoint(db, options.signer, options.now);
}

/** Signs and stores a checkpoint of the whole tree as it is now; returns the stored one. */
export async function signCheckpoint(db: Db, signer: LedgerSigner, now: Date): Promise<StoredCheckpoint> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LEDGER_LOCK_KEY}::bigint)`);
    // After a key rotation only the new key signs (docs/decisions.md#ledger-signing-key-rotation).
    const latest = await latestCheckpoint(tx);
    if (!(await isKeyInForce(latest?.note ?? null, signer.verifierKey)))
      throw new HttpError(503, RETIRED_KEY_MESSAGE);
    const treeSize = await ledgerSize(tx);
    const root = treeSize === 0 ? emptyRoot(sha256) : await rootAt(tx, treeSize);
    const note = signer.signCheckpoint({ treeSize, rootHash: root });
    const [inserted] = await tx
      .insert(ledgerCheckpoints)
      .values({ treeSize, rootHash: hexOf(root), note, createdAt: now })
      .onConflictDoNothing()
      .returning(columns);
    if (inserted) return toStored(inserted);
    // This size was signed before (by this key or an earlier one): serve what was served then.
    const [existing] = await tx
      .select(columns)
      .from(ledgerCheckpoints)
      .where(sql`${ledgerCheckpoints.treeSize} = ${treeSize}`);
    return toStored(existing);
  });
}

export const CHECKPOINT_PAGE = 100;

/** Stored checkpoints with a tree size above `after`, oldest first, at most `limit`. */
export async function checkpointsAfter(
  db: Db,
  after: number,
  limit = CHECKPOINT_PAGE,
): Promise<{ checkpoints: StoredCheckpoint[]; next: number | null }> {
  const rows = await db
    .select(columns)
    .from(ledgerCheckpoints)
    .where(gt(ledgerCheckpoints.treeSize, after))
    .orderBy(asc(ledgerCheckpoints.treeSize))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map(toStored);
  return { checkpoints: page, next: rows.length > limit ? page[page.length - 1].treeSize : null };
}
