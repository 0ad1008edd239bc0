-- Databases written before these indexes may hold what they forbid (the races of issue 16).
-- Of several primary contacts of a patient, the one chosen last stays primary.
UPDATE "family_contacts" AS fc SET "is_primary" = false
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "patient_id" ORDER BY "updated_at" DESC, "created_at" DESC, "id" DESC
  ) AS "rank"
  FROM "family_contacts" WHERE "is_primary"
) AS ranked
WHERE fc."id" = ranked."id" AND ranked."rank" > 1;--> statement-breakpoint
-- Of several pending applications for one contact e-mail, the first stays pending; the others are
-- closed as rejected with a note saying why, so the administrator still sees them.
UPDATE "provider_applications" AS pa
SET "status" = 'rejected', "reviewed_at" = now(),
    "notes" = 'Closed automatically: a duplicate of an earlier pending application for the same contact e-mail.'
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "contact_email" ORDER BY "created_at", "id") AS "rank"
  FROM "provider_applications" WHERE "status" = 'pending'
) AS ranked
WHERE pa."id" = ranked."id" AND ranked."rank" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "family_contacts_one_primary_idx" ON "family_contacts" USING btree ("patient_id") WHERE "family_contacts"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "provider_applications_one_pending_idx" ON "provider_applications" USING btree ("contact_email") WHERE "provider_applications"."status" = 'pending';