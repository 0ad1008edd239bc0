// Test helpers for stored files: a file in the old single-GCM format ('gcm'), written exactly as
// FileStore.write wrote them before the chunked format, and byte surgery on stored files, in
// either store (a file on disk, or the header and chunk rows of `attachment_chunks`).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { attachmentChunks } from '../db/schema.js';
import { CHUNK_SIZE, HEADER_SIZE, SEALED_CHUNK_SIZE } from './formats/chunked.js';
import { DatabaseStore, HEADER_ROW } from './backends/database.js';
import { DirectoryStore } from './backends/directory.js';
import { type FileStore } from './store.js';

/** Both stores, for tests that must hold on each (`describe.each(STORES)`). */
export const STORES = ['directory', 'database'] as const;

/** The store as the directory store (tests of files on disk). */
export function onDisk(store: FileStore): DirectoryStore {
  if (!(store instanceof DirectoryStore)) throw new Error('this test needs attachments on disk');
  return store;
}

/** The stored (sealed) bytes of a file: the file on disk, or its rows in order. */
export async function readSealed(store: FileStore, storageKey: string): Promise<Buffer> {
  if (store instanceof DirectoryStore) return fs.readFileSync(store.pathFor(storageKey));
  const parts: Buffer[] = [];
  for await (const part of (store as DatabaseStore).openStored(storageKey)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/**
 * Replaces the stored bytes of a file: the file on disk, or its rows (the first HEADER_SIZE bytes
 * as the header row, then a row per SEALED_CHUNK_SIZE bytes, as the store writes them).
 */
export async function writeSealed(store: FileStore, storageKey: string, bytes: Buffer): Promise<void> {
  if (store instanceof DirectoryStore) return fs.writeFileSync(store.pathFor(storageKey), bytes);
  const db = (store as DatabaseStore).db;
  const rows = [{ storageKey, idx: HEADER_ROW, bytes: bytes.subarray(0, HEADER_SIZE) }];
  for (let at = HEADER_SIZE, idx = 0; at < bytes.length; at += SEALED_CHUNK_SIZE, idx++)
    rows.push({ storageKey, idx, bytes: bytes.subarray(at, at + SEALED_CHUNK_SIZE) });
  await db.transaction(async (tx) => {
    await tx.delete(attachmentChunks).where(eq(attachmentChunks.storageKey, storageKey));
    await tx.insert(attachmentChunks).values(rows);
  });
}

/** Replaces the stored file under `storageKey` by `plaintext` in the old format; its iv and tag. */
export function writeLegacyFile(
  store: DirectoryStore,
  keyHex: string,
  storageKey: string,
  plaintext: Buffer,
): { format: 'gcm'; iv: string; authTag: string; keyId: null } {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  cipher.setAAD(Buffer.from(storageKey));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  fs.writeFileSync(store.pathFor(storageKey), body, { mode: 0o600 });
  // Such files name no key (they were written before key ids).
  return { format: 'gcm', iv: iv.toString('hex'), authTag: cipher.getAuthTag().toString('hex'), keyId: null };
}

/** Where stored chunk `index` of a 'stream1' file starts and ends (exclusive). */
export function sealedChunk(index: number, fileSize: number): { start: number; end: number } {
  const start = HEADER_SIZE + index * SEALED_CHUNK_SIZE;
  return { start, end: Math.min(start + SEALED_CHUNK_SIZE, fileSize) };
}

/** The stored bytes with chunks `i` and `j` (i < j, adjacent) in each other's places. */
export function swapChunks(b: Buffer, i: number, j: number): Buffer {
  const one = sealedChunk(i, b.length);
  const two = sealedChunk(j, b.length);
  return Buffer.concat([
    b.subarray(0, one.start),
    b.subarray(two.start, two.end),
    b.subarray(one.start, two.start),
    b.subarray(two.end),
  ]);
}

export { CHUNK_SIZE };
