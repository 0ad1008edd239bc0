DROP INDEX "appointments_hospital_idx";--> statement-breakpoint
DROP INDEX "appointments_patient_idx";--> statement-breakpoint
DROP INDEX "medical_records_patient_idx";--> statement-breakpoint
CREATE INDEX "medical_records_patient_status_idx" ON "medical_records" USING btree ("patient_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "provider_applications_created_idx" ON "provider_applications" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "appointments_hospital_idx" ON "appointments" USING btree ("hospital_id","appointment_date","id");--> statement-breakpoint
CREATE INDEX "appointments_patient_idx" ON "appointments" USING btree ("patient_id","appointment_date","id");--> statement-breakpoint
CREATE INDEX "medical_records_patient_idx" ON "medical_records" USING btree ("patient_id","hospital_id","created_at","id");