// Two-factor sign-in (issue 9) through the API: set-up and enable with codes computed here by a
// hand-written RFC 6238 (HMAC-SHA1), the two-step sign-in bound to the browser's pending cookie,
// replay and drift, single-use recovery codes, the throttle, expiry, disable, and administrators
// who may review provider applications only with two-factor sign-in on.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '../../../shared/account.js';
import { recoveryCodes, userTwoFactor } from '../../db/schema.js';
import {
  auditRows,
  call,
  createTestApp,
  signedInAdmin,
  signedInAdminWithoutTwoFactor,
  signedInHospital,
  STRONG_PASSWORD,
  type TestApp,
} from '../../test/helpers.js';
import { resetTwoFactor } from './two-factor.js';

/** RFC 4648 base32 without padding. */
function base32Decode(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of s.replace(/=+$/, '').toUpperCase()) {
    const v = alphabet.indexOf(c);
    if (v < 0) throw new Error(`not base32: ${c}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238 / RFC 4226: HMAC-SHA1 of the 8-byte step counter, dynamic truncation, 6 digits. */
function hotp(key: Buffer, step: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = crypto.createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const bin = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

let clock = new Date('2031-03-01T10:00:00.000Z');
const step = () => Math.floor(clock.getTime() / 30_000);
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 5 }, { now: () => clock });
});
afterAll(async () => t?.close());

let lastIp = 0;
/** Each test signs in from its own address, so that one test's failures do not throttle another. */
const nextIp = () => `10.1.0.${++lastIp}`;

const post = (url: string, cookie: string | undefined, payload?: object, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const me = async (cookie?: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie ? { cookie } : {} })).json().user;
const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c ? `${name}=${c.value}` : undefined;
};

/** A hospital with two-factor sign-in on, set up through the API. */
async function enrolled() {
  const h = await signedInHospital(t.app);
  const setup = await post('/api/auth/2fa/setup', h.cookie);
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUri } = setup.json<{ secret: string; otpauthUri: string }>();
  const key = base32Decode(secret);
  const enable = await post('/api/auth/2fa/enable', h.cookie, { code: hotp(key, step()) });
  expect(enable.statusCode).toBe(200);
  return {
    ...h,
    secret,
    otpauthUri,
    key,
    recoveryCodes: enable.json<{ recoveryCodes: string[] }>().recoveryCodes,
  };
}

/** The password step: answers the pending-login cookie. */
async function passwordStep(email: string, remoteAddress?: string) {
  const res = await post('/api/auth/login', undefined, { email, password: STRONG_PASSWORD }, remoteAddress);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ twoFactorRequired: true });
  expect(cookieOf(res, 'medledger_sid')).toBeUndefined();
  const pending = cookieOf(res, 'medledger_2fa');
  expect(pending).toBeDefined();
  return pending!;
}

describe('the RFC 6238 reference used by these tests', () => {
  it('gives the RFC test vector (SHA-1, T = 59 s)', () => {
    expect(hotp(Buffer.from('12345678901234567890'), Math.floor(59 / 30), 8)).toBe('94287082');
  });
});

describe('two-factor set-up', () => {
  it('answers a base32 secret and its otpauth URI, and keeps the secret encrypted', async () => {
    const h = await signedInHospital(t.app);
    const res = await post('/api/auth/2fa/setup', h.cookie);
    const { secret, otpauthUri } = res.json<{ secret: string; otpauthUri: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/MedLedger:${h.email}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret,
      issuer: 'MedLedger',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    const [row] = await t.ctx.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, h.userId));
    expect(row.pendingSecret).toBeTruthy();
    expect(row.pendingSecret).not.toContain(secret);
    expect(row.secret).toBeNull();
    // Not on yet: sign-in stays one step.
    expect((await me(h.cookie)).twoFactorEnabled).toBe(false);
  });

  it('refuses a wrong code, enables with a right one and answers 10 recovery codes once', async () => {
    const h = await signedInHospital(t.app);
    const { secret } = (await post('/api/auth/2fa/setup', h.cookie)).json<{ secret: string }>();
    const key = base32Decode(secret);
    const wrong = await post('/api/auth/2fa/enable', h.cookie, { code: hotp(key, step() + 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.codeInvalid);
    const empty = await post('/api/auth/2fa/enable', h.cookie, { code: '' });
    expect(empty.statusCode).toBe(400);
    const ok = await post('/api/auth/2fa/enable', h.cookie, { code: hotp(key, step()) });
    expect(ok.statusCode).toBe(200);
    const codes = ok.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await me(h.cookie)).twoFactorEnabled).toBe(true);
    const status = await call(t.app, 'GET', '/api/auth/2fa', h.cookie);
    expect(status.json()).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    // The secret is never answered again: a new set-up is refused while it is on.
    expect((await post('/api/auth/2fa/setup', h.cookie)).statusCode).toBe(409);
    const [row] = await t.ctx.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, h.userId));
    expect(row.pendingSecret).toBeNull();
    expect(row.secret).not.toContain(secret);
    // The recovery codes are kept only as keyed hashes.
    const stored = await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, h.userId));
    expect(stored).toHaveLength(10);
    const plainHashes = codes.map((c) =>
      crypto.createHash('sha256').update(c.replace('-', '')).digest('hex'),
    );
    for (const r of stored) {
      expect(codes.some((c) => r.codeHash.includes(c.replace('-', '')))).toBe(false);
      expect(plainHashes).not.toContain(r.codeHash);
    }
    const [audit] = await auditRows(t, { action: 'two_factor_change' });
    expect(audit.details).toBe('Turned on two-factor sign-in');
  });
});

describe('two-step sign-in', () => {
  it('signs nobody in with the password alone; the code completes it in the same browser only', async () => {
    const u = await enrolled();
    advance(30_000);
    const pending = await passwordStep(u.email);
    expect(await me()).toBeNull();
    expect(await me(pending)).toBeNull();
    // Another browser (no pending cookie) cannot finish this sign-in, even with a right code.
    const code = hotp(u.key, step());
    const elsewhere = await post('/api/auth/2fa/verify', undefined, { code });
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.json().message).toBe(TWO_FACTOR_MESSAGES.noPendingLogin);
    const ok = await post('/api/auth/2fa/verify', pending, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(u.email);
    const session = cookieOf(ok, 'medledger_sid');
    expect((await me(session)).email).toBe(u.email);
    // The pending sign-in is used up.
    expect((await post('/api/auth/2fa/verify', pending, { code: hotp(u.key, step() + 1) })).statusCode).toBe(
      401,
    );
  });

  it('refuses a code used before (replay) and accepts one step of drift either way, no more', async () => {
    const u = await enrolled();
    let ip = nextIp();
    const attempt = async (code: string) =>
      (await post('/api/auth/2fa/verify', await passwordStep(u.email, ip), { code }, ip)).statusCode;
    advance(30_000);
    const used = hotp(u.key, step());
    expect(await attempt(used)).toBe(200);
    const replay = await post('/api/auth/2fa/verify', await passwordStep(u.email, ip), { code: used }, ip);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.codeInvalid);
    // One step ahead is accepted; after it, the current step is older than the last used one.
    expect(await attempt(hotp(u.key, step() + 1))).toBe(200);
    expect(await attempt(hotp(u.key, step()))).toBe(401);
    advance(5 * 30_000);
    ip = nextIp(); // two failed sign-ins (password and code each) would reach this address's limit
    expect(await attempt(hotp(u.key, step() - 2))).toBe(401);
    expect(await attempt(hotp(u.key, step() - 1))).toBe(200);
  });

  it('accepts each recovery code once, in any case and with or without its dash', async () => {
    const u = await enrolled();
    const ip = nextIp();
    const attempt = async (code: string) =>
      (await post('/api/auth/2fa/verify', await passwordStep(u.email, ip), { code }, ip)).statusCode;
    const [first, second] = u.recoveryCodes;
    expect(await attempt(first.toUpperCase())).toBe(200);
    expect(await attempt(first)).toBe(401);
    expect(await attempt(second.replace('-', ''))).toBe(200);
    const status = await call(t.app, 'GET', '/api/auth/2fa', u.cookie);
    expect(status.json().recoveryCodesLeft).toBe(8);
    const signIns = await auditRows(t, { action: 'login', userId: u.userId });
    expect(signIns.map((e) => e.details)).toContain('Signed in as hospital with a recovery code');
  });

  it('throttles wrong codes like wrong passwords (429 with a message), even for a right code then', async () => {
    const u = await enrolled();
    advance(30_000);
    const ip = nextIp();
    const pending = await passwordStep(u.email, ip);
    const wrong = String((Number(hotp(u.key, step())) + 1) % 1_000_000).padStart(6, '0');
    // The password step counted once; four wrong codes reach the limit of five.
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/auth/2fa/verify', pending, { code: wrong }, ip)).statusCode).toBe(401);
    }
    const blocked = await post('/api/auth/2fa/verify', pending, { code: hotp(u.key, step()) }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(await me(pending)).toBeNull();
    // The owner's other address is not locked out.
    const otherIp = nextIp();
    const other = await post(
      '/api/auth/2fa/verify',
      await passwordStep(u.email, otherIp),
      { code: hotp(u.key, step()) },
      otherIp,
    );
    expect(other.statusCode).toBe(200);
  });

  it('drops a waiting sign-in when the password is changed meanwhile', async () => {
    const u = await enrolled();
    advance(30_000);
    const pending = await passwordStep(u.email);
    const changed = await post('/api/auth/password', u.cookie, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'Chang3d!Passw0rd',
    });
    expect(changed.statusCode).toBe(200);
    const late = await post('/api/auth/2fa/verify', pending, { code: hotp(u.key, step()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(TWO_FACTOR_MESSAGES.noPendingLogin);
    expect((await me(u.cookie)).email).toBe(u.email);
  });

  it('lets a pending sign-in expire after 5 minutes', async () => {
    const u = await enrolled();
    advance(30_000);
    const pending = await passwordStep(u.email);
    advance(5 * 60_000 + 1000);
    const late = await post('/api/auth/2fa/verify', pending, { code: hotp(u.key, step()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(TWO_FACTOR_MESSAGES.noPendingLogin);
  });

  it('turns off with the password (a wrong one is refused), and sign-in is one step again', async () => {
    const u = await enrolled();
    const wrong = await post('/api/auth/2fa/disable', u.cookie, { password: 'Wrong!Passw0rd' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('The password is not correct.');
    const off = await post('/api/auth/2fa/disable', u.cookie, { password: STRONG_PASSWORD });
    expect(off.statusCode).toBe(200);
    const res = await post('/api/auth/login', undefined, { email: u.email, password: STRONG_PASSWORD });
    expect(res.json().user.email).toBe(u.email);
    expect(cookieOf(res, 'medledger_sid')).toBeDefined();
    // The old recovery codes are gone.
    const status = await call(t.app, 'GET', '/api/auth/2fa', u.cookie);
    expect(status.json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
  });
});

describe('reset from the command line', () => {
  it('turns two-factor sign-in off for a locked-out account', async () => {
    const u = await enrolled();
    expect(await resetTwoFactor(t.ctx.db, u.email.toUpperCase())).toBe(true);
    const res = await post('/api/auth/login', undefined, { email: u.email, password: STRONG_PASSWORD });
    expect(res.json().user.twoFactorEnabled).toBe(false);
    expect(await resetTwoFactor(t.ctx.db, u.email)).toBe(false);
    await expect(resetTwoFactor(t.ctx.db, 'nobody@example.test')).rejects.toThrow(
      'No account has this e-mail.',
    );
  });
});

describe('administrators', () => {
  it('may not review provider applications without two-factor sign-in, and may with it', async () => {
    const bare = await signedInAdminWithoutTwoFactor(t);
    const id = '00000000-0000-4000-8000-000000000000';
    const review = (cookie: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/provider-applications/${id}/review`,
        headers: { cookie },
        payload: { status: 'approved' },
      });
    const refused = await review(bare.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(TWO_FACTOR_MESSAGES.adminSetupRequired);
    const resend = await post(`/api/provider-applications/${id}/resend-link`, bare.cookie);
    expect(resend.statusCode).toBe(403);
    // Nor the list: an administrator without two-factor reads nothing but its set-up (issue 56).
    const list = await call(t.app, 'GET', '/api/provider-applications', bare.cookie);
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe(TWO_FACTOR_MESSAGES.adminSetupRequired);

    const admin = await signedInAdmin(t);
    expect((await review(admin.cookie)).statusCode).toBe(404);
  });
});
