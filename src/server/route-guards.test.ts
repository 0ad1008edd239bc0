// Route-wide guards, read from the policy each registered route declares (plugins/policy.ts):
// every caller of every route is answered as its policy says (401, 403, 402 or through the
// guards), the policies themselves are pinned below, and no route answers 500 to malformed ids,
// bodies or query strings, whoever calls it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '../shared/account.js';
import type { Role } from '../shared/constants.js';
import { patients, subscriptions, users } from './db/schema.js';
import { PAYMENT_REQUIRED_MESSAGE } from './features/billing/service.js';
import { METRICS_PATH } from './features/metrics/routes.js';
import { forbidden, unauthorized } from './errors.js';
import {
  API_DOCS_PATH,
  CLINICAL_STAFF,
  EVERY_ROLE,
  HEALTH_DATA_CACHE_CONTROL,
  HOSPITAL_ADMINS,
  isPublic,
  type RoutePolicy,
} from './plugins/policy.js';
import { STAFF_MESSAGES } from '../shared/staff.js';
import { samplePdf, uploadRecord } from './features/records/testing.js';
import { linksIn, outboxMessages } from './mail/read-message.js';
import {
  addPatient,
  createTestApp,
  signedInAdmin,
  signedInAdminWithoutTwoFactor,
  signedInFamily,
  signedInHospital,
  signedInPatient,
  signedInStaff,
  type TestApp,
} from './test/helpers.js';

/** Routes whose policy is public (no session). A new route not listed here must declare roles. */
const PUBLIC_ROUTES = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/auth/me',
  // The second sign-in step: the pending-login cookie of the password step is the credential.
  'POST /api/auth/2fa/verify',
  // An account under attack finishes its sign-in with the e-mailed link: its token is the credential.
  'POST /api/auth/sign-in-link',
  'GET /api/health/live',
  'GET /api/health/ready',
  'POST /api/provider-applications',
  'POST /api/provider-register',
  'POST /api/password-reset',
  'POST /api/password-reset/confirm',
  'POST /api/billing/webhook',
  'GET /api/ledger/head',
  'GET /api/ledger/entries/:hash',
  'GET /api/ledger/files/:sha256',
  'GET /api/ledger/consistency',
  'GET /api/ledger/public-key',
  'GET /api/ledger/checkpoint',
  'GET /api/ledger/checkpoints',
  'POST /api/ledger/verify-file',
  // Calendar apps poll it without a session; the long random token in the path is the credential.
  'GET /api/calendar/:feed',
  // A specialist's share link: the 32 random bytes of the token are the credential (rate-limited).
  'GET /api/shares/:token',
  'GET /api/shares/:token/attachments/:attachmentId',
  // Prometheus scrapes it without a session: the METRICS_TOKEN bearer token is the credential.
  'GET /metrics',
]);

/**
 * Writes a hospital may still make after its trial. Every other write a hospital can reach must
 * declare writeAccess in its policy (402 after the trial); a new route without it fails below.
 */
const WRITES_WITHOUT_SUBSCRIPTION = new Set([
  'POST /api/billing/checkout', // paying is how the hospital gets its write access back
  'PUT /api/notifications/preferences', // a person's own mail settings, not the hospital's records
  // A person's own sign-in security: two-factor, password, sessions.
  'POST /api/auth/2fa/setup',
  'POST /api/auth/2fa/enable',
  'POST /api/auth/2fa/disable',
  'POST /api/auth/password',
  'DELETE /api/auth/sessions/:id',
  'POST /api/hospital/verification', // asking MedLedger to verify it changes no record
]);
/**
 * What an administrator without two-factor sign-in may still reach: the routes every signed-in
 * account has (its own sign-in security, where two-factor is set up, and its mail settings).
 */
