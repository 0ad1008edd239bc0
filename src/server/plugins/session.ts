// Server-side sessions in the `sessions` table behind an httpOnly, SameSite=Lax cookie: the hook
// that sets request.user (plugins/policy.ts guards routes with it). The cookie holds a random id;
// the table holds its SHA-256.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { PublicUser } from '../../shared/users.js';
import type { Db } from '../db/connect.js';
import { pendingLogins, sessions, users } from '../db/schema.js';
import { unauthorized } from '../errors.js';
import { organization, organizationJoin, publicUserColumns, toPublicUser } from '../users.js';
import { sha256Hex } from '../digest.js';
import { preparedPerDb } from '../db/prepared.js';

export const SESSION_COOKIE = 'medledger_sid';
const REMEMBER_ME_DAYS = 30;
/** A session's "last seen" is written at most this often, not on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface SessionData {
  userId: string;
  /** The user's lastLoginAt before this sign-in, shown as "lastLoginAt". */
  previousLoginAt: string | null;
}

export interface SessionUser extends PublicUser {
  sessionId: string;
  /** The session's id in the sessions list (not usable as a cookie). */
  sessionPublicId: string;
}

/** Where a session was opened from (shown in the sessions list). */
export interface DeviceInfo {
  userAgent: string | null;
  ip: string | null;
}

export const deviceOf = (request: FastifyRequest): DeviceInfo => ({
  userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
  ip: request.ip ?? null,
});

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Filled before every handler. */
    user: SessionUser | null;
  }
}

export const hashSid = (sid: string) => sha256Hex(sid);

/** Creates a session row and returns the cookie value. */
export async function createSession(
  db: Db,
  data: SessionData,
  ttlHours: number,
  remember: boolean,
  device: DeviceInfo = { userAgent: null, ip: null },
): Promise<{ sid: string; expire: Date }> {
  const sid = crypto.randomBytes(32).toString('base64url');
  const hours = remember ? REMEMBER_ME_DAYS * 24 : ttlHours;
  const expire = new Date(Date.now() + hours * 3600_000);
  await db.insert(sessions).values({
    sid: hashSid(sid),
    sess: data,
    expire,
    userId: data.userId,
    userAgent: device.userAgent,
    ip: device.ip,
  });
  return { sid, expire };
}

export async function destroySession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, hashSid(sid)));
}

/**
 * Ends every session of a user (password reset), or every one but `exceptSid` (password change),
 * and any sign-in of theirs waiting for its two-factor step.
 */
export async function destroyUserSessions(db: Db, userId: string, exceptSid?: string): Promise<number> {
  await db.delete(pendingLogins).where(eq(pendingLogins.userId, userId));
  const rows = await db
    .delete(sessions)
    .where(
      exceptSid
        ? and(eq(sessions.userId, userId), ne(sessions.sid, hashSid(exceptSid)))
        : eq(sessions.userId, userId),
    )
    .returning({ sid: sessions.sid });
  return rows.length;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  sid: string,
  expire: Date,
  remember: boolean,
) {
  reply.setCookie(SESSION_COOKIE, sid, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(remember ? { expires: expire } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

/**
 * The session and its user, looked up on every API request: prepared once per database, so
 * neither the query builder nor the server's parser runs again for each request.
 */
const sessionLookup = preparedPerDb((db) =>
  db
    .select({
      user: publicUserColumns,
      sess: sessions.sess,
      publicId: sessions.publicId,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organization, organizationJoin)
    .where(
      and(
        eq(sessions.sid, sql.placeholder('sid')),
        sql`${sessions.expire} > ${sql.placeholder('now')}::timestamptz`,
        // A suspended account's sessions are ended when it is suspended; this also refuses any left.
        isNull(users.suspendedAt),
        // A deactivated staff member is out at their next request, and so is every member of a
        // suspended hospital (docs/decisions.md#staff-accounts).
        isNull(users.deactivatedAt),
        isNull(organization.suspendedAt),
      ),
    )
    .limit(1)
    .prepare('session_lookup'),
);

export function registerSessions(app: FastifyInstance, db: Db) {
  app.decorateRequest('user', null);
  const lookup = sessionLookup(db);
  app.addHook('onRequest', async (request) => {
    request.user = null;
    const sid = request.cookies[SESSION_COOKIE];
    if (!sid || sid.length > 100 || !request.url.startsWith('/api/')) return;
    const now = new Date();
    const hashed = hashSid(sid);
    const [row] = await lookup.execute({ sid: hashed, now: now.toISOString() });
    if (!row) return;
    if (now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.sid, hashed));
    }
    const data = row.sess as SessionData;
    request.user = {
      ...toPublicUser(row.user, data.previousLoginAt),
      sessionId: sid,
      sessionPublicId: row.publicId,
    };
  });
  // Expired sessions and unfinished two-step sign-ins are swept now and then, not on every request.
  const sweep = setInterval(() => {
    const now = new Date();
    Promise.all([
      db.delete(sessions).where(lt(sessions.expire, now)),
      db.delete(pendingLogins).where(lt(pendingLogins.expire, now)),
    ]).catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
  }, 3600_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}

/** The signed-in user inside a handler whose policy admits signed-in roles only (plugins/policy.ts). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
