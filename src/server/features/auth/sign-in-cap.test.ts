// The per-account cap of the sign-in throttle (issue 56 item 7): guesses on one account from many
// addresses at once are evaluated at most up to the cap; past it a right password answers like a
// wrong one and the owner gets in through an e-mailed one-time link (or their second factor).
// And TRUST_PROXY: which X-Forwarded-For hops are believed, so one client cannot pose as many.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerOf, linkTo, outboxMessages } from '../../mail/read-message.js';
import { fastifyTrustProxy, parseTrustProxy } from '../../config.js';
import {
  auditRows,
  createTestApp,
  enableTwoFactor,
  login,
  registerHospital,
  sessionCookie,
  STRONG_PASSWORD,
  type TestApp,
} from '../../test/helpers.js';
import { SIGN_IN_LINK_SENT } from './service.js';
import { SIGN_IN_LINK_INVALID, SIGN_IN_LINK_MINUTES } from './sign-in-links.js';
import { accountCap } from './throttle.js';

const MAX = 3;
const CAP = accountCap(MAX);
let clock = new Date('2026-12-01T09:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { loginMaxFailures: MAX, publicUrl: 'http://medledger.test' },
    { now: () => clock },
  );
});
afterAll(async () => t?.close());

let addresses = 0;
/** A client address no attempt has used yet. */
const freshAddress = () => `10.56.${(++addresses >> 8) & 255}.${addresses & 255}`;
const attempt = (email: string, password: string, remoteAddress = freshAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

/** The token of the last sign-in link mailed to `email`, or undefined. */
async function lastLinkToken(email: string): Promise<string | undefined> {
  await t.ctx.mail.idle();
  const mails = outboxMessages(t.ctx.mail.outboxDir).filter((m) => headerOf(m, 'To') === email);
  const link = mails
    .map((m) => linkTo(m, '/sign-in-link'))
    .filter(Boolean)
    .pop();
  return link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined;
}
const useLink = (token: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in-link',
    payload: { token },
    remoteAddress: freshAddress(),
  });

/** Many wrong guesses at once, each from its own address: the statuses and bodies. */
async function guessAtOnce(email: string, n: number) {
  const answers = await Promise.all(Array.from({ length: n }, () => attempt(email, 'wrong-password')));
  return answers.map((r) => ({ status: r.statusCode, message: r.json<{ message: string }>().message }));
}

describe('the per-account cap', () => {
  it('evaluates exactly the cap of 40 simultaneous guesses from 40 addresses; the rest learn nothing', async () => {
    const { email } = await registerHospital(t.app);
    const answers = await guessAtOnce(email, 40);
    expect(answers.filter((a) => a.status === 401 && a.message === 'Invalid credentials')).toHaveLength(CAP);
    expect(answers.filter((a) => a.status === 429 && a.message === SIGN_IN_LINK_SENT)).toHaveLength(40 - CAP);
  });

  it('answers a right password past the cap exactly like a wrong one, signs nobody in, and mails a link', async () => {
    const { email } = await registerHospital(t.app);
    await guessAtOnce(email, CAP);
    const wrong = await attempt(email, 'wrong-password');
    const right = await attempt(email, STRONG_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json()).toEqual({ message: SIGN_IN_LINK_SENT });
    expect(right.cookies.find((c) => c.name === 'medledger_sid')).toBeUndefined();
    // Only the right password mailed anything.
    await t.ctx.mail.idle();
    const links = outboxMessages(t.ctx.mail.outboxDir).filter(
      (m) => headerOf(m, 'To') === email && linkTo(m, '/sign-in-link'),
    );
    expect(links).toHaveLength(1);

    // The owner follows the link: signed in, audited, and the account's count starts again.
    const token = await lastLinkToken(email);
    const signedIn = await useLink(token);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.email).toBe(email);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: sessionCookie(signedIn) },
    });
    expect(me.json().user.email).toBe(email);
    const logins = await auditRows(t, { action: 'login', userId: signedIn.json().user.id });
    expect(logins.map((l) => l.details)).toEqual(['Signed in as hospital with an e-mailed sign-in link']);
    expect((await attempt(email, STRONG_PASSWORD)).statusCode).toBe(200);

    // A link works once.
    const again = await useLink(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: SIGN_IN_LINK_INVALID });
  });

  it('lets the owner sign in with the new password at once after a password reset', async () => {
    const { email } = await registerHospital(t.app);
    await guessAtOnce(email, CAP);
    await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email } });
    await t.ctx.mail.idle();
    const mails = outboxMessages(t.ctx.mail.outboxDir).filter((m) => headerOf(m, 'To') === email);
    const link = mails
      .map((m) => linkTo(m, '/reset-password'))
      .filter(Boolean)
      .pop();
    const token = new URL(link ?? 'http://x/').searchParams.get('token');
    const newPassword = 'N3w!Passw0rd-after-reset';
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { token, password: newPassword },
    });
    expect(reset.statusCode).toBe(200);
    expect((await attempt(email, newPassword)).statusCode).toBe(200);
  });

  it('refuses an expired link, and a made-up one, with the same message', async () => {
    const { email } = await registerHospital(t.app);
    await guessAtOnce(email, CAP);
    await attempt(email, STRONG_PASSWORD);
    const token = await lastLinkToken(email);
    expect(token).toBeDefined();
    const saved = clock;
    clock = new Date(clock.getTime() + (SIGN_IN_LINK_MINUTES * 60 + 1) * 1000);
    try {
      const expired = await useLink(token);
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ message: SIGN_IN_LINK_INVALID });
    } finally {
      clock = saved;
    }
    const madeUp = await useLink('x'.repeat(43));
    expect(madeUp.json()).toEqual({ message: SIGN_IN_LINK_INVALID });
  });

  it('mails at most three live links however often the right password is sent', async () => {
    const { email } = await registerHospital(t.app);
    await guessAtOnce(email, CAP);
    await Promise.all(Array.from({ length: 6 }, () => attempt(email, STRONG_PASSWORD)));
    await t.ctx.mail.idle();
    const links = outboxMessages(t.ctx.mail.outboxDir).filter(
      (m) => headerOf(m, 'To') === email && linkTo(m, '/sign-in-link'),
    );
    expect(links).toHaveLength(3);
  });

  it('lets an account with two-factor on go on to its code past the cap, and mails no link', async () => {
    const { email } = await registerHospital(t.app);
    const { auth } = await enableTwoFactor(t, await login(t.app, email));
    await guessAtOnce(email, CAP);
    const right = await attempt(email, STRONG_PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ twoFactorRequired: true });
    const pending = right.cookies.find((c) => c.name === 'medledger_2fa');
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      headers: { cookie: `medledger_2fa=${pending?.value}` },
      payload: { code: await auth.next() },
      remoteAddress: freshAddress(),
    });
    expect(done.statusCode).toBe(200);
    expect(await lastLinkToken(email)).toBeUndefined();
  });

  it('does not take a two-factor pending sign-in as a sign-in link', async () => {
    const { email } = await registerHospital(t.app);
    await enableTwoFactor(t, await login(t.app, email));
    const first = await attempt(email, STRONG_PASSWORD);
    const pending = first.cookies.find((c) => c.name === 'medledger_2fa');
    const res = await useLink(pending?.value);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: SIGN_IN_LINK_INVALID });
  });
});

