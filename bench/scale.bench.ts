// npm run bench (scale part; issue 14, item 6) — do the lists stay cheap as a hospital grows? A
// throw-away PostgreSQL (bench/support.ts), the real server on it, one hospital with 10,000
// patients, 50,000 records, 20,000 appointments and 50,000 audit entries (bulk INSERT ... SELECT
// generate_series, not the API); each list call measured (autocannon, 4 connections: requests
// per second, p50, and app + database CPU per request from /proc); then 90,000 more patients
// (100,000) and the same calls again. Prints the cost ratio 100k / 10k per call (goal < 2); then,
// beyond that goal, the audit calls again with the trail ten times as long (500,000 entries), and
// the plan PostgreSQL chose for each call (auto_explain), which must use indexes.
// BENCH_SECONDS (default 5) sets each run's length.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  clusterCpuMs,
  cpuMs,
  json,
  load,
  loadAverage,
  ratio,
  seedBulk,
  withBenchServer,
  type BenchServer,
} from './support.js';
import type { PgCluster } from '../scripts/pg-cluster.js';
import { AUDIT_ACTIONS } from '../src/shared/constants.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const CONNECTIONS = 4;
/** Audit entries added after the patients, to the 50,000 seeded first (the trail's own growth). */
const AUDITS_ADDED = 450_000;

interface Cost {
  rate: number;
  p50: number;
  cpuPerRequest: number;
}

async function measure(server: BenchServer, cluster: PgCluster, url: string, cookie: string): Promise<Cost> {
  await load(url, url, { connections: CONNECTIONS, seconds: 1, cookie });
  const app = cpuMs(server.child.pid!);
  const db = clusterCpuMs(cluster);
  const figures = await load(url, url, { connections: CONNECTIONS, seconds: SECONDS, cookie });
  if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`${url}: ${figures.non2xx} non-2xx answers`);
  // No answer within the run (a call slower than BENCH_SECONDS): printed as NaN, not a failure.
  if (figures.requests === 0) return { rate: 0, p50: NaN, cpuPerRequest: NaN };
  const cpu = cpuMs(server.child.pid!) - app + (clusterCpuMs(cluster) - db);
  return { rate: figures.rate, p50: figures.p50, cpuPerRequest: cpu / figures.requests };
}

/** The plans of the statements one request runs, from auto_explain in the server's log. */
async function plansOf(client: pg.Client, cluster: PgCluster, url: string, cookie: string): Promise<string> {
  const log = path.join(path.dirname(cluster.dataDir), 'server.log');
  await client.query(`alter system set auto_explain.log_min_duration = 0`);
  await client.query('select pg_reload_conf()');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const from = fs.statSync(log).size;
  await json(await fetch(url, { headers: { cookie } }));
  await client.query(`alter system set auto_explain.log_min_duration = -1`);
  await client.query('select pg_reload_conf()');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const text = fs.readFileSync(log, 'utf8').slice(from);
  // The plan lines that say how rows are found (scans), without the statements' text.
  return text
    .split('\n')
    .filter((line) => /Scan|Limit|Sort|Aggregate|WindowAgg|Join|Nested Loop/.test(line))
    .filter((line) => !/pg_reload_conf|auto_explain/.test(line))
    .map((line) => `      ${line.trimEnd()}`)
    .join('\n');
}

