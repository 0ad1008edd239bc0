// `npm run restore -- FILE`: fills an empty data folder (PGlite) or an empty database (PostgreSQL,
// with DATA_DIR holding nothing but the keys) from a file `npm run backup` wrote, then checks what
// it restored: the figures the backup counted, `ledger verify` (chain, tree, every record), and
// every attachment read back against its SHA-256. The keys are not in a backup: the file key (and
// the ledger's signing key) must be in place first, or nothing could be read back.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { attachments } from '../db/schema.js';
import { fileStoreFor } from '../files/configured.js';
import type { FileStore } from '../files/store.js';
import { runLedgerVerify, type CommandIo } from '../features/ledger/command.js';
import { readArchive } from './archive.js';
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

/** What may already be in DATA_DIR before a restore: the keys, put back first. */
const KEPT_IN_DATA_DIR = new Set(['secrets']);
const RESTORED_FROM_DATA_DIR = ['pglite', 'attachments', 'outbox'];

class Refusal extends Error {}

function refuseMissingKeys(config: Config): void {
  const secret = (name: string) => fs.existsSync(path.join(config.dataDir, 'secrets', name));
  const missing = [
    ...(config.fileEncryptionKey || secret('file.key')
      ? []
      : ['FILE_ENCRYPTION_KEY (or DATA_DIR/secrets/file.key)']),
    ...(config.ledgerSigningKey || secret('ledger.key')
      ? []
      : ['LEDGER_SIGNING_KEY (or DATA_DIR/secrets/ledger.key)']),
  ];
  if (missing.length > 0)
    throw new Refusal(
      `A backup holds no keys, and these are not set: ${missing.join(', ')}. Put back the ones the ` +
        'backed-up installation used first: without the file key no attachment can be read, and a ' +
        'new signing key would sign checkpoints its witnesses do not know.',
    );
}

function refuseFilledDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const filled = fs.readdirSync(dataDir).filter((name) => !KEPT_IN_DATA_DIR.has(name));
  if (filled.length > 0)
    throw new Refusal(
      `DATA_DIR ${dataDir} is not empty (${filled.join(', ')}): a restore fills an empty folder ` +
        '(the keys in secrets/ aside) and never overwrites data. Name another DATA_DIR, or move these away.',
    );
}

async function refuseFilledDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg_toast%' order by 1 limit 5`,
    );
    if (rows.length > 0)
      throw new Refusal(
        `The database at DATABASE_URL is not empty (${rows.map((r) => r.name).join(', ')}...): a restore ` +
          'fills an empty database only. Create a new one (createdb) and point DATABASE_URL at it.',
      );
  } finally {
    await client.end();
  }
}

function readManifest(unpacked: string, config: Config): BackupManifest {
  const file = path.join(unpacked, MANIFEST);
  if (!fs.existsSync(file)) throw new Refusal('This is not a MedLedger backup (it has no manifest).');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT)
    throw new Refusal(
      `The backup's format is ${manifest.format}; this version reads format ${BACKUP_FORMAT}.`,
    );
  const here = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== here)
    throw new Refusal(
      manifest.database === 'postgres'
        ? 'The backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it.'
        : 'The backup is of the embedded database (PGlite): unset DATABASE_URL to restore it into DATA_DIR.',
    );
  if (manifest.attachmentStore !== config.attachmentStore)
    throw new Refusal(
      `The backup's attachments were kept ${manifest.attachmentStore === 'database' ? 'in the database' : 'in DATA_DIR'}: ` +
        `set ATTACHMENT_STORE=${manifest.attachmentStore} to restore it.`,
    );
  return manifest;
}

function loadDump(databaseUrl: string, dump: string): Promise<void> {
  const { url, env } = pgToolEnv(databaseUrl);
  return runPgTool(
    spawn(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, dump],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    ),
    'pg_restore',
  );
}

/** Every attachment row's file read back and hashed; the problems found. */
async function checkAttachments(db: Db, files: FileStore): Promise<string[]> {
  const problems: string[] = [];
  const rows = await db
    .select({
      storageKey: attachments.storageKey,
      iv: attachments.iv,
      authTag: attachments.authTag,
      format: attachments.format,
      sha256: attachments.sha256,
    })
    .from(attachments);
  for (const row of rows) {
    const result = await files.hashStored(row);
    if (!result.ok) problems.push(`attachment ${row.storageKey}: ${result.reason}`);
    else if (result.sha256 !== row.sha256) problems.push(`attachment ${row.storageKey}: SHA-256 differs`);
  }
  return problems;
}

/** The checks after a restore; true when everything restored is as the backup had it. */
async function checkRestored(config: Config, manifest: BackupManifest, io: CommandIo): Promise<boolean> {
  const database = await connect(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: path.join(config.dataDir, 'pglite') },
  );
  try {
    const result = (await database.db.execute(sql.raw(SNAPSHOT_FIGURES))) as { rows: SnapshotFigures[] };
    const found = result.rows[0];
    const differ = (['ledgerEntries', 'records', 'attachments'] as const).filter(
      (name) => found[name] !== manifest[name],
    );
    for (const name of differ)
      io.err(`${name}: the backup had ${manifest[name]}, the restore has ${found[name]}`);
    const files = fileStoreFor(config, database.db);
    const verified = await runLedgerVerify({ skipRecords: false, batchSize: 2000 }, database.db, files, io);
    const problems = await checkAttachments(database.db, files);
    for (const problem of problems.slice(0, 100)) io.err(problem);
    io.out(
      problems.length === 0
        ? `Attachments: all ${found.attachments} read back, each matches its SHA-256.`
        : `Attachments: ${problems.length} of ${found.attachments} do not read back as stored.`,
    );
    return differ.length === 0 && verified === 0 && problems.length === 0;
  } finally {
    await database.close();
  }
}

export async function runRestore(config: Config, file: string, io: CommandIo): Promise<number> {
  const source = path.resolve(file);
  let unpacked: string | undefined;
  try {
    if (!fs.existsSync(source)) throw new Refusal(`${source} does not exist.`);
    refuseMissingKeys(config);
    refuseFilledDataDir(config.dataDir);
    if (config.databaseUrl) await refuseFilledDatabase(config.databaseUrl);
    // Unpacked inside DATA_DIR, so that its folders are moved into place, not copied.
    fs.mkdirSync(config.dataDir, { recursive: true });
    unpacked = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
    readArchive(source, unpacked);
    const manifest = readManifest(unpacked, config);
    if (config.databaseUrl) await loadDump(config.databaseUrl, path.join(unpacked, DATABASE_DUMP));
    for (const name of RESTORED_FROM_DATA_DIR)
      if (fs.existsSync(path.join(unpacked, name)))
        fs.renameSync(path.join(unpacked, name), path.join(config.dataDir, name));
    fs.rmSync(unpacked, { recursive: true, force: true });
    unpacked = undefined;
    io.out(`Restored the backup of ${manifest.createdAt}; checking it.`);
    if (await checkRestored(config, manifest, io)) {
      io.out('The restore is complete and checks clean.');
      return 0;
    }
    io.err('The restore does not check clean (above); it is left in place to be looked into.');
    return 1;
  } catch (err) {
    if (err instanceof Refusal) {
      io.err(err.message);
      return 2;
    }
    throw err;
  } finally {
    if (unpacked) fs.rmSync(unpacked, { recursive: true, force: true });
  }
}
