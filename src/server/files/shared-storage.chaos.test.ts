// Two server processes on one PostgreSQL database and one DATA_DIR, as behind a load balancer.
// While one serves a stream of uploads, the other is started and stopped 10 times (gracefully and
// with SIGKILL), each start running the sweep of unfinished uploads with no grace period at all:
// only the reservations in the database keep the first process's uploads in flight. Afterwards
// every acknowledged upload downloads byte for byte through either process, and the ledger's own
// checker (`npm run ledger -- verify`) passes.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBinDir, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.js';
import { multipartBody, samplePdf } from '../features/records/testing.js';
import { startServerProcess, type ServerProcess } from '../test/server-process.js';
import { STRONG_PASSWORD } from '../test/helpers.js';

const ORIGIN = 'http://medledger.test';
let cluster: PgCluster;
let dataDir: string;
let env: Record<string, string>;
const running: ServerProcess[] = [];

beforeAll(async () => {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('The chaos tests need PostgreSQL installed (apt-get install -y postgresql).');
  cluster = await startPgCluster(binDir, { quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-shared-'));
  env = {
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    PUBLIC_URL: ORIGIN,
    UPLOAD_SWEEP_GRACE_MS: '0',
    REGISTER_MAX_PER_IP: '1000',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL').catch(() => {})));
  cluster?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start() {
  const p = await startServerProcess(env);
  running.push(p);
  return p;
}

async function call(base: string, method: string, url: string, cookie?: string, body?: object) {
  const res = await fetch(base + url, {
    method,
    headers: {
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res;
}

/** A real PDF followed by random bytes, so every upload is different and spans several reads. */
const randomPdf = () => Buffer.concat([samplePdf(crypto.randomUUID()), crypto.randomBytes(32 * 1024)]);

interface Acknowledged {
  url: string;
  bytes: Buffer;
}

async function upload(base: string, cookie: string, patientId: string): Promise<Acknowledged | null> {
  const bytes = randomPdf();
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: patientId },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: 'Blood panel' },
    { name: 'files', fileName: 'report.pdf', bytes },
  ]);
  const res = await fetch(`${base}/api/medical-records`, {
    method: 'POST',
    headers: { ...headers, cookie, origin: ORIGIN },
    body: new Uint8Array(payload),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text}`);
  const record = JSON.parse(text) as { attachments: { url: string }[] };
  return { url: record.attachments[0].url, bytes };
}

describe('two processes sharing one database and one storage folder', () => {
  it('keeps every acknowledged upload while the other process restarts 10 times', async () => {
    const a = await start();
    const email = `shared.${Date.now()}@example.test`;
    const registered = await call(a.url, 'POST', '/api/auth/register', undefined, {
      email,
      password: STRONG_PASSWORD,
      firstName: 'Hana',
      lastName: 'Ward',
      role: 'hospital',
      hospitalName: 'Shared Storage Hospital',
    });
    expect(registered.status).toBe(201);
    const signedIn = await call(a.url, 'POST', '/api/auth/login', undefined, {
      email,
      password: STRONG_PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const added = await call(a.url, 'POST', '/api/patients', cookie, { firstName: 'Pat', lastName: 'Doe' });
    expect(added.status).toBe(201);
    const patientId = ((await added.json()) as { id: string }).id;

    const acknowledged: Acknowledged[] = [];
    let uploading = true;
    const workers = Array.from({ length: 4 }, async () => {
      while (uploading) {
        const done = await upload(a.url, cookie, patientId);
        if (done) acknowledged.push(done);
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
      const res = await call(i % 2 === 0 ? a.url : b.url, 'GET', item.url, cookie);
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