const ADMIN_WITHOUT_TWO_FACTOR = new Set([
  'GET /api/auth/2fa',
  'POST /api/auth/2fa/setup',
  'POST /api/auth/2fa/enable',
  'POST /api/auth/2fa/disable',
  'POST /api/auth/password',
  'GET /api/auth/sessions',
  'DELETE /api/auth/sessions/:id',
  'GET /api/notifications/preferences',
  'PUT /api/notifications/preferences',
]);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The staff matrix (docs/decisions.md#staff-accounts), pinned here apart from the policies that
 * declare it: the routes a front-desk member is refused (records' contents, and what only admins
 * do), and the ones a clinician is refused (what only admins do). Every other hospital route lets
 * every staff role through.
 */
const ADMINS_ONLY = [
  'GET /api/hospital/staff',
  'POST /api/hospital/staff',
  'GET /api/hospital/staff/invitations',
  'POST /api/hospital/staff/invitations/:id/resend',
  'DELETE /api/hospital/staff/invitations/:id',
  'PATCH /api/hospital/staff/:userId',
  'POST /api/hospital/staff/:userId/deactivate',
  'POST /api/hospital/staff/:userId/reactivate',
  'PUT /api/hospital/settings',
  'POST /api/billing/checkout',
  'GET /api/audit-logs',
  'GET /api/audit-logs/users',
  'GET /api/hospital/verification',
  'POST /api/hospital/verification',
];
const CLINICIAN_REFUSED = new Set(ADMINS_ONLY);
const FRONT_DESK_REFUSED = new Set([
  ...ADMINS_ONLY,
  'DELETE /api/patients/:id',
  'POST /api/medical-records',
  'POST /api/medical-records/:id/amend',
  'POST /api/medical-records/:id/entered-in-error',
  'GET /api/medical-records/:id/history',
  'GET /api/medical-records/drafts',
  'GET /api/medical-records/record/:id',
  'POST /api/medical-records/:id/finalize',
  'DELETE /api/medical-records/:id',
  'PUT /api/medical-records/:id/sharing',
  'GET /api/download/:fileName',
  'GET /api/medical-records/:id/receipt',
  'GET /api/medical-records/:id/verification',
  'GET /api/fhir/Patient/:id/$everything',
  'GET /api/consent/:userId',
  'POST /api/medical-records/:id/shares',
  'GET /api/medical-records/:id/shares',
  'DELETE /api/medical-records/:id/shares/:shareId',
]);

/**
 * API answers that are public and may be kept by a cache, with their declared Cache-Control. Every
 * other API answer, whoever asks and whatever the status, must be `no-store`.
 */
const CACHEABLE_ROUTES = new Map([
  ['GET /api/ledger/public-key', 'public, max-age=300'],
  ['GET /api/ledger/checkpoint', 'no-cache'],
]);
const NO_STORE = /(^|,\s*)no-store(\s*,|$)/;

interface Route {
  method: string;
  url: string;
  policy: RoutePolicy | undefined;
}
const routes: Route[] = [];
let t: TestApp;
const cookies: Record<string, string> = {};

/**
 * A request carrying this header stops right after the route's onRequest guards (in a preValidation
 * hook the probe adds to every route), answered 204 with PASSED: what a guard lets through is seen
 * without running the handler (no write, no mail, no signing out).
 */
const PROBE = 'x-guard-probe';
const PASSED = 'x-guard-passed';

beforeAll(async () => {
  t = await createTestApp(
    // With its token set, /metrics is served, and refuses callers without the token with 401.
    { metricsToken: 'route-guards-metrics-token' },
    {
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          const api = route.url.startsWith('/api/') && !route.url.startsWith(API_DOCS_PATH);
          // GET /metrics is outside /api/ (where Prometheus looks) and is guarded like the API.
          if ((api || route.url === METRICS_PATH) && method !== 'HEAD') {
            routes.push({ method, url: route.url, policy: route.config?.policy });
          }
        }
        const own = route.preValidation ?? [];
        route.preValidation = [
          async (request, reply) => {
            if (request.headers[PROBE]) await reply.status(204).header(PASSED, 'yes').send();
          },
          ...(Array.isArray(own) ? own : [own]),
        ];
      },
    },
  );
  const hospital = await signedInHospital(t.app);
  const patient = await addPatient(t.app, hospital.cookie);
  cookies.hospital = hospital.cookie;
  cookies.patient = (await signedInPatient(t.app, patient.patientId)).cookie;
  // A relative with a live grant to that patient (docs/decisions.md#family-proxy-access).
  cookies.family = (await signedInFamily(t, cookies.patient)).cookie;
  cookies.admin = (await signedInAdmin(t)).cookie;
  cookies.adminWithoutTwoFactor = (await signedInAdminWithoutTwoFactor(t)).cookie;
  const lapsed = await signedInHospital(t.app, 'Lapsed Hospital');
  await t.ctx.db
    .update(subscriptions)
    .set({ trialEndsAt: new Date(Date.now() - 1000) })
    .where(eq(subscriptions.userId, lapsed.userId));
  cookies.lapsedHospital = lapsed.cookie;
  cookies.clinician = (await signedInStaff(t, hospital.cookie, 'clinician')).cookie;
  cookies.frontDesk = (await signedInStaff(t, hospital.cookie, 'front_desk')).cookie;
  // A hospital that requires two-factor of its staff, and a member without it.
  const strict = await signedInHospital(t.app, 'Strict Hospital');
  const strictMember = await signedInStaff(t, strict.cookie, 'clinician');
  await t.ctx.db.update(users).set({ staffTwoFactorRequired: true }).where(eq(users.id, strict.userId));
  cookies.staffWithoutRequiredTwoFactor = strictMember.cookie;
});
afterAll(async () => t?.close());

