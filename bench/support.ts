// What the benchmarks share: a throw-away PostgreSQL cluster, the real server in its own process,
// a signed-in hospital, autocannon runs, CPU time of processes read from /proc, statement counts
// from pg_stat_statements, and bulk seeding with generate_series (docs/architecture.md, "bench/").
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { findPgBinDir, startPgCluster, type PgCluster } from '../scripts/pg-cluster.js';
import { freePort } from '../scripts/free-port.js';
import { buildParts } from '../scripts/build.js';
import { APPOINTMENT_TYPES, AUDIT_ACTIONS, DEPARTMENTS } from '../src/shared/constants.js';
import { RECORD_TYPES } from '../src/shared/records.js';
import { multipartBody, samplePdf } from '../src/server/features/records/testing.js';
import { SERVER_NODE_ARGS } from '../src/server/start-command.js';

export const PASSWORD = 'Str0ng!Passw0rd';

export interface BenchServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A Node process of the bench's (the server, or a baseline of bench/), started with `args` and
 * `env` added to this one's, once it has printed `ready`; its output is kept for the error if it
 * exits or stays silent for two minutes first. stop() sends SIGTERM, then SIGKILL after 10 s.
 */
export async function startNodeProcess(
  args: string[],
  env: Record<string, string | undefined>,
  ready: string,
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), 120_000);
    child.stdout?.on('data', () => {
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stop };
}

/**
 * The real server (compiled, as `npm start` runs it) in its own process, so that its CPU and
 * memory are its own. `databaseUrl` '' runs it on PGlite in `dataDir`. BENCH_SERVER_NODE_ARGS, e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof", passes node flags to it (to profile it).
 */