describe('TRUST_PROXY', () => {
  it('reads false, a hop count, or addresses and ranges; refuses "true" and anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.5, 10.1.0.0/16,::1,loopback')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(() => parseTrustProxy('true')).toThrow(/every X-Forwarded-For hop/);
    expect(() => parseTrustProxy('10.0.0.5,proxy.example')).toThrow(/"proxy.example"/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
  });

  // A client behind one appending proxy writes any X-Forwarded-For it likes; the proxy adds the
  // address it saw. Only that last one may count.
  for (const [setting, proxy] of [
    ['1', '127.0.0.1'],
    ['10.0.0.2', '10.0.0.2'],
  ] as const) {
    it(`with TRUST_PROXY=${setting}, one client cannot pose as many addresses`, async () => {
      const app = await createTestApp({
        loginMaxFailures: MAX,
        trustProxy: parseTrustProxy(setting),
      });
      try {
        const { email } = await registerHospital(app.app);
        const statuses: number[] = [];
        for (let i = 0; i < MAX + 2; i++) {
          const res = await app.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email, password: 'wrong-password' },
            remoteAddress: proxy,
            headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
          });
          statuses.push(res.statusCode);
        }
        expect(statuses).toEqual([...Array(MAX).fill(401), 429, 429]);
        // The address the proxy saw is the one recorded.
        const ok = await app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: STRONG_PASSWORD },
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': '198.51.100.99, 192.0.2.44' },
        });
        expect(ok.statusCode).toBe(200);
        const [entry] = await auditRows(app, { action: 'login', userId: ok.json().user.id });
        expect(entry.ipAddress).toBe('192.0.2.44');
      } finally {
        await app.close();
      }
    });
  }

  it('with a list of proxies, believes no X-Forwarded-For from a client that is not one of them', async () => {
    const app = await createTestApp({ trustProxy: parseTrustProxy('10.0.0.2') });
    try {
      const { email } = await registerHospital(app.app);
      const ok = await app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: STRONG_PASSWORD },
        remoteAddress: '192.0.2.80',
        headers: { 'x-forwarded-for': '198.51.100.1' },
      });
      const [entry] = await auditRows(app, { action: 'login', userId: ok.json().user.id });
      expect(entry.ipAddress).toBe('192.0.2.80');
    } finally {
      await app.close();
    }
  });

  it('gives Fastify a hop function for a count (its own number option trusts nothing)', () => {
    const trust = fastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    const hops = trust as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => hops('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.2'])).toEqual(['10.0.0.2']);
  });
});
