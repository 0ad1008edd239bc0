import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../../shared/providers.js';
import { passwordResetTokens, users } from '../../db/schema.js';
import { linkTo, outboxMessages } from '../../mail/read-message.js';
import {
  auditRows,
  createTestApp,
  login,
  signedInHospital,
  STRONG_PASSWORD,
  type TestApp,
  uniqueEmail,
} from '../../test/helpers.js';
import { MAX_RESETS_PER_HOUR, RESET_EXPIRED, RESET_INVALID, RESET_USED } from './service.js';

const NEW_PASSWORD = 'N3w!Password';
const start = new Date('2030-07-01T10:00:00Z');
let clock = start;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://medledger.test' }, { now: () => clock });
});
afterAll(async () => t?.close());

let address = 0;
const nextAddress = () => `10.2.0.${++address % 250}`;

async function requestReset(email: string, remoteAddress = nextAddress()) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/password-reset',
    payload: { email },
    remoteAddress,
  });
  await t.ctx.mail.idle();
  return res;
}

const confirm = (token: unknown, password = NEW_PASSWORD) =>
  t.app.inject({
    method: 'POST',
    url: '/api/password-reset/confirm',
    payload: { token, password },
    remoteAddress: nextAddress(),
  });

/** The reset-link mails sent to `email` (its signup's welcome is not one). */
const mailsTo = (email: string) =>
  outboxMessages(t.ctx.mail.outboxDir).filter(
    (m) => m.includes(`To: ${email}`) && linkTo(m, '/reset-password'),
  );

/** Requests a reset for `email` and returns the token from the e-mailed link. */
async function resetToken(email: string): Promise<string> {
  expect((await requestReset(email)).statusCode).toBe(200);
  const mail = mailsTo(email).at(-1);
  const link = mail && linkTo(mail, '/reset-password');
  expect(link).toMatch(/^http:\/\/medledger\.test\/reset-password\?token=/);
  return new URL(link!).searchParams.get('token')!;
}

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

describe('asking for a reset link', () => {
  it('answers the same whether or not the e-mail has an account, and mails only real accounts', async () => {
    const { email } = await signedInHospital(t.app);
    const unknown = uniqueEmail('nobody');
    const a = await requestReset(email);
    const b = await requestReset(unknown);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect(a.json().message).toBe(FORGOT_PASSWORD_ANSWER);
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(unknown)).toHaveLength(0);
  });

  it('stores only a hash of the verifier, valid for 1 hour', async () => {
    const { email, userId } = await signedInHospital(t.app);
    const token = await resetToken(email);
    const [selector, verifier] = token.split('.');
    const [row] = await t.ctx.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.selector, selector));
    expect(row.userId).toBe(userId);
    expect(row.verifierHash).toBe(crypto.createHash('sha256').update(verifier).digest('hex'));
    expect(row.expiresAt.getTime()).toBe(clock.getTime() + 3600_000);
  });

  it(`sends at most ${MAX_RESETS_PER_HOUR} links an hour to one account`, async () => {
    const { email } = await signedInHospital(t.app);
    for (let i = 0; i < MAX_RESETS_PER_HOUR + 1; i++)
      expect((await requestReset(email)).statusCode).toBe(200);
    expect(mailsTo(email)).toHaveLength(MAX_RESETS_PER_HOUR);
  });

  it(`sends exactly ${MAX_RESETS_PER_HOUR} links when 20 requests for one account arrive at once`, async () => {
    const { email } = await signedInHospital(t.app);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/password-reset',
          payload: { email },
          remoteAddress: `10.3.0.${i + 1}`,
        }),
      ),
    );
    await t.ctx.mail.idle();
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(mailsTo(email)).toHaveLength(MAX_RESETS_PER_HOUR);
  });

  it('limits requests from one address to 5 in 15 minutes', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await requestReset(uniqueEmail(), '198.51.100.9')).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('refuses a malformed e-mail with the usual message', async () => {
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid email address');
  });
});

