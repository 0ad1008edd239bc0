-- The ledger is append-only: the database itself refuses to change or remove an entry or a
-- stored Merkle node, so neither an application bug nor a stray query can rewrite history.
CREATE FUNCTION medledger_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The ledger is append-only: % on % is refused.', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION medledger_ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION medledger_ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_nodes_append_only BEFORE UPDATE OR DELETE ON ledger_nodes
  FOR EACH ROW EXECUTE FUNCTION medledger_ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_nodes_no_truncate BEFORE TRUNCATE ON ledger_nodes
  FOR EACH STATEMENT EXECUTE FUNCTION medledger_ledger_append_only();
