CREATE TABLE "hospital_patient_counts" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"active" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Kept in the transaction of every change to patients: one less where an active row of a hospital
-- goes (archived, moved, deleted), one more where one comes; TRUNCATE empties the counts.
CREATE FUNCTION count_active_patients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM hospital_patient_counts;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.archived_at IS NULL THEN
    UPDATE hospital_patient_counts SET active = active - 1 WHERE hospital_id = OLD.created_by_hospital_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.archived_at IS NULL THEN
    INSERT INTO hospital_patient_counts AS c (hospital_id, active) VALUES (NEW.created_by_hospital_id, 1)
    ON CONFLICT (hospital_id) DO UPDATE SET active = c.active + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER patients_count_active AFTER INSERT OR DELETE OR UPDATE OF archived_at, created_by_hospital_id
  ON patients FOR EACH ROW EXECUTE FUNCTION count_active_patients();--> statement-breakpoint
CREATE TRIGGER patients_count_truncate AFTER TRUNCATE ON patients
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_patients();--> statement-breakpoint
INSERT INTO hospital_patient_counts (hospital_id, active)
  SELECT created_by_hospital_id, count(*)::int FROM patients WHERE archived_at IS NULL GROUP BY created_by_hospital_id;
