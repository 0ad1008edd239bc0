CREATE TABLE "attachment_chunks" (
	"storage_key" text NOT NULL,
	"idx" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "attachment_chunks_storage_key_idx_pk" PRIMARY KEY("storage_key","idx")
);
--> statement-breakpoint
-- Hand-written: the chunks are ciphertext, so TOAST keeps them out of line without trying to
-- compress them (docs/decisions.md, "Uploads and attachments").
ALTER TABLE "attachment_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
