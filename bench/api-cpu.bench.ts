// npm run bench (app CPU part; issue 14, item 3) — is the app or the database the bottleneck of the
// reads? A throw-away PostgreSQL (bench/support.ts), the real server in its own process on it, one
// hospital with 1,000 patients, 10,000 records (20 of one patient uploaded through the API, with
// attachments and ledger entries), a month of appointments and 20,000 audit entries. For each read,
// autocannon at 50 connections; the CPU time (utime + stime from /proc) of the app process and of
// every PostgreSQL process is read before and after, and pg_stat_statements counts the statements (those
// the app sent, and apart those PostgreSQL ran inside them: foreign-key checks, triggers).
// Every request asks as Chromium does (Accept-Encoding: gzip, deflate, br, zstd), so the app's CPU
// includes compressing the answers above 1 KiB, as it does for the browser.
// Prints, per request: app CPU (and the kernel's part of it), database CPU, their ratio (goal
// <= 1.0, stretch 0.5), p99 (goal < 50 ms) and statements (goal <= 3), beside the load average;
// first, as baselines, the app's CPU for a request that reads nothing (GET /api/health/live), and
// what a bare node:http + pg process spends on /me's one statement (bench/bare-session-lookup.ts),
// then per read what the app adds to the first.
// Figures are printed, never asserted.
// BENCH_SECONDS (default 10) sets each run's length; BENCH_READS (a regular expression, e.g. "me$")
// runs only the reads whose label matches, after the floor; BENCH_FLOOR=0 leaves the floor out, so
// that a profile of the server (see startServer) holds the chosen reads alone: the floor's 35,000
// requests a second, mostly system time, otherwise fill it.
import os from 'node:os';
import { freePort } from '../scripts/free-port.js';
import {
  clusterCpuMs,
  cpuMs,
  json,
  load,
  loadAverage,
  ratio,
  resetStatements,
  seedBulk,
  startNodeProcess,
  statementCount,
  systemCpuMs,
  uploadRecord,
  withBenchServer,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const UPLOADED = 20;
/** The baseline: Fastify, HTTP and the socket without the database (sent without the session cookie). */
const FLOOR = 'GET /api/health/live (floor)';
/** The second baseline: the same session lookup as /me's from node:http and pg alone. */
const BARE = 'node:http + pg, the session lookup alone (baseline)';
/** What Chromium sends: the app answers with brotli. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** bench/bare-session-lookup.ts in its own process, on the bench's database. */
async function startBareLookup(databaseUrl: string) {
  const port = await freePort();
  const started = await startNodeProcess(
    ['--import', 'tsx', 'bench/bare-session-lookup.ts'],
    { PORT: String(port), DATABASE_URL: databaseUrl },
    'listening',
  );
  return { url: `http://127.0.0.1:${port}`, ...started };
}

async function main() {
  await withBenchServer('Cpu', async ({ cluster, server, client, cookie, hospitalId }) => {
    const monthStart = new Date();
    monthStart.setUTCDate(1);
    monthStart.setUTCHours(0, 0, 0, 0);
    const monthEnd = new Date(monthStart);
    monthEnd.setUTCMonth(monthEnd.getUTCMonth() + 1);
    console.log(
      'Seeding 1,000 patients, 10,000 records, 1,500 appointments this month, 20,000 audit entries ...',
    );
    await seedBulk(client, hospitalId, {
      patients: 1000,
      records: 10_000,
      appointments: 1500,
      audits: 20_000,
      appointmentDays: 28,
      from: monthStart,
    });
    const { rows } = await client.query<{ id: string }>(
      'select id from patients where created_by_hospital_id = $1 order by patient_id limit 1',
      [hospitalId],
    );
    const patientId = rows[0].id;
    for (let i = 0; i < UPLOADED; i++) await uploadRecord(server.url, cookie, patientId, `Uploaded ${i}`);
    await client.query('vacuum analyze'); // as autovacuum would: statistics and the visibility map

    const bare = await startBareLookup(cluster.url);
    // Stopped also when a run fails: the process would otherwise outlive the bench.
    try {
      const reads: Array<[string, string]> = [
        [FLOOR, '/api/health/live'],
        [BARE, '/api/auth/me'],
        ['GET /api/auth/me', '/api/auth/me'],
        ['GET /api/patients', '/api/patients'],
        ['GET /api/medical-records/{patientId}', `/api/medical-records/${patientId}`],
        [
          'GET /api/appointments/hospital/{id} (one month)',
          `/api/appointments/hospital/${hospitalId}?from=${monthStart.toISOString()}&to=${monthEnd.toISOString()}`,
        ],
        ['GET /api/audit-logs', '/api/audit-logs'],
      ];
      const only = new RegExp(process.env.BENCH_READS ?? '.');
      const withFloor = process.env.BENCH_FLOOR !== '0';
      const baseline = (label: string) => label === FLOOR || label === BARE;
      const chosen = reads.filter(([label]) => (baseline(label) ? withFloor : only.test(label)));
      const target = (label: string) => (label === BARE ? bare : server);
      for (const [label, path] of chosen) {
        const body = await json<{ total?: number; user?: { id: string } | null }>(
          await fetch(`${target(label).url}${path}`, { headers: { cookie } }),
        );
        if ('total' in body) console.log(`  ${label}: total ${body.total}`);
        if (label === BARE && !body.user) throw new Error('The bare lookup did not find the session.');
      }

      console.log(`\nautocannon: ${CONNECTIONS} connections, ${SECONDS} s each (after a 2 s warm-up)`);
      const table: Array<Record<string, string | number>> = [];
      let floorMs = 0;
      for (const [label, path] of chosen) {
        const url = `${target(label).url}${path}`;
        const pid = target(label).child.pid!;
        const options = {
          connections: CONNECTIONS,
          cookie: label === FLOOR ? undefined : cookie,
          headers: BROWSER_HEADERS,
        };
        await load(label, url, { ...options, seconds: 2 });
        await resetStatements(client);
        const appBefore = cpuMs(pid);
        const appSystemBefore = systemCpuMs(pid);
        const dbBefore = clusterCpuMs(cluster);
        const figures = await load(label, url, { ...options, seconds: SECONDS });
        const app = cpuMs(pid) - appBefore;
        const appSystem = systemCpuMs(pid) - appSystemBefore;
        const db = clusterCpuMs(cluster) - dbBefore;
        const statements = await statementCount(client);
        const n = figures.requests;
        if (label === FLOOR) floorMs = app / n;
        if (figures.non2xx > 0 || figures.errors > 0)
          throw new Error(
            `${label} answered ${figures.non2xx} non-2xx and ${figures.errors} errors under load`,
          );
        table.push({
          request: label,
          'req/s': Math.round(figures.rate),
          'p99 ms': figures.p99,
          'app ms/req': (app / n).toFixed(3),
          'of which system': (appSystem / n).toFixed(3),
          'db ms/req': (db / n).toFixed(3),
          'app/db': label === FLOOR ? '-' : ratio(app, db), // the floor reads nothing
          '(app-floor)/db': baseline(label) || !withFloor ? '-' : ratio(app / n - floorMs, db / n),
          'statements/req': (statements.sent / n).toFixed(2),
          'nested/req': (statements.nested / n).toFixed(2),
        });
      }
      console.table(table);
      console.log(
        `Goals (issue 14, item 3): app/db <= 1.0 (stretch 0.5), p99 < 50 ms, <= 3 statements per read. ` +
          `Load average during the run: ${loadAverage()} on ${os.cpus().length} cores ` +
          '(autocannon shares the machine; every figure is noisy, the ratios less).',
      );
      if (withFloor) {
        const row = (label: string) => table.find((r) => r.request === label);
        console.log(
          `The bare lookup: node:http and pg answer /me's session lookup for ${row(BARE)?.['app ms/req']} ms ` +
            `of their own CPU per request, ${row(BARE)?.['app/db']}x the database's: what Node and the driver ` +
            `spend on one statement, without the app (bench/bare-session-lookup.ts). GET /api/auth/me: ` +
            `${row('GET /api/auth/me')?.['app/db'] ?? '-'}x.`,
        );
        console.log(
          `The floor: an HTTP request that reads nothing (${FLOOR}) costs the app ${floorMs.toFixed(3)} ms ` +
            '(parsing, routing, headers, the socket); (app-floor)/db is what each read adds to it, per ' +
            'millisecond of database work.',
        );
      }
    } finally {
      await bare.stop();
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
