// Test harness: every test file gets a fresh database — in-memory PGlite by default, or a new
// database on the PostgreSQL server at TEST_DATABASE_URL (CI runs the suite both ways).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { buildApp, type AppContext, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { connect, type Database } from '../db/connect.js';
import { auditLogs, ledgerEntries, users } from '../db/schema.js';
import type { LedgerKind } from '../../shared/ledger/entry.js';
import { auditText } from '../../shared/audit-events.js';
import { createAdmin } from '../features/auth/service.js';
import { headerOf, linkTo, outboxMessages } from '../mail/read-message.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/** A maker of fresh temporary folders (named `prefix…`); each is removed after the test that made it. */
export function useTempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
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
    // Some tests race many sign-ups on one MRN; the per-MRN limit has a test of its own too.
    registerMaxPerMrn: 10_000,
    // Every answer a test reads is also checked against its schema and the compiled serializer.
    checkResponses: true,
    ...overrides,
  };
  const { app, ctx } = await buildApp(config, database, { logger: false, ...options });
  contextOf.set(app, ctx);
  sendOriginLikeABrowser(app, config.publicUrl);
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      // A test that listened on a real socket may leave a client still sending (an upload answered
      // 413 early): end such connections instead of waiting for them, which could outlast the hook.
      // (An HTTPS server speaking HTTP/2 has no such call; Fastify closes its sessions itself.)
      if (app.server.listening) app.server.closeAllConnections?.();
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Each test app's context, for helpers that are handed only the app. */
const contextOf = new WeakMap<FastifyInstance, AppContext>();

/**
 * The id of the account an address has. The signup answer carries no user (it is the same whether
 * or not the address already had an account), so helpers look the new account up.
 */
export async function accountIdOf(app: FastifyInstance, email: string): Promise<string> {
  const ctx = contextOf.get(app);
  if (!ctx) throw new Error('accountIdOf: not an app made by createTestApp');
  // Its welcome mail goes out after the answer: wait for it, so a test counting mails is not raced.
  await ctx.mail.idle();
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  if (!user) throw new Error(`no account has ${email}`);
  return user.id;
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

/**
 * One API call as the page would make it: signed in with `cookie` (signed out without one), with
 * `payload` as the JSON body when given.
 */
export function call(app: FastifyInstance, method: string, url: string, cookie?: string, payload?: unknown) {
  return app.inject({
    method: method as 'GET',
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** POSTs `body` as it is, declared as JSON (for bodies that are not valid JSON on purpose). */
export const postRawJson = (app: FastifyInstance, url: string, body: string) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });

/** `call` on a test file's app, which exists once its `beforeAll` has run. */
export const callerOf =
  (t: { app: FastifyInstance }) => (method: string, url: string, cookie?: string, payload?: unknown) =>
    call(t.app, method, url, cookie, payload);

/** Expects the status (showing the body when it differs) and answers the parsed JSON body. */
export function expectStatus<T = Record<string, unknown>>(res: LightMyRequestResponse, status: number): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
}

type AuditColumn = 'action' | 'patientId' | 'userId' | 'entityId' | 'hospitalId';

/** The audit trail's rows whose columns equal every value given, oldest first. */
export async function auditRows(t: TestApp, match: Partial<Record<AuditColumn, string>>) {
  const conditions = Object.entries(match).map(([column, value]) =>
    eq(auditLogs[column as AuditColumn], value),
  );
  const rows = await t.ctx.db
    .select()
    .from(auditLogs)
    .where(and(...conditions))
    .orderBy(auditLogs.createdAt);
  // `details` as the trails show it: rendered from the event's data (old rows: their own text).
  return rows.map((row) => ({ ...row, details: auditText(row.action, row.data, row.details) }));
}

/** A patient's ledger entries of one kind, in ledger order. */
export function ledgerRows(t: TestApp, patientId: string, kind: LedgerKind) {
  return t.ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.patientId, patientId), eq(ledgerEntries.kind, kind)))
    .orderBy(ledgerEntries.seq);
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
  return { email, user: { id: await accountIdOf(app, email) } };
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

