-- Openings (salt + content) of v2 ledger entries. Deliberately NOT under the append-only triggers
-- of ledger_entries: erasure deletes rows here (docs/decisions.md, "Salted commitments").
CREATE TABLE "ledger_contents" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
