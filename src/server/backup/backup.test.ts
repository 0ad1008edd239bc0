// npm run backup / restore (backup.ts, restore.ts) with real uploads: on PGlite (the folder closed;
// refused while another process holds it) and on PostgreSQL while uploads go on (the snapshot's
// figures restored exactly), with attachments in the database and in DATA_DIR. Each restore is
// checked by the command itself and here, byte for byte, through the restored app's downloads.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateFiles } from '../features/records/migrate-files.js';
import { uploadRecord, samplePdf } from '../features/records/testing.js';
import { addPatient, createTestAppOn, signedInHospital, useTempDirs } from '../test/helpers.js';
import { processDatabase } from '../test/server-process.js';
import { runBackup } from './backup.js';
import { runRestore } from './restore.js';

const tempDir = useTempDirs('medledger-backup-');

function capture() {
  const lines: string[] = [];
  return {
    io: { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) },
    text: () => lines.join('\n'),
  };
}

/** Where an installation keeps its data; the rest of its configuration is the default one. */
type Installation = Pick<Config, 'dataDir' | 'attachmentStore'> &
  Partial<Pick<Config, 'databaseUrl' | 'fileEncryptionKey' | 'previousFileEncryptionKeys'>>;

const configFor = (dataDir: string, more: Partial<Installation> = {}): Config => ({
  ...loadConfig({}),
  dataDir,
  ...more,
});

const installationOf = (config: Config): Installation => ({
  dataDir: config.dataDir,
  attachmentStore: config.attachmentStore,
  databaseUrl: config.databaseUrl,
  fileEncryptionKey: config.fileEncryptionKey,
  previousFileEncryptionKeys: config.previousFileEncryptionKeys,
});

const openDatabase = (config: Config) =>
  connect(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { pgliteDir: path.join(config.dataDir, 'pglite') },
  );

/** A random PDF, different each time, spanning several of the store's 64 KiB chunks. */
const randomPdf = () => Buffer.concat([samplePdf(crypto.randomUUID()), crypto.randomBytes(150 * 1024)]);

/** The keys of one installation, put into a new DATA_DIR as an operator puts them back. */
function copyKeys(from: string, to: string) {
  fs.cpSync(path.join(from, 'secrets'), path.join(to, 'secrets'), { recursive: true });
}

interface Upload {
  url: string;
  bytes: Buffer;
}

/** Signs a hospital up on `config`'s database, adds a patient and uploads `count` records. */
async function fillInstallation(config: Config, count: number) {
  const t = await createTestAppOn(await openDatabase(config), installationOf(config));
  const { cookie } = await signedInHospital(t.app);
  const patient = await addPatient(t.app, cookie);
  const upload = async (): Promise<Upload> => {
    const bytes = randomPdf();
    const res = await uploadRecord(t.app, cookie, patient.id, { files: [{ fileName: 'scan.pdf', bytes }] });
    expect(res.statusCode, res.body).toBe(201);
    return { url: res.json<{ attachments: { url: string }[] }>().attachments[0].url, bytes };
  };
  const uploads: Upload[] = [];
  for (let i = 0; i < count; i++) uploads.push(await upload());
  return { t, cookie, upload, uploads };
}

/**
 * Downloads each upload through an app on the restored installation: how many were there, each
 * byte for byte (the others answer 404: not in the backup, never half of one).
 */
async function downloadsFound(config: Config, cookie: string, uploads: Upload[]): Promise<number> {
  const t = await createTestAppOn(await openDatabase(config), installationOf(config));
  let found = 0;
  try {
    for (const { url, bytes } of uploads) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      if (res.statusCode === 404) continue;
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      found++;
    }
  } finally {
    await t.close();
  }
  return found;
}

