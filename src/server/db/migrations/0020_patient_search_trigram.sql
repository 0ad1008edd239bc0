-- The patient list's search (features/patients/search.ts) matches a fragment anywhere in a name,
-- e-mail or MRN: trigram GIN indexes over one text per row make that an index scan instead of a
-- scan of every patient. The separator E'\x01' is a control character no stored text can hold
-- (src/shared/text.ts), so a fragment never matches across two fields; first and last name are
-- joined by a space, as the full name is searched. The expressions must stay identical to
-- search.ts's for the planner to use them. The list's count and first page read a partial index
-- of the hospital's active patients (index-only, in the list's order).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin ((coalesce("first_name", '') || ' ' || coalesce("last_name", '') || E'\x01' || coalesce("email", '') || E'\x01' || coalesce("patient_id", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((coalesce("first_name", '') || ' ' || coalesce("last_name", '') || E'\x01' || coalesce("email", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_active_idx" ON "patients" USING btree ("created_by_hospital_id", "created_at", "id") WHERE "archived_at" IS NULL;
