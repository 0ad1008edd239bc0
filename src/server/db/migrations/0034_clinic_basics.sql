ALTER TABLE "family_contacts" ADD COLUMN "share_all_records" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "service_date" date;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "preferred_language" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "emergency_contact_name" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "emergency_contact_phone" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "merged_into_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "merged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_merged_into_id_patients_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;