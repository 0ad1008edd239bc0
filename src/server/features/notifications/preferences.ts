// Per-user e-mail preferences (profile page): on unless the user turned them off.
import { eq } from 'drizzle-orm';
import type { NotificationPreferences, NotificationPreferencesInput } from '../../../shared/notifications.js';
import type { Db } from '../../db/connect.js';
import { notificationPreferences } from '../../db/schema.js';

export async function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return { emailEnabled: row?.emailEnabled ?? true, newSignInEnabled: row?.newSignInEnabled ?? true };
}

export async function savePreferences(
  db: Db,
  userId: string,
  input: NotificationPreferencesInput,
  now: Date,
): Promise<NotificationPreferences> {
  const set = {
    ...(input.emailEnabled === undefined ? {} : { emailEnabled: input.emailEnabled }),
    ...(input.newSignInEnabled === undefined ? {} : { newSignInEnabled: input.newSignInEnabled }),
    updatedAt: now,
  };
  await db
    .insert(notificationPreferences)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set });
  return getPreferences(db, userId);
}
