ALTER TABLE "notification_jobs" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_jobs" ADD COLUMN "recipient_email" text;--> statement-breakpoint
ALTER TABLE "notification_jobs" ADD CONSTRAINT "notification_jobs_one_recipient" CHECK (("notification_jobs"."user_id" is null) <> ("notification_jobs"."recipient_email" is null));