CREATE TABLE "ledger_checkpoints" (
	"tree_size" bigint PRIMARY KEY NOT NULL,
	"root_hash" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Signed checkpoints are history too: once served, a checkpoint is never changed or removed.
CREATE TRIGGER ledger_checkpoints_append_only BEFORE UPDATE OR DELETE ON ledger_checkpoints
  FOR EACH ROW EXECUTE FUNCTION medledger_ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_checkpoints_no_truncate BEFORE TRUNCATE ON ledger_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION medledger_ledger_append_only();
