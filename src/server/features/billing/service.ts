// Subscriptions: every hospital account starts a 7-day trial (spec section 1).
import { addDays } from 'date-fns';
import { eq } from 'drizzle-orm';
import { TRIAL_DAYS } from '../../../shared/constants.js';
import type { Db } from '../../db/connect.js';
import { subscriptions } from '../../db/schema.js';
import { paymentRequired } from '../../errors.js';

export async function startTrial(db: Db, userId: string, now = new Date()): Promise<void> {
  await db
    .insert(subscriptions)
    .values({ userId, status: 'trialing', trialEndsAt: addDays(now, TRIAL_DAYS) })
    .onConflictDoNothing({ target: subscriptions.userId });
}

export const PAYMENT_REQUIRED_MESSAGE =
  'Your 7-day free trial has ended. Add a payment method to keep adding and changing records; you can still read everything.';

export type WriteAccess = { allowed: true } | { allowed: false; reason: 'trial_ended' | 'inactive' };

/** Whether a hospital may write: an active subscription, or a trial that has not ended. */
export async function hospitalWriteAccess(db: Db, hospitalUserId: string, now = new Date()): Promise<WriteAccess> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, hospitalUserId));
  if (sub?.status === 'active') return { allowed: true };
  if (sub?.status === 'trialing' && sub.trialEndsAt && sub.trialEndsAt > now) return { allowed: true };
  return { allowed: false, reason: sub?.status === 'trialing' ? 'trial_ended' : 'inactive' };
}

/** Throws 402 with a message when a hospital's trial has ended without a subscription. */
export async function assertHospitalCanWrite(db: Db, hospitalUserId: string, now = new Date()): Promise<void> {
  const access = await hospitalWriteAccess(db, hospitalUserId, now);
  if (!access.allowed) throw paymentRequired(PAYMENT_REQUIRED_MESSAGE);
}
