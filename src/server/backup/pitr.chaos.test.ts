// The recipe of docs/backup.md, "Continuous backup and point-in-time recovery with pgBackRest", run
// as written on a throw-away cluster: WAL archived by archive_command into a local repository, a
// full backup, uploads, a time noted, more uploads, a restore to that time into a new data folder,
// and a server process on the restored cluster that serves the first uploads (not the later ones),
// with `npm run ledger -- verify` clean.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/free-port.js';
import { findPgBinDir, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.js';
import { connect } from '../db/connect.js';
import { uploadRecord, samplePdf } from '../features/records/testing.js';
import { addPatient, createTestAppOn, signedInHospital, type TestApp } from '../test/helpers.js';
import { PROCESS_ORIGIN, startServerProcess } from '../test/server-process.js';

const asRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL or pgBackRest command as the user the cluster runs as. */
function asPostgres(command: string, args: string[]): string {
  return asRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : execFileSync(command, args, { encoding: 'utf8' });
}

const FILE_KEY = crypto.randomBytes(32).toString('hex');
const LEDGER_KEY = crypto.randomBytes(32).toString('hex');
const STANZA = 'medledger';

let binDir: string;
let cluster: PgCluster;
let work: string;
let conf: string;
let restoredDir: string | undefined;
const pgbackrest = (...args: string[]) =>
  asPostgres('pgbackrest', [`--config=${conf}`, `--stanza=${STANZA}`, ...args]);

beforeAll(async () => {
  binDir = findPgBinDir()!;
  if (!binDir) throw new Error('This test needs PostgreSQL installed (apt-get install -y postgresql).');
  cluster = await startPgCluster(binDir, { quiet: true });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-pitr-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', work]);
  const port = new URL(cluster.url).port;
  conf = path.join(work, 'pgbackrest.conf');
  // The recipe's configuration, with this test's folders.
  fs.writeFileSync(
    conf,
    [
      '[global]',
      `repo1-path=${path.join(work, 'repo')}`,
      'repo1-retention-full=2',
      'start-fast=y',
      `lock-path=${path.join(work, 'lock')}`,
      'log-level-console=warn',
      'log-level-file=off',
      '',
      `[${STANZA}]`,
      `pg1-path=${cluster.dataDir}`,
      `pg1-port=${port}`,
      `pg1-socket-path=${path.dirname(cluster.dataDir)}`,
      '',
    ].join('\n'),
  );
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('alter system set archive_mode = on');
  await admin.query(
    `alter system set archive_command = 'pgbackrest --config=${conf} --stanza=${STANZA} archive-push %p'`,
  );
  await admin.end();
  cluster.restart(); // archive_mode takes a restart
  pgbackrest('stanza-create');
  pgbackrest('check');
}, 120_000);

afterAll(() => {
  if (restoredDir)
    spawnSync(asRoot ? 'runuser' : path.join(binDir, 'pg_ctl'), [
      ...(asRoot ? ['-u', 'postgres', '--', path.join(binDir, 'pg_ctl')] : []),
      '-D',
      restoredDir,
      '-m',
      'immediate',
      'stop',
    ]);
  cluster?.destroy();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

interface Upload {
  url: string;
  bytes: Buffer;
}

async function uploadSome(t: TestApp, cookie: string, patientId: string, title: string, count: number) {
  const uploads: Upload[] = [];
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.concat([samplePdf(crypto.randomUUID()), crypto.randomBytes(100 * 1024)]);
    const res = await uploadRecord(t.app, cookie, patientId, {
      fields: { title: `${title} ${i + 1}` },
      files: [{ fileName: 'scan.pdf', bytes }],
    });
    expect(res.statusCode, res.body).toBe(201);
    uploads.push({ url: res.json<{ attachments: { url: string }[] }>().attachments[0].url, bytes });
  }
  return uploads;
}

describe('pgBackRest: continuous backup and point-in-time recovery', () => {
  it('restores the database as it was at a noted time; the app serves it and the ledger verifies', async () => {
    const t = await createTestAppOn(await connect({ databaseUrl: cluster.url }), {
      databaseUrl: cluster.url,
      attachmentStore: 'database',
      fileEncryptionKey: FILE_KEY,
      ledgerSigningKey: LEDGER_KEY,
    });
    const { cookie } = await signedInHospital(t.app);
    const patient = await addPatient(t.app, cookie);
    const beforeBackup = await uploadSome(t, cookie, patient.id, 'Before the backup', 2);

    pgbackrest('backup', '--type=full');

    const beforeTime = await uploadSome(t, cookie, patient.id, 'Before the noted time', 2);
    // The noted time, in whole seconds (as an operator writes it down), after those commits and
    // before the next ones.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const noted = new pg.Client({ connectionString: cluster.url });
    await noted.connect();
    const target = (
      await noted.query<{ at: string }>(
        `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '+00' as at`,
      )
    ).rows[0].at;
    await noted.end();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const afterTime = await uploadSome(t, cookie, patient.id, 'After the noted time', 2);
    await t.close();
    pgbackrest('check'); // switches WAL and waits until the segment with the later uploads is archived

    // The restore into a new data folder, then a server on it (archiving off: it is a copy).
    restoredDir = path.join(work, 'restored');
    fs.mkdirSync(restoredDir, { mode: 0o700 });
    if (asRoot) execFileSync('chown', ['postgres:postgres', restoredDir]);
    pgbackrest(
      'restore',
      `--pg1-path=${restoredDir}`,
      '--type=time',
      `--target=${target}`,
      '--target-action=promote',
    );
    const port = await freePort();
    const restoredLog = path.join(work, 'restored.log');
    try {
      asPostgres(path.join(binDir, 'pg_ctl'), [
        '-D',
        restoredDir,
        '-l',
        restoredLog,
        '-o',
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${work} -c archive_mode=off -c max_connections=200`,
        '-w',
        'start',
      ]);
    } catch (err) {
      throw new Error(`the restored cluster did not start: ${fs.readFileSync(restoredLog, 'utf8')}`, {
        cause: err,
      });
    }
    const restoredUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    // Recovery promotes once it reaches the target; until then the server is read-only.
    const client = new pg.Client({ connectionString: restoredUrl });
    await client.connect();
    for (let i = 0; i < 120; i++) {
      if (!(await client.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0].r) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const titles = (
      await client.query<{ title: string }>('select title from medical_records order by title')
    ).rows.map((row) => row.title);
    await client.end();
    expect(titles).toEqual([
      'Before the backup 1',
      'Before the backup 2',
      'Before the noted time 1',
      'Before the noted time 2',
    ]);

    const env = {
      DATABASE_URL: restoredUrl,
      FILE_ENCRYPTION_KEY: FILE_KEY,
      LEDGER_SIGNING_KEY: LEDGER_KEY,
      DATA_DIR: path.join(work, 'app-data'),
      PUBLIC_URL: PROCESS_ORIGIN,
    };
    const verify = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/ledger.ts', 'verify'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toContain('Records: 4 checked');

    const server = await startServerProcess(env);
    try {
      const download = (url: string) =>
        fetch(server.url + url, { headers: { cookie, origin: PROCESS_ORIGIN } });
      expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
      for (const { url, bytes } of [...beforeBackup, ...beforeTime]) {
        const res = await download(url);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      }
      for (const { url } of afterTime) expect((await download(url)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
