-- The active-patient counts (0021) kept by statement triggers over the transition tables, as the
-- audit counts are (0026): one upsert per hospital a statement touches. The row trigger updated a
-- hospital's counter once per patient row, and one statement adding many patients of a hospital
-- made each update walk every earlier version of that row (none can be pruned before the
-- transaction ends). What is counted is unchanged: patients not archived, by hospital.
DROP TRIGGER patients_count_active ON patients;--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_active_patients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM hospital_patient_counts;
    RETURN NULL;
  END IF;
  -- Each branch reads only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hospital_patient_counts AS c (hospital_id, active)
      SELECT created_by_hospital_id, count(*) FROM new_patients
      WHERE archived_at IS NULL GROUP BY created_by_hospital_id
    ON CONFLICT (hospital_id) DO UPDATE SET active = c.active + excluded.active;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE hospital_patient_counts c SET active = c.active - gone.n
      FROM (SELECT created_by_hospital_id, count(*) AS n FROM old_patients
            WHERE archived_at IS NULL GROUP BY created_by_hospital_id) AS gone
      WHERE c.hospital_id = gone.created_by_hospital_id;
  ELSE
    -- An update: its rows' old active patients taken away, the new ones added; nothing written
    -- where that changes no count (a change of name, say).
    INSERT INTO hospital_patient_counts AS c (hospital_id, active)
      SELECT created_by_hospital_id, sum(sign) FROM (
        SELECT created_by_hospital_id, 1 AS sign FROM new_patients WHERE archived_at IS NULL
        UNION ALL
        SELECT created_by_hospital_id, -1 FROM old_patients WHERE archived_at IS NULL
      ) AS changed
      GROUP BY created_by_hospital_id HAVING sum(sign) <> 0
    ON CONFLICT (hospital_id) DO UPDATE SET active = c.active + excluded.active;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER patients_count_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_patients
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_patients();--> statement-breakpoint
CREATE TRIGGER patients_count_update AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_patients NEW TABLE AS new_patients
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_patients();--> statement-breakpoint
CREATE TRIGGER patients_count_delete AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_patients
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_patients();
