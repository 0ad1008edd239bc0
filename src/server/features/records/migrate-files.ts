// `npm run ledger -- migrate-files`: reseals every attachment under the current FILE_ENCRYPTION_KEY
// (files/keys.ts): files sealed under a previous key, files that name no key (sealed before key
// ids), and files in the old single-GCM format ('gcm'), which become 'stream1'. Safe to run while
// the server serves and resumable: it works from the rows, a file at a time, and a stopped run is
// simply run again.
//
// Per file: the old file is decrypted in full (every chunk, or the 'gcm' tag, checked) while it is
// sealed under the current key beside it, and the new bytes are read back; their plaintext's
// SHA-256 must equal the row's (the ledger commits to it), else nothing changes. Then, in one
// transaction, the row is switched to the current key id (and 'stream1') only if it still says
// what was read, and the new bytes replace the old before the commit (a rename of the file; with
// attachments in the database, the rows swapped in the transaction). A download that had the old
// file open reads it to its end. Should the process stop between the rename and the commit, the row
// still names the old key over a file under the new one, which every reader opens by the key its
// header names; the next run reseals it again. A 'gcm' row over a 'stream1' file (the same stop)
// is completed by switching the row. When none is left, the previous keys can go.
//
// With attachments in the database (ATTACHMENT_STORE=database, the default with DATABASE_URL) the
// same command first copies every attachment that has no rows yet from DATA_DIR/attachments into
// `attachment_chunks`: per file one transaction, so a copy is whole or absent; "stream1" files
// byte for byte, "gcm" files sealed anew as "stream1" (the row switched in the same transaction).
// What was copied is read back and must hash to the row's SHA-256, else the transaction is rolled
// back. The files on disk are left in place. Then it reseals as above.
import { and, asc, eq, gt, isNull, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { attachmentChunks, attachments } from '../../db/schema.js';
import { DatabaseStore } from '../../files/backends/database.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import type { FileStore, HashStoredResult, ResealedFile } from '../../files/store.js';
import type { CommandIo } from '../ledger/command.js';

export interface MigrateFilesReport {
  /** The id of the key files are resealed under. */
  keyId: string;
  /** Rows under another key (or none, or in the old format) when the run met them. */
  toReseal: number;
  /** Of those, rows in the old single-GCM format. */
  legacy: number;
  resealed: number;
  /** 'gcm' rows over files a stopped run had resealed, whose rows this run switched. */
  completed: number;
  failed: number;
  problems: string[];
  /** Rows still not under the current key once the run ended (failed ones, or new old ones). */
  left: number;
}

class AlreadySwitched extends Error {}

type Row = typeof attachments.$inferSelect;
const STREAM_META = { format: 'stream1', iv: '', authTag: '' } as const;

/** The attachments matching `filter` in id order, a batch at a time (keyset paging: rows rewritten meanwhile are not met twice). */
async function* attachmentBatches(db: Db, filter: SQL, batchSize: number) {
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select()
      .from(attachments)
      .where(and(filter, after === null ? undefined : gt(attachments.id, after)))
      .orderBy(asc(attachments.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    yield rows;
  }
}

/** Rows not sealed under the key `keyId` (as the row says; the file's header says it too). */
export function notUnderKey(keyId: string): SQL {
  return or(ne(attachments.format, 'stream1'), isNull(attachments.keyId), ne(attachments.keyId, keyId))!;
}

/** How many attachments are not yet sealed under the key `keyId`, by the key id their rows name. */
export async function attachmentsByOtherKeys(db: Db, keyId: string): Promise<Map<string | null, number>> {
  const rows = await db
    .select({ keyId: attachments.keyId, count: sql<number>`count(*)::int` })
    .from(attachments)
    .where(notUnderKey(keyId))
    .groupBy(attachments.keyId);
  return new Map(rows.map((r) => [r.keyId, Number(r.count)]));
}

/**
 * At start-up: a sentence naming the key ids that attachments are sealed with but `files` does not
 * hold (the server then refuses to start), and one saying how many are still under previous keys.
 */
export async function keysAtStart(
  db: Db,
  files: FileStore,
): Promise<{ missing: string | null; left: string | null }> {
  const byKey = await attachmentsByOtherKeys(db, files.currentKeyId);
  const held = new Set(files.keyIds());
  const missing = [...byKey].filter(([id]) => id !== null && !held.has(id));
  let left = 0;
  for (const count of byKey.values()) left += count;
  return {
    missing:
      missing.length === 0
        ? null
        : `Attachments are sealed with key id(s) this server is not configured with: ${missing
            .map(([id, count]) => `${id} (${count} file(s))`)
            .join(
              ', ',
            )}. Add the key(s) to FILE_ENCRYPTION_PREVIOUS_KEYS (FILE_ENCRYPTION_KEY is key id ${files.currentKeyId}).`,
    left:
      left === 0
        ? null
        : `${left} attachment(s) are not yet sealed under key id ${files.currentKeyId}: run \`npm run ledger -- migrate-files\` before dropping a previous key.`,
  };
}

export async function migrateFiles(db: Db, files: FileStore, batchSize = 100): Promise<MigrateFilesReport> {
  const keyId = files.currentKeyId;
  const report: MigrateFilesReport = {
    keyId,
    toReseal: 0,
    legacy: 0,
    resealed: 0,
    completed: 0,
    failed: 0,
    problems: [],
    left: 0,
  };
  for await (const rows of attachmentBatches(db, notUnderKey(keyId), batchSize)) {
    for (const row of rows) {
      report.toReseal++;
      if (row.format === 'gcm') report.legacy++;
      const outcome = await resealOne(db, files, row);
      if (outcome === 'resealed') report.resealed++;
      else if (outcome === 'completed') report.completed++;
      else if (outcome !== 'skipped') {
        report.failed++;
        report.problems.push(`${row.id} "${row.fileName}": ${outcome.problem}`);
      }
    }
  }
  for (const count of (await attachmentsByOtherKeys(db, keyId)).values()) report.left += count;
  return report;
}

/** Switches the row to `keyId` if it still says what was read; `beforeCommit` inside the transaction. */
async function switchRow(db: Db, row: Row, keyId: string | null, beforeCommit?: (tx: Db) => Promise<void>) {
  await db.transaction(async (tx) => {
    const switched = await tx
      .update(attachments)
      .set({ ...STREAM_META, keyId })
      .where(
        and(
          eq(attachments.id, row.id),
          eq(attachments.format, row.format),
          row.keyId === null ? isNull(attachments.keyId) : eq(attachments.keyId, row.keyId),
        ),
      )
      .returning({ id: attachments.id });
    if (switched.length === 0) throw new AlreadySwitched();
    await beforeCommit?.(tx);
  });
}

function problemOf(stored: HashStoredResult): string {
  if (stored.ok) return 'it could not be resealed; it was left as it is.';
  if (stored.reason === 'missing') return 'the file is missing from storage; nothing was changed.';
  if (stored.reason === 'key-missing')
    return `it is sealed with key id ${stored.keyId}, which is not configured (FILE_ENCRYPTION_PREVIOUS_KEYS); it was left as it is.`;
  return 'the file fails its integrity check (altered on disk, or sealed with a key not configured); it was left as it is.';
}

async function resealOne(
  db: Db,
  files: FileStore,
  row: Row,
): Promise<'resealed' | 'completed' | 'skipped' | { problem: string }> {
  let resealed: ResealedFile;
  try {
    resealed = await files.reseal(row);
  } catch {
    // A 'gcm' row: a run stopped after renaming the new file but before its commit left this.
    const asStream = row.format === 'gcm' ? await files.hashStored({ ...row, ...STREAM_META }) : null;
    if (asStream?.ok && asStream.sha256 === row.sha256) {
      // Which key that file is under, its header says: the row names none, and it is resealed.
      try {
        await switchRow(db, row, null);
      } catch (err) {
        if (err instanceof AlreadySwitched) return 'skipped';
        throw err;
      }
      const outcome = await resealOne(db, files, { ...row, ...STREAM_META, keyId: null });
      return outcome === 'resealed' ? 'completed' : outcome;
    }
    return { problem: problemOf(await files.hashStored(row)) };
  }
  // The ledger commits to the plaintext's SHA-256: resealing must not change a byte.
  if (resealed.sha256 !== row.sha256 || resealed.size !== Number(row.size)) {
    await resealed.discard();
    return {
      problem: `its plaintext (SHA-256 ${resealed.sha256}) is not what its row records (${row.sha256}); it was left as it is.`,
    };
  }
  let replaced = false;
  try {
    await switchRow(db, row, resealed.keyId, async (tx) => {
      await resealed.replace(tx);
      replaced = true;
    });
    return 'resealed';
  } catch (err) {
    if (!replaced) await resealed.discard();
    if (err instanceof AlreadySwitched) return 'skipped';
    throw err;
  }
}

export interface CopyFilesReport {
  /** Attachments without rows in the database when the run started. */
  missing: number;
  copied: number;
  failed: number;
  problems: string[];
}

class CopyMismatch extends Error {}

/** Copies the files of attachments that have no rows yet from `source` into the database. */
export async function copyFilesToDatabase(
  db: Db,
  target: DatabaseStore,
  source: DirectoryStore,
  batchSize = 100,
): Promise<CopyFilesReport> {
  const report: CopyFilesReport = { missing: 0, copied: 0, failed: 0, problems: [] };
  const notCopied = notExists(
    db
      .select({ one: sql`1` })
      .from(attachmentChunks)
      .where(eq(attachmentChunks.storageKey, attachments.storageKey)),
  );
  for await (const rows of attachmentBatches(db, notCopied, batchSize)) {
    for (const row of rows) {
      report.missing++;
      const problem = await copyOne(db, target, source, row);
      if (problem === null) report.copied++;
      else {
        report.failed++;
        report.problems.push(`${row.id} "${row.fileName}": ${problem}`);
      }
    }
  }
  return report;
}

async function copyOne(
  db: Db,
  target: DatabaseStore,
  source: DirectoryStore,
  row: Row,
): Promise<string | null> {
  try {
    await db.transaction(async (tx) => {
      const copied = await target.copyFrom(source, row, tx);
      if (copied.sha256 !== row.sha256) throw new CopyMismatch();
      if (row.format !== 'stream1')
        await tx
          .update(attachments)
          .set({ ...STREAM_META, keyId: target.currentKeyId })
          .where(eq(attachments.id, row.id));
    });
    return null;
  } catch (err) {
    if (err instanceof CopyMismatch) return 'its plaintext is not what its row records; nothing was copied.';
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return 'the file is missing from DATA_DIR/attachments; nothing was copied.';
    return 'the file fails its integrity check (altered on disk); nothing was copied.';
  }
}

/**
 * Copies the files of attachments that have no rows yet into the database (`files` a
 * DatabaseStore, `source` the directory they are copied from), then reseals every attachment not
 * under the current key; prints the counts. The exit code (0 done, 1 some files failed).
 */
export async function runMigrateFiles(
  db: Db,
  files: FileStore,
  io: CommandIo,
  source?: DirectoryStore,
): Promise<number> {
  let copyFailed = 0;
  if (files instanceof DatabaseStore) {
    if (!source) throw new Error('copying into the database needs the directory to copy from');
    const copy = await copyFilesToDatabase(db, files, source);
    copyFailed = printReport(
      io,
      copy,
      [`Attachments not yet in the database: ${copy.missing}`, `Copied from ${source.dir}: ${copy.copied}`],
      ['the attachments above are not in the database', 'every attachment is in the database'],
    );
  }
  const report = await migrateFiles(db, files);
  const resealFailed = printReport(
    io,
    report,
    [
      `Current key id: ${report.keyId}`,
      `Attachments to reseal under it: ${report.toReseal} (in the old single-GCM format: ${report.legacy})`,
      `Resealed: ${report.resealed}`,
      ...(report.completed > 0
        ? [`Completed (resealed by a run that was stopped): ${report.completed}`]
        : []),
    ],
    [
      `${report.left} attachment(s) are not yet under key ${report.keyId}; keep the previous keys`,
      `every attachment is sealed under key ${report.keyId}; FILE_ENCRYPTION_PREVIOUS_KEYS can go`,
    ],
    report.left,
  );
  return copyFailed || resealFailed;
}

/** The counts, the failures, the result; the exit code (0 done, 1 some files failed). */
function printReport(
  io: CommandIo,
  report: { failed: number; problems: string[] },
  counts: string[],
  [failed, ok]: [string, string],
  left?: number,
): number {
  for (const line of counts) io.out(line);
  io.out(`Failed: ${report.failed}`);
  for (const p of report.problems) io.out(`  - ${p}`);
  if (left !== undefined) io.out(`Left: ${left}`);
  const done = report.failed === 0 && !left;
  io.out(done ? `Result: OK, ${ok}.` : `Result: FAILED, ${failed}.`);
  return done ? 0 : 1;
}

/**
 * At start-up with attachments in the database: files still in DATA_DIR/attachments whose
 * attachments have no rows yet (kept in the directory before, or by ATTACHMENT_STORE=directory)
 * are copied in, exactly as `migrate-files` does, so no record loses its files by the switch.
 * Costs one directory listing when the folder is empty, one anti-join when everything is copied.
 */
export async function copyLeftoverFilesAtStart(
  db: Db,
  files: FileStore,
  source: DirectoryStore,
): Promise<CopyFilesReport | null> {
  if (!(files instanceof DatabaseStore) || !(await source.hasAnyFile())) return null;
  return copyFilesToDatabase(db, files, source);
}
