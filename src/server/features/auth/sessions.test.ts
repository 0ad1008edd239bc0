// Password change and sessions (issue 9) and the new-device sign-in mail (issue 13), through the
// API: the sessions list with device labels and opaque ids, ending one's own session (another
// user's is a 404), "last seen" written at most once a minute, password change ending every other
// session, and the outbox getting one "New sign-in" mail per new device.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLabel } from '../../../shared/account.js';
import { sessions } from '../../db/schema.js';
import { headerOf, outboxMessages, partText } from '../../mail/read-message.js';
import {
  auditRows,
  call,
  createTestApp,
  registerHospital,
  sessionCookie,
  STRONG_PASSWORD,
  type TestApp,
  uniqueEmail,
} from '../../test/helpers.js';
import { runNotificationsOnce } from '../notifications/worker.js';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'http://medledger.test' });
});
afterAll(async () => t?.close());

interface Browser {
  ua: string;
  ip: string;
  device?: string;
}
async function signIn(email: string, b: Browser, password = STRONG_PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': b.ua, ...(b.device ? { cookie: b.device } : {}) },
    remoteAddress: b.ip,
    payload: { email, password },
  });
  return res;
}
const deviceCookie = (res: LightMyRequestResponse) => {
  const c = res.cookies.find((x) => x.name === 'medledger_device');
  return c ? `medledger_device=${c.value}` : undefined;
};
const me = async (cookie: string) => (await call(t.app, 'GET', '/api/auth/me', cookie)).json().user;

async function account() {
  const { email, user } = await registerHospital(t.app, uniqueEmail('sessions'));
  return { email, userId: user.id };
}

