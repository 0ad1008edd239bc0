ALTER TABLE "family_contacts" ADD COLUMN "share_all_records" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "service_date" date;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "preferred_language" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "emergency_contact_name" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "emergency_contact_phone" text;