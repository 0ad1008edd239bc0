// Devices a user signs in from (issue 13): a long-lived, httpOnly device cookie (its SHA-256 kept
// in `user_devices`), with the user agent and address as a second way to recognise a browser that
// lost its cookie. A sign-in from a device not seen before mails "New sign-in"; the very first
// sign-in of an account has nothing to compare with and mails nothing.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { userDevices } from '../../db/schema.js';
import type { DeviceInfo } from '../../plugins/session.js';
import { notifyNewSignIn } from '../notifications/events.js';
import { sha256Hex } from '../../digest.js';

export const DEVICE_COOKIE = 'medledger_device';
/** How long the device cookie lives (renewed by every sign-in). */
export const DEVICE_COOKIE_DAYS = 400;

const validToken = (t: string | undefined): t is string => !!t && /^[A-Za-z0-9_-]{43}$/.test(t);

/**
 * Records the sign-in's device in the caller's transaction and enqueues the new-device mail when
 * it is new to this user. Answers the device cookie value to (re)send.
 */
export async function recordSignInDevice(
  tx: Db,
  userId: string,
  cookieToken: string | undefined,
  device: DeviceInfo,
  now: Date,
): Promise<string> {
  const token = validToken(cookieToken) ? cookieToken : crypto.randomBytes(32).toString('base64url');
  const tokenHash = sha256Hex(token);
  const known = await tx.select().from(userDevices).where(eq(userDevices.userId, userId));
  const byCookie = known.find((d) => d.tokenHash === tokenHash);
  if (byCookie) {
    await tx
      .update(userDevices)
      .set({ lastSeenAt: now, userAgent: device.userAgent, ip: device.ip })
      .where(eq(userDevices.id, byCookie.id));
    return token;
  }
  const sameBrowser = known.some((d) => d.userAgent === device.userAgent && d.ip === device.ip);
  await tx.insert(userDevices).values({
    userId,
    tokenHash,
    userAgent: device.userAgent,
    ip: device.ip,
    firstSeenAt: now,
    lastSeenAt: now,
  });
  if (known.length > 0 && !sameBrowser) await notifyNewSignIn(tx, userId, device, now);
  return token;
}