const fill = (url: string, value: string) => url.replace(/:[A-Za-z]+/g, encodeURIComponent(value));

/** Without Stripe keys, checkout and the webhook honestly answer 503; nothing else may fail with 5xx. */
const paymentUnconfigured = (url: string, status: number) =>
  status === 503 && (url === '/api/billing/webhook' || url === '/api/billing/checkout');

/**
 * The app's answer to a refused request: a `{ message }` (sometimes with details of its own), not
 * Fastify's default body, which names its internal error code and repeats the address.
 */
const isPlainAnswer = (json: Record<string, unknown>) =>
  typeof json.message === 'string' && !('code' in json) && !('statusCode' in json);

/**
 * The routes the bad-input probes walk: logout reads no input, and would sign the role out for
 * every route after it.
 */
const routesTakingInput = () => routes.filter((r) => r.url !== '/api/auth/logout');

/**
 * A new client address for each probe: the per-address rate limits (10 invitations an hour, for
 * one) would otherwise answer 429 before the handler ever sees the later roles' bad input.
 */
let addresses = 0;
const nextAddress = () => {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/** Everyone who calls: signed out, each role, and the two accounts a guard treats apart. */
const CALLERS = [
  { name: 'signed-out', cookie: null, role: null },
  { name: 'hospital', cookie: 'hospital', role: 'hospital' },
  { name: 'hospital after its trial', cookie: 'lapsedHospital', role: 'hospital' },
  { name: 'clinician', cookie: 'clinician', role: 'hospital' },
  { name: 'front desk', cookie: 'frontDesk', role: 'hospital' },
  {
    name: 'staff without the two-factor their hospital requires',
    cookie: 'staffWithoutRequiredTwoFactor',
    role: 'hospital',
  },
  { name: 'patient', cookie: 'patient', role: 'patient' },
  { name: 'family', cookie: 'family', role: 'family' },
  { name: 'administrator', cookie: 'admin', role: 'medledger_admin' },
  { name: 'administrator without two-factor', cookie: 'adminWithoutTwoFactor', role: 'medledger_admin' },
] as const satisfies readonly { name: string; cookie: string | null; role: Role | null }[];
type Caller = (typeof CALLERS)[number];

/** What the guards must answer a caller of a route, from the route's declared policy. */
function guardAnswer(route: Route, policy: RoutePolicy, caller: Caller): string {
  if (isPublic(policy)) return PASSES;
  if (caller.role === null) return `401 ${unauthorized().message}`;
  if (!policy.roles.includes(caller.role)) return `403 ${forbidden().message}`;
  if (caller.cookie === 'adminWithoutTwoFactor' && !ADMIN_WITHOUT_TWO_FACTOR.has(keyOf(route)))
    return `403 ${TWO_FACTOR_MESSAGES.adminSetupRequired}`;
  if (caller.cookie === 'lapsedHospital' && policy.writeAccess) return `402 ${PAYMENT_REQUIRED_MESSAGE}`;
  const refusedStaff =
    (caller.cookie === 'clinician' && CLINICIAN_REFUSED.has(keyOf(route))) ||
    (caller.cookie === 'frontDesk' && FRONT_DESK_REFUSED.has(keyOf(route)));
  if (refusedStaff) return `403 ${staffRefusal(policy)}`;
  if (caller.cookie === 'staffWithoutRequiredTwoFactor' && CLINICIAN_REFUSED.has(keyOf(route)))
    return `403 ${staffRefusal(policy)}`;
  // The account's own routes stay open; patients' data and every change close.
  if (
    caller.cookie === 'staffWithoutRequiredTwoFactor' &&
    policy.roles !== EVERY_ROLE &&
    (policy.healthData || policy.writeAccess)
  )
    return `403 ${STAFF_MESSAGES.twoFactorRequired}`;
  return PASSES;
}

/** What a staff member refused by a route's staffRoles is told. */
const staffRefusal = (policy: RoutePolicy) =>
  !isPublic(policy) && policy.staffRoles === HOSPITAL_ADMINS
    ? STAFF_MESSAGES.adminsOnly
    : !isPublic(policy) && policy.staffRoles === CLINICAL_STAFF
      ? STAFF_MESSAGES.noRecordContents
      : forbidden().message;
const PASSES = 'passes the guards';

describe('every API route', () => {
  it('lists the routes it checks', () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  it('finds a declared policy on every route', () => {
    // buildApp refuses to start without one under /api/; /metrics declares its own too.
    expect(routes.filter((r) => r.policy === undefined).map(keyOf)).toEqual([]);
  });

  it('declares public exactly the routes meant to be public', () => {
    const declared = routes.filter((r) => r.policy && isPublic(r.policy)).map(keyOf);
    expect(declared.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('declares write access on every write a hospital can reach, but the ones it keeps after its trial', () => {
    const hospitalWrites = routes.filter(
      (r) =>
        WRITE_METHODS.has(r.method) && r.policy && !isPublic(r.policy) && r.policy.roles.includes('hospital'),
    );
    const unguarded = hospitalWrites.filter((r) => r.policy && !isPublic(r.policy) && !r.policy.writeAccess);
    expect(unguarded.map(keyOf).sort()).toEqual([...WRITES_WITHOUT_SUBSCRIPTION].sort());
    // The hospital's writes: patients, records, sharing, appointments, settings.
    expect(hospitalWrites.length - unguarded.length).toBeGreaterThanOrEqual(12);
  });

  it("answers every caller as the route's declared policy says, before reading anything", async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const { policy } = route;
      if (!policy) continue; // the test above names it
      for (const caller of CALLERS) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          remoteAddress: nextAddress(),
          url: fill(route.url, '00000000-0000-4000-8000-000000000000'),
          headers: { [PROBE]: '1', ...(caller.cookie ? { cookie: cookies[caller.cookie] } : {}) },
        });
        const answer =
          res.statusCode === 204 && res.headers[PASSED] === 'yes'
            ? PASSES
            : `${res.statusCode} ${res.json<{ message?: string }>().message ?? res.body}`;
        const expected = guardAnswer(route, policy, caller);
        if (answer !== expected)
          wrong.push(`${keyOf(route)} as ${caller.name}: ${answer} (expected ${expected})`);
      }
    }
    expect(wrong).toEqual([]);
  }, 90_000);

  const badIds = [
    'not-a-uuid',
    '../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    "1' or '1'='1",
    'ÿ'.repeat(300),
    // Over the router's path-segment limit, and percent-encoding that is not UTF-8 (a lone
    // surrogate): the router answers these itself, before any route.
    'x'.repeat(5000),
    '%ED%A0%80',
  ];
  const badBodies: unknown[] = [
    [1, 2],
    'text',
    { id: { $ne: 1 }, email: 42, status: null, patientId: ['x'] },
    {},
  ];

  for (const role of ['signed-out', 'hospital', 'patient', 'admin', 'family'] as const) {
    it(`never answers 500 to malformed input (${role})`, async () => {
      const failures: string[] = [];
      for (const route of routesTakingInput()) {
        for (const id of badIds) {
          for (const body of route.method === 'GET' ? [undefined] : badBodies) {
            const res = await t.app.inject({
              method: route.method as 'GET',
              remoteAddress: nextAddress(),
              url: `${fill(route.url, id)}?page=-1&pageSize=abc&from=x&to=y&action=%00&date=notadate&userId=${'-'.repeat(36)}`,
              headers: role === 'signed-out' ? {} : { cookie: cookies[role] },
              ...(body === undefined
                ? {}
                : typeof body === 'string'
                  ? {
                      payload: body,
                      headers: {
                        'content-type': 'application/json',
                        ...(role === 'signed-out' ? {} : { cookie: cookies[role] }),
                      },
                    }
                  : { payload: body as object }),
            });
            if (res.statusCode >= 500 && !paymentUnconfigured(route.url, res.statusCode))
              failures.push(`${route.method} ${route.url} [${id}] -> ${res.statusCode} ${res.body}`);
            if (res.statusCode >= 400) {
              const json = res.json<{ message?: unknown }>();
              if (!isPlainAnswer(json) || /\bat .+:\d+:\d+/.test(res.body)) {
                failures.push(
                  `${route.method} ${route.url}: answer is not a plain {message}: ${res.body.slice(0, 200)}`,
                );
              }
            }
          }
        }
      }
      expect(failures).toEqual([]);
      // Every probe above ran as the role: no route ended its session on the way.
      if (role !== 'signed-out') {
        const me = await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { cookie: cookies[role] },
        });
        expect(me.json<{ user: unknown }>().user).not.toBeNull();
      }
    }, 90_000); // every route with every bad id and body: slow on a loaded machine
  }

  it('answers every API route no-store (health data private, no-store), as every role, unless it is declared public and cacheable', async () => {
    const wrong: string[] = [];
    for (const role of ['signed-out', 'hospital', 'patient', 'admin', 'family'] as const) {
      for (const route of routesTakingInput()) {
        const key = `${route.method} ${route.url}`;
        const res = await t.app.inject({
          method: route.method as 'GET',
          remoteAddress: nextAddress(),
          url: fill(route.url, '00000000-0000-4000-8000-000000000000'),
          headers: role === 'signed-out' ? {} : { cookie: cookies[role] },
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        const cacheControl = String(res.headers['cache-control'] ?? '');
        const declared = CACHEABLE_ROUTES.get(key);
        const expected = declared ?? (route.policy?.healthData ? HEALTH_DATA_CACHE_CONTROL : undefined);
        if (expected !== undefined ? cacheControl !== expected : !NO_STORE.test(cacheControl))
          wrong.push(`${key} (${role}) -> ${res.statusCode} cache-control: ${cacheControl || 'none'}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 90_000);

  it('answers the health data the probe named with no-store, the 200s included', async () => {
    const [patient] = await t.ctx.db.select().from(patients).limit(1);
    const upload = await uploadRecord(t.app, cookies.hospital, patient.id, {
      fields: { title: 'Cardiology report', shareWithSpecialists: 'true' },
      files: [{ fileName: 'ecg.pdf', bytes: samplePdf('no-store') }],
    });
    expect(upload.statusCode).toBe(201);
    const recordId = upload.json<{ id: string }>().id;
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/medical-records/${recordId}/shares`,
      headers: { cookie: cookies.patient },
      payload: { recipientEmail: 'dr.heart@clinic.example', expiresInHours: 48 },
    });
    expect(shared.statusCode).toBe(201);
    const messages = outboxMessages(t.ctx.mail.outboxDir);
    const link = linksIn(messages[messages.length - 1]).find((l) =>
      new URL(l).pathname.startsWith('/shared/'),
    );
    const token = new URL(link ?? 'http://x/').pathname.split('/').pop();
    const reads: [string, string | undefined][] = [
      ['/api/patients', cookies.hospital],
      [`/api/patients/${patient.id}`, cookies.hospital],
      [`/api/medical-records/record/${recordId}`, cookies.patient],
      ['/api/audit-logs', cookies.hospital],
      [`/api/shares/${token}`, undefined],
    ];
    for (const [url, cookie] of reads) {
      const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toMatch(NO_STORE);
    }
  });

  it("answers the router's own refusals in words, without repeating the address", async () => {
    const tooLong = await t.app.inject({ method: 'GET', url: `/api/ledger/entries/${'a'.repeat(5000)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({ message: 'The address is too long.' });
    const undecodable = await t.app.inject({ method: 'GET', url: '/api/download/%ED%A0%80' });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toEqual({ message: 'The address is not valid.' });
  });

  // PostgreSQL cannot store NUL: every text the routes take must refuse it with a 4xx {message}.
  const NUL = 'a\u0000b';
  const nulBody = Object.fromEntries(
    [
      'email',
      'password',
      'firstName',
      'lastName',
      'mrn',
      'activationCode',
      'hospitalName',
      'title',
      'description',
      'notes',
      'search',
      'name',
      'address',
      'phone',
      'relationship',
      'doctorName',
      'department',
      'location',
      'reviewNotes',
      'token',
      'currentPassword',
      'newPassword',
      'code',
      'contactEmail',
      'organizationName',
      'appointmentType',
      'appointmentDate',
      'recordType',
      'status',
      'reason',
      'patientId',
      'inviteToken',
    ].map((k) => [k, NUL]),
  );
  for (const role of ['signed-out', 'hospital', 'patient', 'admin', 'family'] as const) {
    it(`refuses NUL in ids, queries and bodies without a 5xx (${role})`, async () => {
      const failures: string[] = [];
      for (const route of routesTakingInput()) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          remoteAddress: nextAddress(),
          url: `${fill(route.url, NUL)}?search=%00&action=%00&from=%00&to=%00&treeSize=%00`,
          headers: role === 'signed-out' ? {} : { cookie: cookies[role] },
          ...(route.method === 'GET' ? {} : { payload: nulBody }),
        });
        if (res.statusCode >= 500 && !paymentUnconfigured(route.url, res.statusCode))
          failures.push(`${route.method} ${route.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode >= 400 && !isPlainAnswer(res.json()))
          failures.push(`${route.method} ${route.url}: answer is not a plain {message}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
