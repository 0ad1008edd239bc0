// A real server process (`npm start`, without its build) for tests that need more than one
// process on one database and one storage folder: started on a free port, stopped with SIGTERM
// (or killed), its output kept for the failure message; and the calls such tests make through it.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../../scripts/free-port.js';
import { findPgBinDir, startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.js';
import { multipartBody, samplePdf } from '../features/records/testing.js';
import { STRONG_PASSWORD } from './helpers.js';

/** The PUBLIC_URL of server processes in tests (their Origin check expects it). */
export const PROCESS_ORIGIN = 'http://medledger.test';

export interface ServerProcess {
  url: string;
  output(): string;
  /** Whether the process (npm start, and the server it runs) is still running. */
  running(): boolean;
  /** SIGTERM (graceful) or SIGKILL; resolves once the process has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export async function startServerProcess(
  env: Record<string, string>,
  args: string[] = [],
): Promise<ServerProcess & { pid: number }> {
  const port = await freePort();
  // `npm start` itself, as an operator runs it, without its build (`prestart`: the suite's global
  // set-up has built the server, scripts/build-for-tests.ts, and the tests need no client): so a
  // stop here is what a supervisor's SIGTERM to `npm start` does.
  const child: ChildProcess = spawn('npm', ['start', '--ignore-scripts', '--silent', '--', ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVE_CLIENT: 'false',
      CHECK_RESPONSES: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm runs the server as a child of its own, and SIGKILL is not passed
    // on, so a kill goes to the whole group (npm, server and any WORKERS) or the server lives on.
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`server did not start in 60 s:\n${output}`));
    }, 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', () => {
      if (output.includes('MedLedger is running at')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return {
    pid: child.pid ?? 0,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    running: () => child.exitCode === null && child.signalCode === null,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (signal === 'SIGKILL') killGroup();
      else child.kill('SIGTERM'); // npm passes it on to the server, which shuts down gracefully
      const force = setTimeout(killGroup, 20_000);
      await exited;
      clearTimeout(force);
      killGroup(); // anything of the group still running once the wrapper is gone
    },
  };
}

/**
 * A throw-away database for server processes: a new database on TEST_DATABASE_URL (test:pg), or
 * on a PostgreSQL cluster started for it (the server processes need a real server either way).
 */
export async function processDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  let cluster: PgCluster | null = null;
  let server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const binDir = findPgBinDir();
    if (!binDir) throw new Error('These tests need PostgreSQL installed (apt-get install -y postgresql).');
    cluster = await startPgCluster(binDir, { quiet: true });
    server = cluster.url;
  }
  const name = `medledger_proc_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(statement); // the name is made here from hex only
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    close: async () => {
      if (cluster) cluster.destroy();
      else await run(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A JSON call to a server process, as a browser on PUBLIC_URL would send it. */
export function callProcess(
  base: string,
  method: string,
  url: string,
  cookie?: string,
  body?: object,
  timeoutMs = 60_000,
) {
  return fetch(base + url, {
    method,
    // Never the fetch default of 5 minutes: a connection a dying cluster worker took with it fails.
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      origin: PROCESS_ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** A hospital signed up and in through `base`, with one patient. */
export async function hospitalWithPatient(
  base: string,
): Promise<{ email: string; cookie: string; patientId: string }> {
  const email = `process.${crypto.randomUUID()}@example.test`;
  const registered = await callProcess(base, 'POST', '/api/auth/register', undefined, {
    email,
    password: STRONG_PASSWORD,
    firstName: 'Hana',
    lastName: 'Ward',
    role: 'hospital',
    hospitalName: 'Shared Storage Hospital',
  });
  if (registered.status !== 201)
    throw new Error(`sign-up answered ${registered.status}: ${await registered.text()}`);
  const signedIn = await callProcess(base, 'POST', '/api/auth/login', undefined, {
    email,
    password: STRONG_PASSWORD,
  });
  if (signedIn.status !== 200)
    throw new Error(`sign-in answered ${signedIn.status}: ${await signedIn.text()}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const added = await callProcess(base, 'POST', '/api/patients', cookie, {
    firstName: 'Pat',
    lastName: 'Doe',
  });
  if (added.status !== 201)
    throw new Error(`adding a patient answered ${added.status}: ${await added.text()}`);
  return { email, cookie, patientId: ((await added.json()) as { id: string }).id };
}

/** A real PDF followed by random bytes, so every upload is different and spans several chunks. */
export const randomPdf = (extra = 32 * 1024) =>
  Buffer.concat([samplePdf(crypto.randomUUID()), crypto.randomBytes(extra)]);

/** Uploads `bytes` as a record's one file through `base`; the download address of the file. */
export async function uploadThrough(
  base: string,
  cookie: string,
  patientId: string,
  bytes: Buffer,
): Promise<string> {
  const { payload, headers } = multipartBody([
    { name: 'patientId', value: patientId },
    { name: 'recordType', value: 'lab-results' },
    { name: 'title', value: 'Blood panel' },
    { name: 'files', fileName: 'report.pdf', bytes },
  ]);
  const res = await fetch(`${base}/api/medical-records`, {
    method: 'POST',
    headers: { ...headers, cookie, origin: PROCESS_ORIGIN },
    body: new Uint8Array(payload),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { attachments: { url: string }[] }).attachments[0].url;
}
