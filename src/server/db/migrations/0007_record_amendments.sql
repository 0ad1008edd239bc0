ALTER TABLE "medical_records" ADD COLUMN "supersedes_id" uuid;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "supersedes_hash" text;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "superseded_by_id" uuid;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "entered_in_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "entered_in_error_by" uuid;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "entered_in_error_reason" text;--> statement-breakpoint
ALTER TABLE "medical_records" ADD CONSTRAINT "medical_records_supersedes_id_medical_records_id_fk" FOREIGN KEY ("supersedes_id") REFERENCES "public"."medical_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_records" ADD CONSTRAINT "medical_records_superseded_by_id_medical_records_id_fk" FOREIGN KEY ("superseded_by_id") REFERENCES "public"."medical_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_records" ADD CONSTRAINT "medical_records_entered_in_error_by_users_id_fk" FOREIGN KEY ("entered_in_error_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "medical_records_supersedes_idx" ON "medical_records" USING btree ("supersedes_id");