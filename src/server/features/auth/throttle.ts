// Failed sign-in throttling, shared by every server process through the database.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { loginFailures } from '../../db/schema.js';
import { tooManyRequests } from '../../errors.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** An address may fail this many times more than one e-mail before it is throttled. */
const IP_FACTOR = 4;

const keys = (email: string, ip: string) => ({ email: `email:${email}`, ip: `ip:${ip}` });

async function failuresFor(db: Db, key: string, now: Date): Promise<number> {
  const [row] = await db.select().from(loginFailures).where(eq(loginFailures.key, key));
  if (!row || now.getTime() - row.windowStart.getTime() > THROTTLE_WINDOW_MS) return 0;
  return row.failures;
}

export async function assertNotThrottled(db: Db, email: string, ip: string, max: number, now = new Date()) {
  const k = keys(email, ip);
  if ((await failuresFor(db, k.email, now)) >= max || (await failuresFor(db, k.ip, now)) >= max * IP_FACTOR) {
    throw tooManyRequests('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  }
}

export async function recordFailure(db: Db, email: string, ip: string, now = new Date()) {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  const nowIso = now.toISOString();
  for (const key of Object.values(keys(email, ip))) {
    await db
      .insert(loginFailures)
      .values({ key, failures: 1, windowStart: now })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: sql`case when ${loginFailures.windowStart} < ${windowStart}::timestamptz then 1 else ${loginFailures.failures} + 1 end`,
          windowStart: sql`case when ${loginFailures.windowStart} < ${windowStart}::timestamptz then ${nowIso}::timestamptz else ${loginFailures.windowStart} end`,
        },
      });
  }
}

export async function clearFailures(db: Db, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, `email:${email}`));
}
