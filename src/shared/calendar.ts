// The private calendar subscription of the profile page (issue 13).
import { z } from 'zod';

export const calendarFeedSchema = z.object({
  active: z.boolean(),
  createdAt: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** Returned once, when the feed is created or renewed: the URL holds the secret token. */
export const calendarFeedCreatedSchema = calendarFeedSchema.extend({ url: z.string() });
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;
