// `npm run backup -- FILE`: one file with everything a restore needs but the keys (restore.ts reads
// it back). What goes in, for the configuration the server runs with:
//  - the database: on PostgreSQL a pg_dump taken in a snapshot exported by one REPEATABLE READ
//    transaction (safe while the server runs and writes); on PGlite the data folder, copied while
//    this command holds the folder's lock (refused, saying so, while a server has it open);
//  - the attachments: in the dump when PostgreSQL keeps them (ATTACHMENT_STORE=database), else the
//    files of DATA_DIR/attachments that rows of the same snapshot name (a file is written before
//    its row commits and never changed after, so every one named is complete);
//  - the mail outbox (DATA_DIR/outbox); the notification queue is in the database.
// Never DATA_DIR/secrets: the keys are backed up apart (README, "Running it for real").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../config.js';
import { connect, DataFolderInUseError, lockFolder } from '../db/connect.js';
import type { CommandIo } from '../features/ledger/command.js';
import { writeArchive, type ArchiveSource } from './archive.js';
import {
  BACKUP_FORMAT,
  DATABASE_DUMP,
  MANIFEST,
  pgToolEnv,
  runPgTool,
  SNAPSHOT_FIGURES,
  type BackupManifest,
  type SnapshotFigures,
} from './manifest.js';

interface Snapshot {
  figures: SnapshotFigures;
  /** Storage keys of the attachments kept in DATA_DIR/attachments (none with the database store). */
  fileKeys: string[];
}

/** What the snapshot holds, read in it: the figures the restore checks and the files it names. */
async function readSnapshot(
  query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>,
  config: Config,
): Promise<Snapshot> {
  const figures = (await query(SNAPSHOT_FIGURES)).rows[0] as unknown as SnapshotFigures;
  const fileKeys =
    config.attachmentStore === 'directory'
      ? (await query('select storage_key from attachments order by storage_key')).rows.map((row) =>
          String(row.storage_key),
        )
      : [];
  return { figures, fileKeys };
}

/** pg_dump of the database in the snapshot `snapshotId` (exported by a transaction still open). */
function dumpDatabase(databaseUrl: string, snapshotId: string, file: string): Promise<void> {
  const { url, env } = pgToolEnv(databaseUrl);
  return runPgTool(
    spawn('pg_dump', ['--format=custom', `--snapshot=${snapshotId}`, `--file=${file}`, `--dbname=${url}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
    'pg_dump',
  );
}

/** The PostgreSQL database, dumped in one snapshot while the server may go on writing. */
async function snapshotPostgres(config: Config, workDir: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const exported = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const snapshotId = exported.rows[0].id;
    const snapshot = await readSnapshot((text) => client.query(text), config);
    await dumpDatabase(config.databaseUrl!, snapshotId, path.join(workDir, DATABASE_DUMP));
    await client.query('commit');
    return snapshot;
  } finally {
    await client.end();
  }
}

/** The PGlite folder's figures, read with the folder locked (refused while a server has it). */
async function snapshotPglite(pgliteDir: string, config: Config): Promise<Snapshot> {
  const database = await connect({ pgliteDir, migrate: false });
  try {
    const query = async (text: string) =>
      (await database.db.execute(sql.raw(text))) as { rows: Record<string, unknown>[] };
    return await readSnapshot(query, config);
  } finally {
    await database.close();
  }
}

const present = (dataDir: string, name: string) => fs.existsSync(path.join(dataDir, name));

export async function runBackup(config: Config, file: string, io: CommandIo): Promise<number> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) {
    io.err(`${target} already exists; name a new file.`);
    return 2;
  }
  const onPostgres = Boolean(config.databaseUrl);
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!onPostgres && !present(config.dataDir, 'pglite')) {
    io.err(`There is no embedded database in ${pgliteDir} to back up (DATA_DIR, or set DATABASE_URL).`);
    return 2;
  }
  const workDir = fs.mkdtempSync(path.join(path.dirname(target), '.medledger-backup-'));
  let unlock = () => {};
  try {
    const snapshot = onPostgres
      ? await snapshotPostgres(config, workDir)
      : await snapshotPglite(pgliteDir, config);
    // PGlite is closed now; the folder stays locked while it is copied.
    if (!onPostgres) unlock = lockFolder(pgliteDir);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      database: onPostgres ? 'postgres' : 'pglite',
      attachmentStore: config.attachmentStore,
      ...snapshot.figures,
    };
    fs.writeFileSync(path.join(workDir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // A file the database names but the folder lacks is already lost: the backup goes on, and says
    // so (a restore's check reports it again).
    const files = snapshot.fileKeys.map((key) => path.join('attachments', key));
    const lost = files.filter((name) => !present(config.dataDir, name));
    if (lost.length > 0)
      io.err(
        `${lost.length} attachment file(s) named by the database are missing from DATA_DIR: ${lost.slice(0, 10).join(', ')}`,
      );
    const fromDataDir = [
      ...(onPostgres ? [] : ['pglite']),
      ...files.filter((name) => !lost.includes(name)),
      ...(present(config.dataDir, 'outbox') ? ['outbox'] : []),
    ];
    const sources: ArchiveSource[] = [
      { folder: workDir, names: onPostgres ? [MANIFEST, DATABASE_DUMP] : [MANIFEST] },
      ...(fromDataDir.length > 0 ? [{ folder: config.dataDir, names: fromDataDir }] : []),
    ];
    writeArchive(target, sources, workDir);
    io.out(
      `Backed up ${manifest.database === 'postgres' ? 'the PostgreSQL database' : `the embedded database in ${pgliteDir}`}: ` +
        `${manifest.ledgerEntries} ledger entries, ${manifest.records} records, ${manifest.attachments} attachments` +
        `${config.attachmentStore === 'directory' ? ` (${files.length - lost.length} files)` : ' (in the database)'}, ` +
        `to ${target}. The keys are not in it: keep FILE_ENCRYPTION_KEY and LEDGER_SIGNING_KEY ` +
        '(or DATA_DIR/secrets) apart.',
    );
    return 0;
  } catch (err) {
    if (err instanceof DataFolderInUseError) {
      io.err(`${err.message} A backup of the embedded database needs the folder closed.`);
      return 1;
    }
    throw err;
  } finally {
    unlock();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