export async function startServer(options: {
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<BenchServer> {
  await buildParts({ ifStale: true, parts: ['server'] }); // the compiled server, as npm start runs it
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const { child, stop } = await startNodeProcess(
    [...nodeArgs, ...SERVER_NODE_ARGS],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      PUBLIC_URL: url,
      DATABASE_URL: options.databaseUrl,
      SERVE_CLIENT: 'false',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    'MedLedger is running at',
  );
  return { url, child, stop };
}

export async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers a hospital through the API and signs it in: its id and session cookie. */
export async function signUpHospital(
  url: string,
  name: string,
): Promise<{ cookie: string; hospitalId: string }> {
  const headers = { 'content-type': 'application/json', origin: url };
  const email = `bench.${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.test`;
  const post = (p: string, body: unknown) =>
    fetch(`${url}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
  await json(
    await post('/api/auth/register', {
      email,
      password: PASSWORD,
      firstName: 'Bench',
      lastName: name,
      role: 'hospital',
      hospitalName: `${name} Bench Hospital`,
    }),
  );
  const login = await post('/api/auth/login', { email, password: PASSWORD });
  const hospitalId = (await json<{ user: { id: string } }>(login)).user.id;
  return { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0], hospitalId };
}

/**
 * Runs `fn` with a throw-away PostgreSQL cluster (pg_stat_statements loaded, so statements can be
 * counted) and a temporary data folder; removes both afterwards.
 */
export async function withPostgres<T>(
  fn: (cluster: PgCluster, dataDir: string) => Promise<T>,
  /** More server settings, e.g. fsync=on (the throw-away cluster runs without fsync). */
  settings: string[] = [],
): Promise<T> {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('PostgreSQL is not installed (Debian: apt-get install -y postgresql).');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-bench-'));
  const cluster = await startPgCluster(binDir, {
    quiet: true,
    settings: ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', ...settings],
  });
  try {
    return await fn(cluster, dataDir);
  } finally {
    cluster.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface Figures {
  label: string;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Requests per second (average). */
  rate: number;
}

export async function load(
  label: string,
  url: string,
  options: {
    connections: number;
    seconds: number;
    cookie?: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: Buffer;
  },
): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    ...(options.method ? { method: options.method } : {}),
    ...(options.body ? { body: options.body } : {}),
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
  return {
    label,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    rate: result.requests.average,
  };
}

let clockTicks: number | undefined;

/** CPU time (user + system, ms) a process has used, from /proc/<pid>/stat; with its reaped children's. */
export function cpuMs(pid: number, withChildren = false): number {
  const fields = statFields(pid);
  const ticks = fields[11] + fields[12] + (withChildren ? fields[13] + fields[14] : 0);
  return ticksToMs(ticks);
}

/** The system (kernel) part of a process's CPU time, ms: sockets, page faults, its threads' waits. */
export function systemCpuMs(pid: number): number {
  return ticksToMs(statFields(pid)[12]);
}

/** The numbers after "(comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17 (proc(5)). */
function statFields(pid: number): number[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}

function ticksToMs(ticks: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (ticks * 1000) / clockTicks;
}

/** CPU time of a PostgreSQL cluster: the postmaster, its live children, and those already gone. */
export function clusterCpuMs(cluster: PgCluster): number {
  const postmaster = Number(
    fs.readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  let total = cpuMs(postmaster, true);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) total += cpuMs(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * Statements the server ran (pg_stat_statements), the bench's own left out: `sent`, those the app
 * sent (top level), and `nested`, those PostgreSQL ran inside them (foreign-key checks, triggers).
 */
export async function statementCount(client: pg.Client): Promise<{ sent: number; nested: number }> {
  const { rows } = await client.query<{ sent: string; nested: string }>(
    `select coalesce(sum(calls) filter (where toplevel), 0) as sent,
            coalesce(sum(calls) filter (where not toplevel), 0) as nested
     from pg_stat_statements where query not ilike '%pg_stat_statements%'`,
  );
  return { sent: Number(rows[0].sent), nested: Number(rows[0].nested) };
}

export async function resetStatements(client: pg.Client) {
  await client.query('select pg_stat_statements_reset()');
}

export interface SeedSizes {
  patients: number;
  records: number;
  appointments: number;
  audits: number;
  /** Appointments are spread over this many days from `from`. */
  appointmentDays: number;
  from: Date;
}

/**
 * Bulk rows for one hospital, written with INSERT ... SELECT generate_series (not through the API):
 * patients with varied names, records spread over them, appointments over a period and audit
 * entries of every action; then ANALYZE.
 */
export async function seedBulk(client: pg.Client, hospitalId: string, sizes: SeedSizes) {
  const names = [
    'Anna',
    'Ben',
    'Chloe',
    'David',
    'Emma',
    'Farid',
    'Grace',
    'Hugo',
    'Ines',
    'Jonas',
    'Keiko',
    'Liam',
  ];
  const tag = Date.now().toString(36);
  await client.query(
    `insert into patients (patient_id, created_by_hospital_id, first_name, last_name, email, date_of_birth, created_at)
     select 'B' || $3 || lpad(g::text, 7, '0'), $1, ($4::text[])[1 + g % cardinality($4::text[])],
            'Surname' || md5(g::text)::varchar(6), 'p' || g || '.' || $3 || '@example.test',
            date '1940-01-01' + (g % 25000), now() - g * interval '1 second'
     from generate_series(1, $2::int) g`,
    [hospitalId, sizes.patients, tag, names],
  );
  // Patients of this seeding, numbered 0..n-1, to spread the other rows over.
  const numbered = `with p as (select id, (row_number() over (order by patient_id)) - 1 as n from patients
                    where created_by_hospital_id = $1 and patient_id like 'B' || $5 || '%')`;
  await client.query(
    `${numbered}
     insert into medical_records (patient_id, hospital_id, title, record_type, department, doctor_name, status, created_at, updated_at)
     select p.id, $1, 'Record ' || g, ($3::text[])[1 + g % cardinality($3::text[])],
            ($4::text[])[1 + g % cardinality($4::text[])], 'Dr. Bench', 'final',
            now() - g * interval '1 minute', now()
     from generate_series(0, $2::int - 1) g join p on p.n = g % $6`,
    [hospitalId, sizes.records, RECORD_TYPES, DEPARTMENTS, tag, sizes.patients],
  );
  await client.query(
    `${numbered}
     insert into appointments (patient_id, hospital_id, doctor_name, department, appointment_type, appointment_date, status)
     select p.id, $1, 'Dr. Bench', ($3::text[])[1 + g % cardinality($3::text[])],
            ($4::text[])[1 + g % cardinality($4::text[])],
            $7::timestamptz + (g % ($8::int * 18)) * interval '1 day' / 18 + (g / ($8::int * 18)) * interval '1 second',
            'scheduled'
     from generate_series(0, $2::int - 1) g join p on p.n = g % $6`,
    [
      hospitalId,
      sizes.appointments,
      DEPARTMENTS,
      APPOINTMENT_TYPES,
      tag,
      sizes.patients,
      sizes.from,
      sizes.appointmentDays,
    ],
  );
  await client.query(
    `${numbered}
     insert into audit_logs (user_id, action, entity_id, entity_type, details, ip_address, hospital_id, patient_id, created_at)
     select $1, ($3::text[])[1 + g % cardinality($3::text[])], p.id::text, $4, 'Bench entry ' || g,
            '127.0.0.1', $1, p.id, now() - g * interval '10 seconds'
     from generate_series(0, $2::int - 1) g join p on p.n = g % $6`,
    [hospitalId, sizes.audits, AUDIT_ACTIONS, 'patient', tag, sizes.patients],
  );
  await client.query('analyze');
}

/** The machine's load average, printed beside every figure (other work on it moves them). */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

export const ratio = (a: number, b: number, digits = 2) => (b > 0 ? (a / b).toFixed(digits) : 'n/a');

/** The multipart body of a record upload with one small PDF (what the upload form sends). */
export function recordUploadBody(patientId: string, title: string) {
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: patientId },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: title },
    { name: 'department', value: 'cardiology' },
    {
      name: 'files',
      fileName: 'result.pdf',
      bytes: samplePdf(`bench ${title}`),
      contentType: 'application/pdf',
    },
  ]);
  return { payload, headers };
}

/** Uploads one record through the API. */
export async function uploadRecord(url: string, cookie: string, patientId: string, title: string) {
  const { payload, headers } = recordUploadBody(patientId, title);
  await json(
    await fetch(`${url}/api/medical-records`, {
      method: 'POST',
      headers: { ...headers, cookie, origin: url },
      body: new Uint8Array(payload),
    }),
  );
}

export interface BenchSetup {
  cluster: PgCluster;
  dataDir: string;
  server: BenchServer;
  /** A connection of the bench's own to the same database. */
  client: pg.Client;
  cookie: string;
  hospitalId: string;
}

/**
 * withPostgres, the server on it, a connection for the bench (pg_stat_statements created) and a
 * signed-in hospital named `name`; all of it stopped and removed afterwards. `fn` may replace
 * `setup.server` (a restart with other settings); the one there at the end is stopped.
 */
export async function withBenchServer<T>(
  name: string,
  fn: (setup: BenchSetup) => Promise<T>,
  settings: string[] = [],
): Promise<T> {
  return withPostgres(async (cluster, dataDir) => {
    const server = await startServer({ databaseUrl: cluster.url, dataDir });
    const client = new pg.Client({ connectionString: cluster.url });
    const setup = { cluster, dataDir, server, client, cookie: '', hospitalId: '' };
    try {
      await client.connect();
      await client.query('create extension if not exists pg_stat_statements');
      Object.assign(setup, await signUpHospital(server.url, name));
      return await fn(setup);
    } finally {
      await client.end();
      await setup.server.stop();
    }
  }, settings);
}
