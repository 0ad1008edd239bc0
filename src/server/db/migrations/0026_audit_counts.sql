CREATE TABLE "hospital_audit_counts" (
	"hospital_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"routine_reads" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "hospital_audit_counts_hospital_id_slot_pk" PRIMARY KEY("hospital_id","slot")
);
--> statement-breakpoint
-- Whether an entry is a routine read: isRoutineRead of db/schema.ts, written once for the triggers
-- and the count of the entries already there (a SQL function of one expression, inlined where it
-- is called).
CREATE FUNCTION audit_routine_read(action text, entity_type text) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$ SELECT action = 'record_access' AND coalesce(entity_type, '') = 'patient' $$;--> statement-breakpoint
-- Kept in the transaction of every change to audit_logs: one more where an entry of a hospital
-- comes, one less where one goes (a routine read, audit_routine_read, also in routine_reads);
-- TRUNCATE empties the counts.
-- Each connection writes the row of its own backend pid, so no two transactions in progress
-- share a counter row: an audited read never waits for another's commit, and a counter can take
-- part in no deadlock. A slot's figures may go below zero (an entry counted in another slot
-- removed here); only their sum over a hospital's slots is its count.
-- Statement triggers over the transition tables: one upsert per hospital a statement touches. A
-- row trigger updated the counter once per row, and a statement inserting many entries of one
-- hospital made each update walk every earlier version of that row (none can be pruned before
-- the transaction ends): 450,000 entries in one INSERT did not finish in ten minutes.
CREATE FUNCTION count_audit_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM hospital_audit_counts;
    RETURN NULL;
  END IF;
  -- Each branch reads only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hospital_audit_counts AS c (hospital_id, slot, entries, routine_reads)
      SELECT hospital_id, pg_backend_pid(), count(*),
             count(*) FILTER (WHERE audit_routine_read(action, entity_type))
      FROM new_entries WHERE hospital_id IS NOT NULL GROUP BY hospital_id
    ON CONFLICT (hospital_id, slot) DO UPDATE
      SET entries = c.entries + excluded.entries, routine_reads = c.routine_reads + excluded.routine_reads;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hospital_audit_counts AS c (hospital_id, slot, entries, routine_reads)
      SELECT hospital_id, pg_backend_pid(), -count(*),
             -count(*) FILTER (WHERE audit_routine_read(action, entity_type))
      FROM old_entries WHERE hospital_id IS NOT NULL GROUP BY hospital_id
    ON CONFLICT (hospital_id, slot) DO UPDATE
      SET entries = c.entries + excluded.entries, routine_reads = c.routine_reads + excluded.routine_reads;
  ELSE
    -- An update: what its rows were taken away, what they are now added; nothing written where
    -- that changes no count (a change of details, say).
    INSERT INTO hospital_audit_counts AS c (hospital_id, slot, entries, routine_reads)
      SELECT hospital_id, pg_backend_pid(), sum(sign), sum(sign * routine)
      FROM (
        SELECT hospital_id, 1 AS sign,
               audit_routine_read(action, entity_type)::int AS routine
        FROM new_entries
        UNION ALL
        SELECT hospital_id, -1, audit_routine_read(action, entity_type)::int
        FROM old_entries
      ) AS changed
      WHERE hospital_id IS NOT NULL GROUP BY hospital_id
      HAVING sum(sign) <> 0 OR sum(sign * routine) <> 0
    ON CONFLICT (hospital_id, slot) DO UPDATE
      SET entries = c.entries + excluded.entries, routine_reads = c.routine_reads + excluded.routine_reads;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER audit_logs_count_insert AFTER INSERT ON audit_logs
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
CREATE TRIGGER audit_logs_count_update AFTER UPDATE ON audit_logs
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
CREATE TRIGGER audit_logs_count_delete AFTER DELETE ON audit_logs
  REFERENCING OLD TABLE AS old_entries
  FOR EACH STATEMENT EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
CREATE TRIGGER audit_logs_count_truncate AFTER TRUNCATE ON audit_logs
  FOR EACH STATEMENT EXECUTE FUNCTION count_audit_entries();--> statement-breakpoint
-- The entries already there, in slot 0. The triggers were created first in this transaction, and
-- CREATE TRIGGER holds off writes to audit_logs until the transaction ends, so an entry is
-- counted either here or by the trigger, never both or neither.
INSERT INTO hospital_audit_counts (hospital_id, slot, entries, routine_reads)
  SELECT hospital_id, 0, count(*),
         count(*) FILTER (WHERE audit_routine_read(action, entity_type))
  FROM audit_logs WHERE hospital_id IS NOT NULL GROUP BY hospital_id;
