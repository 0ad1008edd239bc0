// The signed-in user's sessions (issue 9): listed with their device, address and times under a
// random public id (never the cookie or its hash), and ended one by one.
import { and, desc, eq, gt } from 'drizzle-orm';
import { deviceLabel, type SessionInfo } from '../../../shared/account.js';
import { isUuid } from '../../access.js';
import type { Db } from '../../db/connect.js';
import { sessions } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import type { Actor } from '../../access.js';

export async function listSessions(
  db: Db,
  userId: string,
  currentPublicId: string,
  now: Date,
): Promise<SessionInfo[]> {
  const rows = await db
    .select({
      publicId: sessions.publicId,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expire, now)))
    .orderBy(desc(sessions.lastSeenAt));
  return rows
    .map((r) => ({
      id: r.publicId,
      device: deviceLabel(r.userAgent),
      ip: r.ip,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      current: r.publicId === currentPublicId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the user's own sessions; another user's (or an unknown) id is a 404. */
export async function endSession(
  db: Db,
  actor: Pick<Actor, 'id' | 'ip' | 'role'>,
  publicId: string,
): Promise<void> {
  if (!isUuid(publicId)) throw notFound('Session not found.');
  await db.transaction(async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.publicId, publicId), eq(sessions.userId, actor.id)))
      .returning({ userAgent: sessions.userAgent });
    if (ended.length === 0) throw notFound('Session not found.');
    await recordAudit(tx, actor, {
      event: { kind: 'session_end', data: { device: deviceLabel(ended[0].userAgent) } },
      subject: { type: 'user', id: actor.id, role: actor.role },
    });
  });
}
