// Test helpers for stored files: a file in the old single-GCM format ('gcm'), written exactly as
// FileStore.write wrote them before the chunked format, and byte surgery on stored files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { CHUNK_SIZE, HEADER_SIZE, SEALED_CHUNK_SIZE } from './chunked.js';
import type { FileStore } from './store.js';

/** Replaces the stored file under `storageKey` by `plaintext` in the old format; its iv and tag. */
export function writeLegacyFile(
  store: FileStore,
  keyHex: string,
  storageKey: string,
  plaintext: Buffer,
): { format: 'gcm'; iv: string; authTag: string } {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  cipher.setAAD(Buffer.from(storageKey));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  fs.writeFileSync(store.pathFor(storageKey), body, { mode: 0o600 });
  return { format: 'gcm', iv: iv.toString('hex'), authTag: cipher.getAuthTag().toString('hex') };
}

/** Where stored chunk `index` of a 'stream1' file starts and ends (exclusive). */
export function sealedChunk(index: number, fileSize: number): { start: number; end: number } {
  const start = HEADER_SIZE + index * SEALED_CHUNK_SIZE;
  return { start, end: Math.min(start + SEALED_CHUNK_SIZE, fileSize) };
}

export { CHUNK_SIZE };
