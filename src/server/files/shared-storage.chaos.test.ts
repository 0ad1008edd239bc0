// Two server processes on one PostgreSQL database, as behind a load balancer, with attachments in
// the database (each process its own DATA_DIR) and in one shared DATA_DIR. While one serves a
// stream of uploads, the other is started and stopped 10 times (gracefully and with SIGKILL), each
// start running the sweep of unfinished uploads with no grace period at all: only the reservations
// in the database keep the first process's uploads in flight. Afterwards every acknowledged upload
// downloads byte for byte through either process, and the ledger's own checker
// (`npm run ledger -- verify`) passes.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callProcess,
  hospitalWithPatient,
  processDatabase,
  PROCESS_ORIGIN,
  randomPdf,
  startServerProcess,
  uploadThrough,
  type ServerProcess,
} from '../test/server-process.js';
import { STORES } from './testing.js';

const dirs: string[] = [];
const running: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => {})));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-shared-'));
  dirs.push(dir);
  return dir;
};

describe.each(STORES)('two processes sharing one database, attachments in the %s', (store) => {
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof processDatabase>>;
  beforeAll(async () => {
    // A database of its own for each store (the ledger check reads every record of it).
    database = await processDatabase();
    env = {
      DATABASE_URL: database.url,
      ATTACHMENT_STORE: store,
      DATA_DIR: newDataDir(),
      FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
      LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
      PUBLIC_URL: PROCESS_ORIGIN,
      UPLOAD_SWEEP_GRACE_MS: '0',
      REGISTER_MAX_PER_IP: '1000',
    };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => {})));
    await database?.close();
  });

  /** With attachments in the database nothing on disk is shared: each process its own DATA_DIR. */
  async function start() {
    const p = await startServerProcess(store === 'database' ? { ...env, DATA_DIR: newDataDir() } : env);
    running.push(p);
    return p;
  }

  it('keeps every acknowledged upload while the other process restarts 10 times', async () => {
    const a = await start();
    const { cookie, patientId } = await hospitalWithPatient(a.url);

    const acknowledged: { url: string; bytes: Buffer }[] = [];
    let uploading = true;
    const workers = Array.from({ length: 4 }, async () => {
      while (uploading) {
        const bytes = randomPdf();
        acknowledged.push({ url: await uploadThrough(a.url, cookie, patientId, bytes), bytes });
      }
    });
    const restarts = (async () => {
      try {
        for (let i = 0; i < 10; i++) {
          const b = await start(); // its start-up sweep runs before it listens
          await new Promise((resolve) => setTimeout(resolve, 300));
          await b.stop(i % 2 === 0 ? 'SIGTERM' : 'SIGKILL');
        }
      } finally {
        uploading = false;
      }
    })();
    await Promise.all([restarts, ...workers]);
    expect(acknowledged.length).toBeGreaterThan(40);

    // Every acknowledged upload, byte for byte, through the long-lived process and a fresh one.
    const b = await start();
    for (const [i, item] of acknowledged.entries()) {
      const res = await callProcess(i % 2 === 0 ? a.url : b.url, 'GET', item.url, cookie);
      expect(res.status, item.url).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(item.bytes), item.url).toBe(true);
    }
    await Promise.all([a.stop(), b.stop()]);

    const verify = spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/server/cli/ledger.ts', 'verify'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(verify.status, `${verify.stdout}\n${verify.stderr}`).toBe(0);
  }, 300_000);
});
