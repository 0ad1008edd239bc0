// E-mail notification preferences of the profile page (issue 13).
import { z } from 'zod';

/** The kinds of mail a user can turn off, each on by default. */
export const notificationPreferencesSchema = z.object({
  /** New records, appointments and reminders, the patient claimed, the trial ending. */
  emailEnabled: z.boolean(),
  /** "New sign-in to your MedLedger account" from a device not seen before (security notice). */
  newSignInEnabled: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
/** PUT: each switch may be sent alone; a missing one keeps its value. */
export const notificationPreferencesInputSchema = notificationPreferencesSchema.partial();
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInputSchema>;
