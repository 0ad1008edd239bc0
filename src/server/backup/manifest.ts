// What backup.ts and restore.ts share: the names inside a backup file, its manifest, and how the
// PostgreSQL client tools (pg_dump, pg_restore, from PATH) are run.
import type { ChildProcess } from 'node:child_process';

/** Raised when the layout of a backup file changes; restore refuses formats it does not know. */
export const BACKUP_FORMAT = 1;
export const MANIFEST = 'medledger-backup.json';
export const DATABASE_DUMP = 'database.dump';

/** Counts read in the backup's snapshot; the restore finds the same ones or fails. */
export interface SnapshotFigures {
  ledgerEntries: number;
  records: number;
  attachments: number;
  migrations: number;
}

export const SNAPSHOT_FIGURES = `select
  (select count(*)::int from ledger_entries) as "ledgerEntries",
  (select count(*)::int from medical_records) as "records",
  (select count(*)::int from attachments) as "attachments",
  (select count(*)::int from drizzle.__drizzle_migrations) as "migrations"`;

export interface BackupManifest extends SnapshotFigures {
  format: number;
  createdAt: string;
  database: 'pglite' | 'postgres';
  attachmentStore: 'directory' | 'database';
}

/**
 * DATABASE_URL for a client tool: the password goes in PGPASSWORD, not on the command line, where
 * any user of the machine could read it.
 */
export function pgToolEnv(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Resolves when the tool exits 0; otherwise fails with what it wrote to stderr. */
export function runPgTool(child: ChildProcess, name: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', (err) =>
      reject(new Error(`${name} could not be run (${err.message}); install PostgreSQL's client tools`)),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}
