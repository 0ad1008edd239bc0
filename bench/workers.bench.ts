// npm run bench (fourth part) — one app process against two (issue 14, item 7): a throw-away
// PostgreSQL cluster, the real server started with WORKERS=1 and then with --workers 2 on the same
// database, and autocannon (50 connections) on a read route, GET /api/patients (a page of 50 of a
// hospital's 200 patients), for BENCH_SECONDS (default 10) each. Prints requests per second of
// each and their ratio (2 processes / 1). On a 2-core machine the database and autocannon share the
// cores with the app, so the ratio stays well below 2; it shows the app's share, not a goal.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { findPgBinDir, startPgCluster } from '../scripts/pg-cluster.js';
import {
  callProcess,
  hospitalWithPatient,
  PROCESS_ORIGIN,
  startServerProcess,
} from '../src/server/test/server-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const PATIENTS = 200;

async function main() {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql).');
  const cluster = await startPgCluster(binDir, { quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-bench-workers-'));
  const env = {
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    PUBLIC_URL: PROCESS_ORIGIN,
    FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
  };
  try {
    let server = await startServerProcess(env);
    const { cookie } = await hospitalWithPatient(server.url);
    for (let i = 1; i < PATIENTS; i++) {
      const res = await callProcess(server.url, 'POST', '/api/patients', cookie, {
        firstName: `Pat${i}`,
        lastName: 'Bench',
      });
      if (res.status !== 201) throw new Error(`adding a patient answered ${res.status}`);
    }
    const figures: { label: string; perSecond: number; p99: number }[] = [];
    for (const workers of [1, 2]) {
      if (workers > 1) server = await startServerProcess(env, ['--workers', String(workers)]);
      // Warm-up (each worker compiles its routes' serialisers on its first requests), then the run.
      await autocannon({
        url: `${server.url}/api/patients?page=1&pageSize=50`,
        connections: CONNECTIONS,
        duration: 2,
        headers: { cookie },
      });
      const result = await autocannon({
        url: `${server.url}/api/patients?page=1&pageSize=50`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { cookie },
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(
          `${result.non2xx} non-2xx answers and ${result.errors} errors with ${workers} process(es)`,
        );
      figures.push({
        label: `${workers} process${workers > 1 ? 'es' : ''}`,
        perSecond: result.requests.average,
        p99: result.latency.p99,
      });
      await server.stop();
    }
    console.log(
      `\nGET /api/patients, ${CONNECTIONS} connections, ${SECONDS} s each, one PostgreSQL (${os.cpus().length} cores)`,
    );
    for (const f of figures)
      console.log(`  ${f.label.padEnd(12)} ${f.perSecond.toFixed(0).padStart(6)} req/s   p99 ${f.p99} ms`);
    console.log(`  ratio 2 processes / 1: ${(figures[1].perSecond / figures[0].perSecond).toFixed(2)}`);
  } finally {
    cluster.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