/**
 * The activation code each patient got when `addPatient` added it (the API shows it only once), so
 * that `signedInPatient(app, mrn)` signs up with it as the patient would, from the code the
 * hospital handed over.
 */
const activationCodesByMrn = new Map<string, string>();

/** Adds a patient as the signed-in hospital; returns the API's answer (id, MRN, activation code). */
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
  const patient = res.json<{ id: string; patientId: string; email: string | null; activationCode: string }>();
  activationCodesByMrn.set(patient.patientId, patient.activationCode);
  return patient;
}

/** A patient's signup: their MRN with the activation code from `addPatient` (or the one given). */
export function patientSignup(
  patient: string | { patientId: string; activationCode: string },
  email = uniqueEmail('patient'),
) {
  const mrn = typeof patient === 'string' ? patient : patient.patientId;
  const activationCode = typeof patient === 'string' ? activationCodesByMrn.get(mrn) : patient.activationCode;
  if (!activationCode)
    throw new Error(`no activation code known for ${mrn}: add the patient with addPatient`);
  return {
    email,
    password: STRONG_PASSWORD,
    firstName: 'Pat',
    lastName: 'Doe',
    role: 'patient',
    mrn,
    activationCode,
  };
}

/** Creates the patient's own account with their MRN and activation code, and signs it in. */
export async function signedInPatient(
  app: FastifyInstance,
  patient: string | { patientId: string; activationCode: string },
  email = uniqueEmail('patient'),
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: patientSignup(patient, email),
  });
  if (res.statusCode !== 201) throw new Error(`register patient: ${res.statusCode} ${res.body}`);
  return { email, userId: await accountIdOf(app, email), cookie: await login(app, email) };
}

/** Longer than a code takes to reach the server on a loaded machine. */
const ARRIVAL_MARGIN_MS = 3_000;

/**
 * TOTP codes of a secret, computed here from the base32 secret as an authenticator app does
 * (RFC 6238, SHA-1, 6 digits, 30 s). `next()` gives a code for a time step not used before,
 * within the one step of drift the server accepts (the server refuses a step used twice). Its
 * first choice, the step before the current one, is refused once the current step ends: within
 * the last seconds of a step it waits for the next one, so that a code made just before a step
 * ends cannot reach the server just after (this failed a CI run once).
 */
export function authenticator(secret: string, clock: () => Date = () => new Date()) {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  let lastStep = -Infinity;
  const codeAt = (step: number) => totp.generate({ timestamp: step * 30_000 });
  return {
    secret,
    codeAt,
    now: () => totp.generate({ timestamp: clock().getTime() }),
    async next(): Promise<string> {
      const untilNextStep = 30_000 - (clock().getTime() % 30_000);
      if (untilNextStep < ARRIVAL_MARGIN_MS)
        await new Promise((done) => setTimeout(done, untilNextStep + 50));
      const current = Math.floor(clock().getTime() / 30_000);
      const step = Math.max(current - 1, lastStep + 1);
      if (step > current + 1) throw new Error('no unused TOTP step left at this time');
      lastStep = step;
      return codeAt(step);
    },
  };
}
export type Authenticator = ReturnType<typeof authenticator>;