async function main() {
  await withBenchServer(
    'Scale',
    async ({ cluster, server, client, cookie, hospitalId }) => {
      const now = new Date();
      const weekStart = new Date(now.getTime() + 7 * 86_400_000);
      const weekEnd = new Date(weekStart.getTime() + 7 * 86_400_000);
      const dayAgo = new Date(now.getTime() - 86_400_000);
      console.log('Seeding 10,000 patients, 50,000 records, 20,000 appointments, 50,000 audit entries ...');
      await seedBulk(client, hospitalId, {
        patients: 10_000,
        records: 50_000,
        appointments: 20_000,
        audits: 50_000,
        appointmentDays: 365,
        from: now,
      });
      const { rows } = await client.query<{ id: string }>(
        'select id from patients where created_by_hospital_id = $1 order by patient_id limit 1',
        [hospitalId],
      );
      const calls: Array<[string, string]> = [
        ['patients, first page', '/api/patients'],
        ['patients search (name fragment)', '/api/patients?search=urnameab'],
        ['patients search (e-mail)', '/api/patients?search=p4242.'],
        ['records list of a patient', `/api/medical-records/${rows[0].id}`],
        [
          'appointments, one week',
          `/api/appointments/hospital/${hospitalId}?from=${weekStart.toISOString()}&to=${weekEnd.toISOString()}`,
        ],
        [
          'audit: one action, last day',
          `/api/audit-logs?action=record_view&from=${dayAgo.toISOString()}&to=${now.toISOString()}`,
        ],
        ['audit: one user', `/api/audit-logs?userId=${hospitalId}`],
        ['audit: whole trail (opening view)', '/api/audit-logs'],
      ];
      const costs = new Map<string, Cost[]>();
      const run = async (size: string) => {
        console.log(
          `\n${size}: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per call; load average ${loadAverage()}`,
        );
        for (const [label, url] of calls) {
          const cost = await measure(server, cluster, `${server.url}${url}`, cookie);
          costs.set(label, [...(costs.get(label) ?? []), cost]);
          console.log(
            `  ${label.padEnd(34)} ${Math.round(cost.rate)} req/s, p50 ${cost.p50} ms, ` +
              `${cost.cpuPerRequest.toFixed(2)} ms CPU (app + database) per request`,
          );
        }
      };
      await run('10,000 patients');
      console.log('\nAdding 90,000 patients (100,000) ...');
      await seedBulk(client, hospitalId, {
        patients: 90_000,
        records: 0,
        appointments: 0,
        audits: 0,
        appointmentDays: 1,
        from: now,
      });
      await run('100,000 patients');
      console.log('\nCost per call, 100,000 / 10,000 patients (goal < 2; CPU per request, and p50):');
      console.table(
        calls.map(([label]) => {
          const [small, big] = costs.get(label)!;
          return {
            call: label,
            'CPU ratio': ratio(big.cpuPerRequest, small.cpuPerRequest),
            'p50 ratio': ratio(big.p50, small.p50),
          };
        }),
      );
      console.log(`Load average: ${loadAverage()} on ${os.cpus().length} cores.`);

      // Beyond item 6: the trail itself ten times longer (every audited read lengthens it). The
      // opening view's totals come from the hospital's counter rows; a filtered view counts what
      // it matches.
      const trailCalls = calls.filter(([label]) => label.startsWith('audit: '));
      console.log(`\nAdding ${AUDITS_ADDED.toLocaleString('en-US')} audit entries (500,000) ...`);
      await client.query(
        `insert into audit_logs (user_id, action, entity_id, entity_type, details, ip_address, hospital_id, created_at)
         select $1::uuid, ($3::text[])[1 + g % cardinality($3::text[])], $1::uuid::text, 'patient',
                'Bench entry ' || g, '127.0.0.1', $1::uuid, now() - interval '1 year' - g * interval '1 second'
         from generate_series(1, $2::int) g`,
        [hospitalId, AUDITS_ADDED, AUDIT_ACTIONS],
      );
      await client.query('vacuum analyze audit_logs');
      const trailCosts = new Map<string, Cost>();
      for (const [label, url] of trailCalls) {
        const cost = await measure(server, cluster, `${server.url}${url}`, cookie);
        trailCosts.set(label, cost);
        console.log(
          `  ${label.padEnd(34)} ${Math.round(cost.rate)} req/s, p50 ${cost.p50} ms, ` +
            `${cost.cpuPerRequest.toFixed(2)} ms CPU (app + database) per request`,
        );
      }
      console.log('Cost per call, 500,000 / 50,000 audit entries (CPU per request, and p50):');
      console.table(
        trailCalls.map(([label]) => {
          const [small, big] = [costs.get(label)![1], trailCosts.get(label)!];
          return {
            call: label,
            'CPU ratio': ratio(big.cpuPerRequest, small.cpuPerRequest),
            'p50 ratio': ratio(big.p50, small.p50),
          };
        }),
      );

      console.log(
        '\nPlans at 100,000 patients and 500,000 audit entries (auto_explain; scans, joins, sorts):',
      );
      for (const [label, url] of calls) {
        console.log(`  ${label}:`);
        console.log(await plansOf(client, cluster, `${server.url}${url}`, cookie));
      }
    },
    // auto_explain stays off (its default) until plansOf turns it on with ALTER SYSTEM; a setting
    // on the command line would outrank that.
    ['shared_preload_libraries=pg_stat_statements,auto_explain'],
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
