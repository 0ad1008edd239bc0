CREATE TABLE "staff_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hospital_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"staff_role" text NOT NULL,
	"department" text,
	"invited_by" uuid NOT NULL,
	"token_selector" text NOT NULL,
	"token_verifier_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"user_id" uuid,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_invitations_token_selector_unique" UNIQUE("token_selector")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hospital_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_two_factor_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_hospital_id_users_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_invitations_hospital_idx" ON "staff_invitations" USING btree ("hospital_id","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_hospital_id_users_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_hospital_idx" ON "users" USING btree ("hospital_id");--> statement-breakpoint
-- Every hospital account so far is its own organization's first admin: ids, links and rows keep working.
UPDATE "users" SET "hospital_id" = "id", "staff_role" = 'hospital_admin' WHERE "role" = 'hospital';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_check" CHECK (("users"."role" = 'hospital') = ("users"."hospital_id" is not null and "users"."staff_role" in ('hospital_admin', 'clinician', 'front_desk')));