describe('device labels', () => {
  it('names common browsers and systems briefly', () => {
    expect(deviceLabel(CHROME_LINUX)).toBe('Chrome on Linux');
    expect(deviceLabel(FIREFOX_WINDOWS)).toBe('Firefox on Windows');
    expect(deviceLabel(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(
      deviceLabel(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge on macOS');
    expect(deviceLabel(null)).toBe('Unknown device');
  });
});

describe('sessions', () => {
  it('lists the live sessions with device, address and an id unrelated to the cookie; current first', async () => {
    const a = await account();
    const one = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.1' }));
    const two = sessionCookie(await signIn(a.email, { ua: FIREFOX_WINDOWS, ip: '192.0.2.2' }));
    const res = await call(t.app, 'GET', '/api/auth/sessions', two);
    expect(res.statusCode).toBe(200);
    const list = res.json<{ id: string; device: string; ip: string; current: boolean }[]>();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ device: 'Firefox on Windows', ip: '192.0.2.2', current: true });
    expect(list[1]).toMatchObject({ device: 'Chrome on Linux', ip: '192.0.2.1', current: false });
    for (const cookie of [one, two]) {
      const value = cookie.split('=')[1];
      const hash = crypto.createHash('sha256').update(value).digest('hex');
      for (const s of list) {
        expect(s.id).not.toContain(value);
        expect(hash).not.toContain(s.id.replace(/-/g, ''));
        // The id is no cookie: sending it as one signs nobody in.
        expect(await me(`medledger_sid=${s.id}`)).toBeNull();
      }
    }
  });

  it("ends one of the user's own sessions; another user's session or an unknown id is a 404", async () => {
    const a = await account();
    const b = await account();
    const mine = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.10' }));
    const other = sessionCookie(await signIn(a.email, { ua: FIREFOX_WINDOWS, ip: '192.0.2.11' }));
    const theirs = sessionCookie(await signIn(b.email, { ua: CHROME_LINUX, ip: '192.0.2.12' }));
    const [theirSession] = (await call(t.app, 'GET', '/api/auth/sessions', theirs)).json<{ id: string }[]>();

    const foreign = await call(t.app, 'DELETE', `/api/auth/sessions/${theirSession.id}`, mine);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Session not found.');
    expect((await me(theirs)).email).toBe(b.email);
    expect(
      (await call(t.app, 'DELETE', '/api/auth/sessions/00000000-0000-4000-8000-000000000000', mine))
        .statusCode,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', '/api/auth/sessions/not-an-id', mine)).statusCode).toBe(404);

    const otherId = (await call(t.app, 'GET', '/api/auth/sessions', mine))
      .json<{ id: string; current: boolean }[]>()
      .find((s) => !s.current)!.id;
    const ended = await call(t.app, 'DELETE', `/api/auth/sessions/${otherId}`, mine);
    expect(ended.statusCode).toBe(200);
    expect(await me(other)).toBeNull();
    expect((await me(mine)).email).toBe(a.email);
    const [audit] = await auditRows(t, { userId: a.userId, action: 'session_end' });
    expect(audit.details).toBe('Signed out a session (Firefox on Windows)');
  });

  it('writes "last seen" at most once a minute', async () => {
    const a = await account();
    const cookie = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.20' }));
    const lastSeen = async () =>
      (await t.ctx.db.select().from(sessions).where(eq(sessions.userId, a.userId)))[0].lastSeenAt.getTime();
    const set = (at: Date) =>
      t.ctx.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.userId, a.userId));

    const recent = new Date(Date.now() - 30_000);
    await set(recent);
    await me(cookie);
    expect(await lastSeen()).toBe(recent.getTime());

    const old = new Date(Date.now() - 2 * 60_000);
    await set(old);
    await me(cookie);
    expect(await lastSeen()).toBeGreaterThan(old.getTime() + 60_000);
  });
});

describe('password change', () => {
  it('refuses a wrong current password and a weak new one with their messages', async () => {
    const a = await account();
    const cookie = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.30' }));
    const wrong = await call(t.app, 'POST', '/api/auth/password', cookie, {
      currentPassword: 'Not!Th3Password',
      newPassword: 'An0ther!Passw0rd',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('The current password is not correct.');
    const weak = await call(t.app, 'POST', '/api/auth/password', cookie, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must be at least 8 characters long.');
    const same = await call(t.app, 'POST', '/api/auth/password', cookie, {
      currentPassword: STRONG_PASSWORD,
      newPassword: STRONG_PASSWORD,
    });
    expect(same.statusCode).toBe(400);
    expect((await me(cookie)).email).toBe(a.email);
  });

  it('changes the password, ends every other session, keeps this one and audits it', async () => {
    const a = await account();
    const here = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.40' }));
    const there = sessionCookie(await signIn(a.email, { ua: FIREFOX_WINDOWS, ip: '192.0.2.41' }));
    const third = sessionCookie(await signIn(a.email, { ua: SAFARI_IPHONE, ip: '192.0.2.42' }));
    const res = await call(t.app, 'POST', '/api/auth/password', here, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'N3w!Password-2031',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ endedSessions: 2 });
    expect((await me(here)).email).toBe(a.email);
    expect(await me(there)).toBeNull();
    expect(await me(third)).toBeNull();
    expect((await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.40' })).statusCode).toBe(401);
    expect(
      (await signIn(a.email, { ua: CHROME_LINUX, ip: '192.0.2.40' }, 'N3w!Password-2031')).statusCode,
    ).toBe(200);
    const [audit] = await auditRows(t, { userId: a.userId, action: 'password_change' });
    expect(audit).toMatchObject({
      details: 'Changed the password; ended 2 other sessions',
      ipAddress: '127.0.0.1',
    });
  });
});

describe('new-device sign-in mail', () => {
  let seen = 0;
  /** Mails for this address written to the outbox since the last call. */
  async function newMailsTo(email: string) {
    await runNotificationsOnce(t.ctx);
    const all = outboxMessages(t.ctx.mail.outboxDir);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh.filter((m) => headerOf(m, 'To')?.includes(email));
  }

  it('mails once per new device: not for the first sign-in, nor again from a known one', async () => {
    const a = await account();
    await newMailsTo(a.email);
    const laptop: Browser = { ua: CHROME_LINUX, ip: '198.51.100.7' };
    const first = await signIn(a.email, laptop);
    laptop.device = deviceCookie(first);
    expect(laptop.device).toBeDefined();
    expect(await newMailsTo(a.email)).toHaveLength(0);

    // The same browser again, with its device cookie, even from another address: known.
    await signIn(a.email, { ...laptop, ip: '198.51.100.99' });
    expect(await newMailsTo(a.email)).toHaveLength(0);

    const phone: Browser = { ua: SAFARI_IPHONE, ip: '203.0.113.5' };
    const fromPhone = await signIn(a.email, phone);
    expect(fromPhone.statusCode).toBe(200);
    const [mail, ...more] = await newMailsTo(a.email);
    expect(more).toHaveLength(0);
    expect(headerOf(mail, 'Subject')).toBe('New sign-in to your MedLedger account');
    const text = partText(mail, 'text/plain')!;
    expect(text).toContain('Device: Safari on iOS');
    expect(text).toContain('Address: 203.0.113.5');
    expect(text).toMatch(/Time: .*\(UTC\)/);
    expect(text).toContain('http://medledger.test/profile/edit#sessions');

    phone.device = deviceCookie(fromPhone);
    await signIn(a.email, phone);
    expect(await newMailsTo(a.email)).toHaveLength(0);
  });

  it('sends nothing while the user has turned the notice off', async () => {
    const a = await account();
    const first = sessionCookie(await signIn(a.email, { ua: CHROME_LINUX, ip: '198.51.100.20' }));
    const put = await call(t.app, 'PUT', '/api/notifications/preferences', first, {
      newSignInEnabled: false,
    });
    expect(put.json()).toEqual({ emailEnabled: true, newSignInEnabled: false });
    await newMailsTo(a.email);
    await signIn(a.email, { ua: FIREFOX_WINDOWS, ip: '198.51.100.21' });
    expect(await newMailsTo(a.email)).toHaveLength(0);
  });
});
