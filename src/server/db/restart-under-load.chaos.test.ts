// PostgreSQL restarted (fast, then immediate) while real uploads, ledgered writes and reads run
// against a real server process over HTTP, with one process and with WORKERS=2. A connection lost
// in the middle of a transaction used to be an unhandled 'error' event that killed the process
// (issue 56, item 1). Here: no process exits, every answer meanwhile is a success or a 503 (never a
// 500 or a dropped connection), the app answers 200 again within seconds by itself, every
// acknowledged upload downloads byte for byte and verifies against the ledger, and the uploads that
// failed leave no reservation and no stored rows behind. On a cluster of its own (it is restarted).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findPgBinDir, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.js';
import { expectIntactAndVerified, leftovers, recordIds, startLoad } from '../test/load.js';
import {
  callProcess,
  hospitalWithPatient,
  PROCESS_ORIGIN,
  startServerProcess,
  type ServerProcess,
} from '../test/server-process.js';

let cluster: PgCluster;
const dirs: string[] = [];
const running: ServerProcess[] = [];

beforeAll(async () => {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('The chaos tests need PostgreSQL installed (apt-get install -y postgresql).');
  cluster = await startPgCluster(binDir, { quiet: true });
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => {})));
  cluster?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database of its own on the cluster, for one server (one scenario). */
async function newDatabase(): Promise<string> {
  const name = `restart_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`); // the name is made here from hex only
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

async function restartUnderLoad(server: ServerProcess) {
  const { cookie, patientId } = await hospitalWithPatient(server.url);
  const load = startLoad(server.url, cookie, patientId);
  /** When the database was back from its last restart. */
  let back = Infinity;

  // A restart that happens to fall between the requests' statements disturbs nothing (a loaded
  // machine can starve the app for the whole restart); restart again, up to four rounds, until the
  // restarts have cut requests in flight (503s), so the test never passes on an undisturbed load.
  await sleep(1_500);
  for (let round = 0; round < 4 && (round === 0 || !load.tally.disturbed()); round++) {
    cluster.restart('fast');
    await sleep(2_500);
    cluster.restart('immediate');
    back = Date.now();
    await sleep(2_500);
  }
  await load.stop();

  // The app serves again by itself, within seconds of the database being back.
  await vi.waitFor(
    async () => expect((await callProcess(server.url, 'GET', '/api/patients', cookie)).status).toBe(200),
    { timeout: 15_000, interval: 100 },
  );
  const recovered = (load.firstSuccessSince(back).read ?? Date.now()) - back;
  expect((await callProcess(server.url, 'GET', '/api/health/ready')).status).toBe(200);

  return { tally: load.tally, acknowledged: load.acknowledged, recovered, cookie };
}

describe.each([
  { name: 'one process', args: [] as string[] },
  { name: 'WORKERS=2', args: ['--workers', '2'] },
])('PostgreSQL restarted (fast, then immediate) under uploads: $name', ({ args }) => {
  it('never exits, answers only successes and 503s, serves again by itself, keeps every acknowledged upload', async () => {
    const databaseUrl = await newDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-restart-'));
    dirs.push(dataDir);
    const server = await startServerProcess(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
        LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
        PUBLIC_URL: PROCESS_ORIGIN,
      },
      args,
    );
    running.push(server);

    const { tally, acknowledged, recovered, cookie } = await restartUnderLoad(server);
    const summary = tally.summary();
    expect(server.running(), server.output()).toBe(true);
    // A worker that died would have been replaced by the primary, which says so.
    expect(server.output()).not.toMatch(/exited \(/);
    expect(tally.unexpected, summary).toEqual([]);
    // The restarts did disturb the load (503s), and uploads were acknowledged around them.
    expect(summary).toMatch(/ 503"/);
    expect(acknowledged.filter((a) => a.bytes).length).toBeGreaterThan(4);
    expect(recovered).toBeLessThan(10_000);

    await expectIntactAndVerified(server.url, cookie, acknowledged);
    // And every record the database holds, also one whose 201 was lost with its connection: its
    // files were not given up.
    const held = await recordIds(databaseUrl);
    expect(held.length).toBeGreaterThanOrEqual(acknowledged.length);
    await expectIntactAndVerified(
      server.url,
      cookie,
      held.map((id) => ({ id, bytes: null, url: null })),
    );
    // Failed uploads released their reservations and removed their rows (once the database was back).
    await vi.waitFor(
      async () => expect(await leftovers(databaseUrl)).toEqual({ reserved: 0, unclaimed: 0 }),
      {
        timeout: 20_000,
        interval: 250,
      },
    );
    await server.stop();
  }, 120_000);
});
