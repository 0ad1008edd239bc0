-- Attachments written before this column are one AES-256-GCM stream each ('gcm'); every file
-- written from now on is chunked ('stream1', files/chunked.ts). The default only fills the
-- existing rows: it is dropped, so every insert must say which format it wrote.
ALTER TABLE "attachments" ADD COLUMN "format" text DEFAULT 'gcm' NOT NULL;--> statement-breakpoint
ALTER TABLE "attachments" ALTER COLUMN "format" DROP DEFAULT;
