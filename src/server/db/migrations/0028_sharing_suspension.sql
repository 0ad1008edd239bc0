ALTER TABLE "family_grants" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "suspended_at" timestamp with time zone;