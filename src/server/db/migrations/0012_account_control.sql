ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
-- Hospitals that registered through an approved provider application are verified providers.
UPDATE "users" SET "verified_at" = coalesce(pa."reviewed_at", "users"."created_at")
FROM "provider_applications" pa
WHERE pa."user_id" = "users"."id" AND pa."status" = 'approved' AND "users"."role" = 'hospital';
