// Subscriptions: every hospital account starts a 7-day trial (spec section 1).
import { addDays } from 'date-fns';
import { TRIAL_DAYS } from '../../../shared/constants.js';
import type { Db } from '../../db/connect.js';
import { subscriptions } from '../../db/schema.js';

export async function startTrial(db: Db, userId: string, now = new Date()): Promise<void> {
  await db
    .insert(subscriptions)
    .values({ userId, status: 'trialing', trialEndsAt: addDays(now, TRIAL_DAYS) })
    .onConflictDoNothing({ target: subscriptions.userId });
}
