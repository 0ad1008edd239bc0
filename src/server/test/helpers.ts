// Test harness: every test file gets a fresh database — in-memory PGlite by default, or a new
// database on the PostgreSQL server at TEST_DATABASE_URL (CI runs the suite both ways).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type AppContext, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { connect, type Database } from '../db/connect.js';
import { createAdmin } from '../features/auth/service.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/** A fresh, migrated database: PGlite in memory, or a new database on TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return connect({});
  const name = `medledger_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`); // name is made here from hex only
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await connect({ databaseUrl: url.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  return createTestAppOn(await createTestDatabase(), overrides, options);
}

/** The app on a database the test opened itself (a server it restarts, say); closes it at the end. */
export async function createTestAppOn(
  database: Database,
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-test-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    serveClient: false,
    logLevel: 'silent',
    // Test files sign many accounts up from one address; the limit has a test of its own.
    registerMaxPerIp: 10_000,
    ...overrides,
  };
  const { app, ctx } = await buildApp(config, database, { logger: false, ...options });
  sendOriginLikeABrowser(app, config.publicUrl);
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Browsers send Origin with every state-changing request, and the server refuses those without it.
 * Tests inject as the app's own page would; a test that sets `origin` itself (even to undefined,
 * meaning "none") is sent exactly that.
 */
function sendOriginLikeABrowser(app: FastifyInstance, publicUrl: string) {
  const inject = app.inject.bind(app);
  app.inject = ((options: InjectOptions) => {
    const headers = { ...(options.headers ?? {}) };
    if (!('origin' in headers)) headers.origin = new URL(publicUrl).origin;
    else if (headers.origin === undefined) delete headers.origin;
    return inject({ ...options, headers });
  }) as FastifyInstance['inject'];
}

/** The session cookie from a response, ready to send back as a Cookie header. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'medledger_sid');
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `medledger_sid=${cookie.value}`;
}

export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now()}.${++counter}@example.test`;

export async function registerHospital(
  app: FastifyInstance,
  email = uniqueEmail('hospital'),
  hospitalName = 'General Hospital',
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email,
      password: STRONG_PASSWORD,
      firstName: 'Hana',
      lastName: 'Ward',
      role: 'hospital',
      hospitalName,
    },
  });
  if (res.statusCode !== 201) throw new Error(`register hospital: ${res.statusCode} ${res.body}`);
  return { email, user: res.json().user as { id: string } };
}

export async function login(
  app: FastifyInstance,
  email: string,
  password = STRONG_PASSWORD,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}

/** Registers a hospital and signs it in; returns its cookie and user id. */
export async function signedInHospital(app: FastifyInstance, hospitalName = 'General Hospital') {
  const { email, user } = await registerHospital(app, uniqueEmail('hospital'), hospitalName);
  return { email, userId: user.id, cookie: await login(app, email) };
}

/** Adds a patient as the signed-in hospital; returns the API's answer (with id and the MRN). */
export async function addPatient(
  app: FastifyInstance,
  hospitalCookie: string,
  payload: Record<string, unknown> = { firstName: 'Pat', lastName: 'Doe' },
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/patients',
    headers: { cookie: hospitalCookie },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`add patient: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; patientId: string; email: string | null }>();
}

/** Creates the patient's own account with their MRN and signs it in. */
export async function signedInPatient(app: FastifyInstance, mrn: string, email = uniqueEmail('patient')) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: STRONG_PASSWORD, firstName: 'Pat', lastName: 'Doe', role: 'patient', mrn },
  });
  if (res.statusCode !== 201) throw new Error(`register patient: ${res.statusCode} ${res.body}`);
  return { email, userId: (res.json().user as { id: string }).id, cookie: await login(app, email) };
}

/** Creates an administrator (as the admin command does) and signs it in. */
export async function signedInAdmin(t: TestApp, email = uniqueEmail('admin')) {
  const { user } = await createAdmin(t.ctx.db, email, STRONG_PASSWORD);
  return { email, userId: user.id, cookie: await login(t.app, email) };
}
