// Per-user e-mail preferences (profile page): on unless the user turned them off.
import { eq } from 'drizzle-orm';
import type { NotificationPreferences } from '../../../shared/notifications.js';
import type { Db } from '../../db/connect.js';
import { notificationPreferences } from '../../db/schema.js';

export async function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return { emailEnabled: row?.emailEnabled ?? true };
}

export async function savePreferences(
  db: Db,
  userId: string,
  input: NotificationPreferences,
  now: Date,
): Promise<NotificationPreferences> {
  await db
    .insert(notificationPreferences)
    .values({ userId, emailEnabled: input.emailEnabled, updatedAt: now })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: { emailEnabled: input.emailEnabled, updatedAt: now },
    });
  return getPreferences(db, userId);
}