/** Turns two-factor sign-in on for a signed-in user; answers its authenticator and recovery codes. */
export async function enableTwoFactor(t: TestApp, cookie: string) {
  const setup = await t.app.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: { cookie } });
  if (setup.statusCode !== 200) throw new Error(`2fa setup: ${setup.statusCode} ${setup.body}`);
  const auth = authenticator(setup.json<{ secret: string }>().secret, t.ctx.now);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/2fa/enable',
    headers: { cookie },
    payload: { code: await auth.next() },
  });
  if (res.statusCode !== 200) throw new Error(`2fa enable: ${res.statusCode} ${res.body}`);
  return { auth, recoveryCodes: res.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** Both sign-in steps: the password, then a code, with the pending-login cookie of the first. */
export async function loginWithCode(app: FastifyInstance, email: string, code: string): Promise<string> {
  const first = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: STRONG_PASSWORD },
  });
  const pending = first.cookies.find((c) => c.name === 'medledger_2fa');
  if (first.statusCode !== 200 || !pending)
    throw new Error(`login ${email}: ${first.statusCode} ${first.body}`);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/2fa/verify',
    headers: { cookie: `medledger_2fa=${pending.value}` },
    payload: { code },
  });
  if (res.statusCode !== 200) throw new Error(`2fa verify ${email}: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}

/**
 * Creates an administrator (as the admin command does), signs it in, turns two-factor sign-in on
 * (administrators review applications only with it) and signs in again with a code.
 */
export async function signedInAdmin(t: TestApp, email = uniqueEmail('admin')) {
  const { user } = await createAdmin(t.ctx.db, email, STRONG_PASSWORD);
  const first = await login(t.app, email);
  const { auth, recoveryCodes } = await enableTwoFactor(t, first);
  const cookie = await loginWithCode(t.app, email, await auth.next());
  return { email, userId: user.id, cookie, auth, recoveryCodes };
}

/** An administrator without two-factor sign-in (it may not review applications). */
export async function signedInAdminWithoutTwoFactor(t: TestApp, email = uniqueEmail('admin')) {
  const { user } = await createAdmin(t.ctx.db, email, STRONG_PASSWORD);
  return { email, userId: user.id, cookie: await login(t.app, email) };
}

type SignedIn = Awaited<ReturnType<typeof signedInHospital>>;
type AddedPatient = Awaited<ReturnType<typeof addPatient>>;

/** Who an API test file needs besides the app; each part is made only when asked for. */
export interface CastOptions {
  config?: Partial<Config>;
  options?: BuildOptions;
  /** Whether to make the main hospital (and with it its patient): default true. */
  hospital?: boolean;
  /** The name of the main hospital (default "General Hospital"). */
  hospitalName?: string;
  /** The main hospital's patient (`patientRow`, signed up as `patient`); these are its fields. */
  patient?: Record<string, unknown> | false;
  /** A second hospital (`otherHospital`) and a second patient of the main one (`otherPatient`). */
  others?: boolean;
  /** An administrator with two-factor sign-in. */
  admin?: boolean;
}

/** The app and the people of a test file, ready once its `beforeAll` has run. */
export interface Cast extends TestApp {
  hospital: SignedIn;
  patientRow: AddedPatient;
  patient: SignedIn;
  otherHospital: SignedIn;
  otherPatientRow: AddedPatient;
  otherPatient: SignedIn;
  admin: Awaited<ReturnType<typeof signedInAdmin>>;
}

/**
 * A patient's own change wrote exactly one audit row: by the patient, from the test client's
 * address, for the patient's hospital, stamped with the ledger entry's hash (and `more`).
 */
export function expectOneAuditByPatient(
  t: Cast,
  audits: Array<typeof auditLogs.$inferSelect>,
  hash: string,
  more: Record<string, unknown> = {},
) {
  expect(audits).toHaveLength(1);
  expect(audits[0]).toMatchObject({
    userId: t.patient.userId,
    blockchainHash: hash,
    ipAddress: '127.0.0.1',
    hospitalId: t.hospital.userId,
    ...more,
  });
}

/**
 * The set-up most API test files share: a fresh app with a signed-in hospital and, as asked, its
 * signed-up patient, another hospital and patient, an administrator; closed after the file's tests.
 * Call at the top of a file: `const t = useCast({ others: true })`, then `t.app`, `t.hospital.cookie`.
 */
export function useCast(options: CastOptions = {}): Cast {
  const cast = {} as Cast;
  beforeAll(async () => {
    const t = await createTestApp(options.config, options.options);
    Object.assign(cast, t);
    if (options.hospital !== false) {
      cast.hospital = await signedInHospital(t.app, options.hospitalName);
      if (options.patient !== false) {
        cast.patientRow = await addPatient(t.app, cast.hospital.cookie, options.patient);
        cast.patient = await signedInPatient(t.app, cast.patientRow.patientId);
      }
      if (options.others) {
        cast.otherHospital = await signedInHospital(t.app, 'Other Clinic');
        cast.otherPatientRow = await addPatient(t.app, cast.hospital.cookie, {
          firstName: 'Bob',
          lastName: 'Other',
        });
        cast.otherPatient = await signedInPatient(t.app, cast.otherPatientRow.patientId);
      }
    }
    if (options.admin) cast.admin = await signedInAdmin(t);
  });
  afterAll(async () => cast.close?.());
  return cast;
}

/** The token of the latest family invitation mailed to `email` (from the outbox), or undefined. */
export function familyInvitationToken(t: TestApp, email: string): string | undefined {
  const mail = outboxMessages(t.ctx.mail.outboxDir)
    .filter((m) => headerOf(m, 'To') === email && linkTo(m, '/signup'))
    .at(-1);
  const link = mail && linkTo(mail, '/signup');
  return link ? (new URL(link).searchParams.get('invite') ?? undefined) : undefined;
}

/** A family member's signup through an invitation (docs/decisions.md#family-proxy-access). */
export const familySignup = (app: FastifyInstance, email: string, inviteToken: string | undefined) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email,
      password: STRONG_PASSWORD,
      firstName: 'Ana',
      lastName: 'Lopez',
      role: 'family',
      inviteToken,
    },
  });

/**
 * The signed-in patient adds a relative with record access (which mails the invitation); the
 * relative registers through it and signs in.
 */
export async function signedInFamily(t: TestApp, patientCookie: string, email = uniqueEmail('family')) {
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/family-contacts',
    headers: { cookie: patientCookie },
    payload: { firstName: 'Ana', lastName: 'Lopez', relationship: 'child', email, canAccessRecords: true },
  });
  if (added.statusCode !== 201) throw new Error(`add family contact: ${added.statusCode} ${added.body}`);
  const token = familyInvitationToken(t, email);
  const res = await familySignup(t.app, email, token);
  if (res.statusCode !== 201) throw new Error(`register family: ${res.statusCode} ${res.body}`);
  return {
    email,
    token: token!,
    contactId: added.json<{ id: string }>().id,
    userId: await accountIdOf(t.app, email),
    cookie: await login(t.app, email),
  };
}

/** The token of the latest staff invitation mailed to `email` (its link to /join-staff). */
export function staffInvitationToken(t: TestApp, email: string): string | undefined {
  const mail = outboxMessages(t.ctx.mail.outboxDir)
    .filter((m) => headerOf(m, 'To') === email && linkTo(m, '/join-staff'))
    .at(-1);
  const link = mail && linkTo(mail, '/join-staff');
  return link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined;
}

/**
 * A staff member as a hospital gets one (docs/decisions.md#staff-accounts): its admin invites them
 * by e-mail, they register through the mailed link and sign in with their own address.
 */
export async function signedInStaff(
  t: TestApp,
  adminCookie: string,
  staffRole: 'hospital_admin' | 'clinician' | 'front_desk',
  names: { firstName: string; lastName: string; department?: string } = {
    firstName: 'Sam',
    lastName: 'Staff',
  },
  email = uniqueEmail(staffRole),
) {
  const invited = await t.app.inject({
    method: 'POST',
    url: '/api/hospital/staff',
    headers: { cookie: adminCookie },
    payload: { email, staffRole, ...names },
  });
  if (invited.statusCode !== 201) throw new Error(`invite staff: ${invited.statusCode} ${invited.body}`);
  await t.ctx.mail.idle();
  const inviteToken = staffInvitationToken(t, email);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { role: 'hospital', inviteToken, email, password: STRONG_PASSWORD, ...names },
  });
  if (res.statusCode !== 201) throw new Error(`register staff: ${res.statusCode} ${res.body}`);
  return { email, userId: await accountIdOf(t.app, email), cookie: await login(t.app, email) };
}
