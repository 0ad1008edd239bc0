// The private subscription feed: a 256-bit random token in the URL stands in for the session
// (calendar apps cannot sign in). Only its SHA-256 is stored, so a database leak opens no feed;
// renewing issues a new token (the old URL stops working), revoking deletes it.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { CalendarFeed, CalendarFeedCreated } from '../../../shared/calendar.js';
import type { Db } from '../../db/connect.js';
import { calendarFeeds, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { type Actor, findOwnPatient } from '../../access.js';
import { patientCalendarForUser, type CalendarDeps } from './service.js';
import { sha256Hex } from '../../digest.js';

const hashToken = (token: string) => sha256Hex(token);
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export const feedUrl = (publicUrl: string, token: string) => `${publicUrl}/api/calendar/${token}.ics`;

export async function getFeed(db: Db, actor: Actor): Promise<CalendarFeed> {
  await findOwnPatient(db, actor);
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, actor.id));
  return { active: !!row, createdAt: row ? row.createdAt.toISOString() : null };
}

/** Creates or renews the feed; the URL is shown once, it cannot be read back later. */
export async function renewFeed(
  db: Db,
  actor: Actor,
  publicUrl: string,
  now: Date,
): Promise<CalendarFeedCreated> {
  await findOwnPatient(db, actor);
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insert(calendarFeeds)
    .values({ userId: actor.id, tokenHash: hashToken(token), createdAt: now })
    .onConflictDoUpdate({
      target: calendarFeeds.userId,
      set: { tokenHash: hashToken(token), createdAt: now },
    });
  return { active: true, createdAt: now.toISOString(), url: feedUrl(publicUrl, token) };
}

export async function revokeFeed(db: Db, actor: Actor): Promise<CalendarFeed> {
  await findOwnPatient(db, actor);
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, actor.id));
  return { active: false, createdAt: null };
}

/** GET /api/calendar/{token}.ics: anything but a live token is 404, whatever the reason. */
export async function feedCalendar(deps: CalendarDeps, segment: string): Promise<string> {
  const token = segment.endsWith('.ics') ? segment.slice(0, -4) : '';
  if (!TOKEN_FORMAT.test(token)) throw notFound('Calendar not found.');
  // A suspended account's feed answers like a dead token (docs/decisions.md#account-control).
  const [row] = await deps.db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(and(eq(calendarFeeds.tokenHash, hashToken(token)), isNull(users.suspendedAt)));
  if (!row) throw notFound('Calendar not found.');
  return patientCalendarForUser(deps, row.userId);
}