describe('backup and restore on PGlite', () => {
  // One installation with three uploads, its server stopped, backed up once for every test here.
  let source: Config;
  let cookie: string;
  let uploads: Upload[];
  let file: string;
  const keep: string[] = [];
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-backup-source-'));
    keep.push(dir);
    source = configFor(path.join(dir, 'data'));
    const filled = await fillInstallation(source, 3);
    ({ cookie, uploads } = filled);
    await filled.t.close();
    file = path.join(dir, 'medledger.backup');
  });
  afterAll(() => keep.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('refuses while another process holds the data folder, then backs it up once it is closed', async () => {
    // A running server's lock: a live process (this one's parent) named in the lock file.
    const lock = path.join(source.dataDir, 'pglite', 'medledger.lock');
    fs.writeFileSync(lock, String(process.ppid));
    const held = capture();
    expect(await runBackup(source, file, held.io)).toBe(1);
    expect(held.text()).toContain(`is in use by another process (pid ${process.ppid})`);
    expect(fs.existsSync(file)).toBe(false);
    fs.rmSync(lock);

    const backup = capture();
    expect(await runBackup(source, file, backup.io), backup.text()).toBe(0);
    expect(backup.text()).toContain('3 records, 3 attachments (3 files)');
    expect(fs.statSync(file).mode & 0o077).toBe(0); // its owner's only
    expect(fs.readdirSync(path.join(source.dataDir, 'outbox')).length).toBeGreaterThan(0);
    const again = capture();
    expect(await runBackup(source, file, again.io)).toBe(2);
    expect(again.text()).toContain('already exists');
  });

  it('restores into an empty folder holding the keys, checked, and refuses a filled one', async () => {
    const target = configFor(tempDir());
    copyKeys(source.dataDir, target.dataDir);
    const restore = capture();
    expect(await runRestore(target, file, restore.io), restore.text()).toBe(0);
    expect(restore.text()).toContain('Attachments: all 3 read back, each matches its SHA-256.');
    expect(restore.text()).toContain('The restore is complete and checks clean.');
    expect(fs.readdirSync(path.join(target.dataDir, 'outbox')).sort()).toEqual(
      fs.readdirSync(path.join(source.dataDir, 'outbox')).sort(),
    );
    expect(fs.existsSync(path.join(target.dataDir, 'pglite', 'medledger.lock'))).toBe(false);
    // The session cookie is in the restored database too.
    expect(await downloadsFound(target, cookie, uploads)).toBe(3);

    // A second restore into the now filled folder is refused and changes nothing.
    const again = capture();
    expect(await runRestore(target, file, again.io)).toBe(2);
    expect(again.text()).toMatch(/DATA_DIR .* is not empty \(attachments, outbox, pglite\)/);
  });

  it('refuses a restore without the keys', async () => {
    const keyless = capture();
    const target = configFor(tempDir());
    expect(await runRestore(target, file, keyless.io)).toBe(2);
    expect(keyless.text()).toContain('A backup holds no keys');
    expect(fs.readdirSync(target.dataDir)).toEqual([]);
  });

  it('restores under a rotated key (the old one among the previous keys), reseals, and serves without the old key', async () => {
    const oldKey = fs.readFileSync(path.join(source.dataDir, 'secrets', 'file.key'), 'utf8').trim();
    const newKey = crypto.randomBytes(32).toString('hex');
    const dir = tempDir();
    const rotated = configFor(dir, { fileEncryptionKey: newKey, previousFileEncryptionKeys: [oldKey] });
    copyKeys(source.dataDir, dir);
    const restore = capture();
    expect(await runRestore(rotated, file, restore.io), restore.text()).toBe(0);
    expect(restore.text()).toContain('Attachments: all 3 read back, each matches its SHA-256.');
    expect(await downloadsFound(rotated, cookie, uploads)).toBe(3);

    const t = await createTestAppOn(await openDatabase(rotated), installationOf(rotated));
    try {
      expect(await migrateFiles(t.ctx.db, t.ctx.files)).toMatchObject({ left: 0 });
    } finally {
      await t.close();
    }
    // The old key gone: every attachment still byte for byte.
    const newOnly = configFor(dir, { fileEncryptionKey: newKey, previousFileEncryptionKeys: [] });
    expect(await downloadsFound(newOnly, cookie, uploads)).toBe(3);
  });

  it('reports every attachment that does not read back (a restore under another file key)', async () => {
    const target = configFor(tempDir(), { fileEncryptionKey: crypto.randomBytes(32).toString('hex') });
    copyKeys(source.dataDir, target.dataDir); // the ledger key; the file key given is another
    const restore = capture();
    expect(await runRestore(target, file, restore.io)).toBe(1);
    expect(restore.text()).toContain('Attachments: 3 of 3 do not read back as stored.');
    expect(restore.text()).toContain('does not check clean');
  });
});

describe.each(['database', 'directory'] as const)(
  'backup and restore on PostgreSQL (attachments in %s)',
  (store) => {
    let server: { url: string; close(): Promise<void> };
    beforeAll(async () => {
      server = await processDatabase();
    });
    afterAll(() => server?.close());

    /** A new, empty database on the same server. */
    async function emptyDatabase(): Promise<string> {
      const name = `medledger_restore_${crypto.randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query(`create database ${name}`); // the name is made here from hex only
      await client.end();
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      return url.toString();
    }

    it('backs up one snapshot while uploads go on, and restores exactly it into an empty database', async () => {
      const source = configFor(tempDir(), { databaseUrl: await emptyDatabase(), attachmentStore: store });
      const { t, cookie, upload, uploads } = await fillInstallation(source, 3);
      const file = path.join(tempDir(), 'medledger.backup');
      const backup = capture();
      // Uploads keep committing while the backup runs; the backup holds whatever its snapshot saw.
      const [code, ...during] = await Promise.all([
        runBackup(source, file, backup.io),
        upload(),
        upload(),
        upload(),
      ]);
      await t.close();
      expect(code, backup.text()).toBe(0);
      const inBackup = Number(/(\d+) attachments/.exec(backup.text())![1]);
      expect(inBackup).toBeGreaterThanOrEqual(3);
      expect(inBackup).toBeLessThanOrEqual(6);

      const target = configFor(tempDir(), { databaseUrl: await emptyDatabase(), attachmentStore: store });
      copyKeys(source.dataDir, target.dataDir);
      const restore = capture();
      expect(await runRestore(target, file, restore.io), restore.text()).toBe(0);
      expect(restore.text()).toContain(`Attachments: all ${inBackup} read back, each matches its SHA-256.`);
      expect(await downloadsFound(target, cookie, uploads)).toBe(3);
      expect(await downloadsFound(target, cookie, during)).toBe(inBackup - 3);

      const again = capture();
      const refill = configFor(tempDir(), { databaseUrl: target.databaseUrl, attachmentStore: store });
      copyKeys(source.dataDir, refill.dataDir);
      expect(await runRestore(refill, file, again.io)).toBe(2);
      expect(again.text()).toContain('The database at DATABASE_URL is not empty');
    });
  },
);
