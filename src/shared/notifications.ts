// E-mail notification preferences of the profile page (issue 13).
import { z } from 'zod';

export const notificationPreferencesSchema = z.object({ emailEnabled: z.boolean() });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