describe('a suspended account', () => {
  const suspend = (userId: string) =>
    t.ctx.db.update(users).set({ suspendedAt: clock }).where(eq(users.id, userId));

  it('gets the same answer and no mail', async () => {
    const { email, userId } = await signedInHospital(t.app);
    await suspend(userId);
    const res = await requestReset(email);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(FORGOT_PASSWORD_ANSWER);
    expect(mailsTo(email)).toHaveLength(0);
    const tokens = await t.ctx.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId));
    expect(tokens).toHaveLength(0);
  });

  it('cannot use a link sent before the suspension, and keeps its password', async () => {
    const { email, userId } = await signedInHospital(t.app);
    const token = await resetToken(email);
    await suspend(userId);
    const res = await confirm(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_INVALID);
    await t.ctx.db.update(users).set({ suspendedAt: null }).where(eq(users.id, userId));
    await login(t.app, email, STRONG_PASSWORD);
    expect(await auditRows(t, { userId, action: 'password_reset' })).toHaveLength(0);
  });
});

describe('setting a new password from the link', () => {
  it('sets the password, ends every session of the user and audits it', async () => {
    const { email, userId, cookie } = await signedInHospital(t.app);
    const second = await login(t.app, email);
    expect((await me(cookie)).json().user).not.toBeNull();
    const token = await resetToken(email);
    const res = await confirm(token);
    expect(res.statusCode).toBe(200);
    expect((await me(cookie)).json()).toEqual({ user: null });
    expect((await me(second)).json()).toEqual({ user: null });
    const oldLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: STRONG_PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    await login(t.app, email, NEW_PASSWORD);
    const audit = await auditRows(t, { userId: userId, action: 'password_reset' });
    expect(audit).toHaveLength(1);
  });

  it('refuses a link used once already', async () => {
    const { email } = await signedInHospital(t.app);
    const token = await resetToken(email);
    expect((await confirm(token)).statusCode).toBe(200);
    const again = await confirm(token, 'Th1rd!Password');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(RESET_USED);
    await login(t.app, email, NEW_PASSWORD);
  });

  it('ends the other open links of the account too', async () => {
    const { email } = await signedInHospital(t.app);
    const first = await resetToken(email);
    const second = await resetToken(email);
    expect((await confirm(second)).statusCode).toBe(200);
    expect((await confirm(first, 'Th1rd!Password')).json().message).toBe(RESET_USED);
  });

  it('refuses a link after 1 hour and accepts it just before', async () => {
    const { email } = await signedInHospital(t.app);
    const token = await resetToken(email);
    try {
      clock = new Date(start.getTime() + 3600_000);
      const late = await confirm(token);
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toBe(RESET_EXPIRED);
      clock = new Date(start.getTime() + 3600_000 - 1000);
      expect((await confirm(token)).statusCode).toBe(200);
    } finally {
      clock = start;
    }
  });

  it('refuses a tampered verifier, an unknown selector and malformed tokens, changing nothing', async () => {
    const { email } = await signedInHospital(t.app);
    const token = await resetToken(email);
    const [selector, verifier] = token.split('.');
    const flipped = verifier.slice(0, -1) + (verifier.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `${selector}.${flipped}`,
      `${crypto.randomBytes(16).toString('base64url')}.${verifier}`,
      'abc',
      '',
      undefined,
    ]) {
      const res = await confirm(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(RESET_INVALID);
    }
    await login(t.app, email); // the old password still works
    expect((await confirm(token)).statusCode).toBe(200);
  });

  it('refuses a password shorter than 8 characters without using the link up', async () => {
    const { email } = await signedInHospital(t.app);
    const token = await resetToken(email);
    const res = await confirm(token, 'Sh0rt!');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password must be at least 8 characters long.');
    expect((await confirm(token)).statusCode).toBe(200);
  });
});
