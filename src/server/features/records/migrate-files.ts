// `npm run ledger -- migrate-files`: rewrites every attachment still in the single-GCM format
// ('gcm', written before the chunked format) as 'stream1', under the same storage key.
//
// Per file: the old file is decrypted in full and its tag checked while the new file is written to
// a temporary name and fsynced; the plaintext's SHA-256 must equal the row's (the ledger commits to
// it), else nothing changes. Then, in one transaction, the row is switched to 'stream1' and the new
// file renamed over the old one before the commit. Should the process stop between that rename and
// the commit, the row still says 'gcm' over a 'stream1' file: the next run finds that file already
// converted (it verifies as 'stream1' with the row's SHA-256) and only switches the row. Running it
// again converts nothing more. Best run with the server stopped: a download that read a row just
// before its file was converted breaks off (and is audited) and has to be retried.
//
// With attachments in the database (ATTACHMENT_STORE=database, the default with DATABASE_URL) the
// same command copies every attachment that has no rows yet from DATA_DIR/attachments into
// `attachment_chunks`: per file one transaction, so a copy is whole or absent; "stream1" files
// byte for byte, "gcm" files sealed anew as "stream1" (the row switched in the same transaction).
// What was copied is read back and must hash to the row's SHA-256, else the transaction is rolled
// back. The files on disk are left in place.
import { and, asc, eq, gt, notExists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { attachmentChunks, attachments } from '../../db/schema.js';
import { DatabaseStore } from '../../files/database-store.js';
import { DirectoryStore, type FileStore } from '../../files/store.js';
import type { CommandIo } from '../ledger/command.js';

export interface MigrateFilesReport {
  /** Rows in the old format when the run started (as the run found them). */
  legacy: number;
  converted: number;
  /** Files a stopped run had converted, whose rows this run switched. */
  completed: number;
  failed: number;
  problems: string[];
}

class AlreadyConverted extends Error {}

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

export async function migrateFiles(
  db: Db,
  files: DirectoryStore,
  batchSize = 100,
): Promise<MigrateFilesReport> {
  const report: MigrateFilesReport = { legacy: 0, converted: 0, completed: 0, failed: 0, problems: [] };
  for await (const rows of attachmentBatches(db, eq(attachments.format, 'gcm'), batchSize)) {
    for (const row of rows) {
      report.legacy++;
      const outcome = await migrateOne(db, files, row);
      if (outcome === 'converted') report.converted++;
      else if (outcome === 'completed') report.completed++;
      else if (outcome !== 'skipped') {
        report.failed++;
        report.problems.push(`${row.id} "${row.fileName}": ${outcome.problem}`);
      }
    }
  }
  return report;
}

async function switchRow(db: Db, row: Row, beforeCommit?: () => Promise<void>) {
  await db.transaction(async (tx) => {
    const switched = await tx
      .update(attachments)
      .set(STREAM_META)
      .where(and(eq(attachments.id, row.id), eq(attachments.format, 'gcm')))
      .returning({ id: attachments.id });
    if (switched.length === 0) throw new AlreadyConverted();
    await beforeCommit?.();
  });
}

async function migrateOne(
  db: Db,
  files: DirectoryStore,
  row: Row,
): Promise<'converted' | 'completed' | 'skipped' | { problem: string }> {
  let rewrite: Awaited<ReturnType<DirectoryStore['rewriteLegacy']>>;
  try {
    rewrite = await files.rewriteLegacy(row);
  } catch {
    // A run stopped after renaming the new file but before its commit left this.
    const asStream = await files.hashStored({ ...row, ...STREAM_META });
    if (asStream.ok && asStream.sha256 === row.sha256) {
      try {
        await switchRow(db, row);
        return 'completed';
      } catch (err) {
        if (err instanceof AlreadyConverted) return 'skipped';
        throw err;
      }
    }
    const stored = await files.hashStored(row);
    return {
      problem:
        !stored.ok && stored.reason === 'missing'
          ? 'the file is missing from storage; nothing was changed.'
          : 'the file fails its integrity check (altered on disk); it was left as it is.',
    };
  }
  // The ledger commits to the plaintext's SHA-256: a conversion must not change a byte.
  if (rewrite.sha256 !== row.sha256 || rewrite.size !== Number(row.size)) {
    await rewrite.discard();
    return {
      problem: `its plaintext (SHA-256 ${rewrite.sha256}) is not what its row records (${row.sha256}); it was left as it is.`,
    };
  }
  let replaced = false;
  try {
    await switchRow(db, row, async () => {
      await rewrite.replace();
      replaced = true;
    });
    return 'converted';
  } catch (err) {
    if (!replaced) await rewrite.discard();
    if (err instanceof AlreadyConverted) return 'skipped';
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
        await tx.update(attachments).set(STREAM_META).where(eq(attachments.id, row.id));
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
 * Runs the conversion (attachments on disk) or the copy into the database (`files` a
 * DatabaseStore, `source` the directory the files are copied from) and prints its counts; the
 * exit code (0 done, 1 some files failed).
 */
export async function runMigrateFiles(
  db: Db,
  files: FileStore,
  io: CommandIo,
  source?: DirectoryStore,
): Promise<number> {
  if (files instanceof DatabaseStore) {
    if (!source) throw new Error('copying into the database needs the directory to copy from');
    const report = await copyFilesToDatabase(db, files, source);
    return printReport(
      io,
      report,
      [
        `Attachments not yet in the database: ${report.missing}`,
        `Copied from ${source.dir}: ${report.copied}`,
      ],
      ['the attachments above are not in the database', 'every attachment is in the database'],
    );
  }
  if (!(files instanceof DirectoryStore)) throw new Error('unknown attachment store');
  const report = await migrateFiles(db, files);
  return printReport(
    io,
    report,
    [
      `Attachments in the old single-GCM format: ${report.legacy}`,
      `Converted to the chunked format: ${report.converted}`,
      ...(report.completed > 0
        ? [`Completed (converted by a run that was stopped): ${report.completed}`]
        : []),
    ],
    ['the files above are still in the old format', 'every attachment is in the chunked format'],
  );
}

/** The counts, the failures, the result; the exit code (0 done, 1 some files failed). */
function printReport(
  io: CommandIo,
  report: { failed: number; problems: string[] },
  counts: string[],
  [failed, ok]: [string, string],
): number {
  for (const line of counts) io.out(line);
  io.out(`Failed: ${report.failed}`);
  for (const p of report.problems) io.out(`  - ${p}`);
  io.out(report.failed > 0 ? `Result: FAILED, ${failed}.` : `Result: OK, ${ok}.`);
  return report.failed > 0 ? 1 : 0;
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
