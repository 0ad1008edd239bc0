// WORKERS=2 (docs/decisions.md#metrics): one scrape of /metrics, whichever worker takes it, shows
// the whole cluster: requests counted by both workers summed, the pool's ceiling summed over the
// two, the ledger's size (read from the database by each) not doubled. Real processes on a
// throw-away PostgreSQL (TEST_DATABASE_URL under test:pg, else a cluster of its own).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL_SETTINGS } from '../../db/connect.js';
import {
  callProcess,
  hospitalWithPatient,
  processDatabase,
  PROCESS_ORIGIN,
  randomPdf,
  startServerProcess,
  uploadThrough,
  type ServerProcess,
} from '../../test/server-process.js';

const TOKEN = crypto.randomBytes(24).toString('hex');
let database: Awaited<ReturnType<typeof processDatabase>>;
let server: ServerProcess | undefined;
let dataDir: string;

beforeAll(async () => {
  database = await processDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-metrics-'));
  server = await startServerProcess(
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
      LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
      PUBLIC_URL: PROCESS_ORIGIN,
      METRICS_TOKEN: TOKEN,
    },
    ['--workers', '2'],
  );
}, 120_000);

afterAll(async () => {
  await server?.stop().catch(() => {});
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function scrape() {
  const res = await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return new Map(parsePrometheusTextFormat(await res.text()).map((f) => [f.name, f]));
}

describe('metrics of a cluster of two workers', () => {
  it('are the sum of both workers, whichever takes the scrape', async () => {
    const { cookie, patientId } = await hospitalWithPatient(server!.url);
    await uploadThrough(server!.url, cookie, patientId, randomPdf()); // a ledgered write
    const calls = 40;
    for (let i = 0; i < calls; i++)
      expect((await callProcess(server!.url, 'GET', '/api/health/live')).status).toBe(200);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ n: string }>('select count(*) as n from ledger_entries');
    await client.end();
    expect(Number(rows[0].n)).toBeGreaterThan(0);

    // Several scrapes: the kernel hands them to either worker, and each must show the same totals.
    for (let i = 0; i < 4; i++) {
      const all = await scrape();
      const pool = all.get('medledger_db_pool_max_connections')!;
      expect(Number(pool.metrics[0].value)).toBe(2 * POOL_SETTINGS.max);
      expect(Number(all.get('medledger_ledger_entries')!.metrics[0].value)).toBe(Number(rows[0].n));
      const text = await (
        await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).text();
      const live = text
        .split('\n')
        .find(
          (line) =>
            line.startsWith('medledger_http_request_duration_seconds_count{') &&
            line.includes('route="/api/health/live"'),
        );
      expect(Number(live?.split(' ').pop())).toBe(calls);
    }
  }, 120_000);
});
