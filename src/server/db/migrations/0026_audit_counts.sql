CREATE TABLE "hospital_audit_counts" (
	"hospital_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"routine_reads" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "hospital_audit_counts_hospital_id_slot_pk" PRIMARY KEY("hospital_id","slot")
);
--> statement-breakpoint
-- Kept in the transaction of every change to audit_logs: one more where an entry of a hospital
-- comes, one less where one goes (a routine read also in routine_reads; its test is isRoutineRead
-- of db/schema.ts, the predicate of audit_logs_routine_read_idx); TRUNCATE empties the counts.
-- Each connection writes the row of its own backend pid, so no two transactions in progress
-- share a counter row: an audited read never waits for another's commit, and a counter can take
-- part in no deadlock. A slot's figures may go below zero (an entry counted in another slot
-- removed here); only their sum over a hospital's slots is its count.
CREATE FUNCTION count_audit_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM hospital_audit_counts;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.hospital_id IS NOT NULL THEN
    INSERT INTO hospital_audit_counts AS c (hospital_id, slot, entries, routine_reads)
    VALUES (OLD.hospital_id, pg_backend_pid(), -1,
            -(OLD.action = 'record_access' AND coalesce(OLD.entity_type, '') = 'patient')::int)
    ON CONFLICT (hospital_id, slot) DO UPDATE
      SET entries = c.entries + excluded.entries, routine_reads = c.routine_reads + excluded.routine_reads;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.hospital_id IS NOT NULL THEN
    INSERT INTO hospital_audit_counts AS c (hospital_id, slot, entries, routine_reads)
    VALUES (NEW.hospital_id, pg_backend_pid(), 1,
            (NEW.action = 'record_access' AND coalesce(NEW.entity_type, '') = 'patient')::int)
    ON CONFLICT (hospital_id, slot) DO UPDATE
      SET entries = c.entries + excluded.entries, routine_reads = c.routine_reads + excluded.routine_reads;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER audit_logs_count AFTER INSERT OR DELETE OR UPDATE OF hospital_id, action, entity_type
  ON audit_logs FOR EACH ROW EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
CREATE TRIGGER audit_logs_count_truncate AFTER TRUNCATE ON audit_logs
  FOR EACH STATEMENT EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
-- The entries already there, in slot 0. The trigger was created first in this transaction, and
-- CREATE TRIGGER holds off writes to audit_logs until the transaction ends, so an entry is
-- counted either here or by the trigger, never both or neither.
INSERT INTO hospital_audit_counts (hospital_id, slot, entries, routine_reads)
  SELECT hospital_id, 0, count(*),
         count(*) FILTER (WHERE action = 'record_access' AND coalesce(entity_type, '') = 'patient')
  FROM audit_logs WHERE hospital_id IS NOT NULL GROUP BY hospital_id;
