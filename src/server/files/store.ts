// The attachment store's contract: what the record, ledger and download code ask of wherever the
// bytes are kept. The pieces behind it:
// - formats/chunked.ts: the sealed format ("stream1") every file is written in, whose header names
//   the key it was sealed with (keys.ts: the keyring, rotation);
// - formats/legacy-gcm.ts: the old single-GCM format ("gcm"), read until migrate-files has
//   resealed every such file;
// - sealed-store.ts: writing, opening, ranges, hashing and resealing over stored bytes, for both
//   backends; hashing.ts: the plaintext's SHA-256 taken while it streams;
// - backends/directory.ts (DATA_DIR/attachments, the default) and backends/database.ts (rows of
//   PostgreSQL, the default with DATABASE_URL), which keep the same sealed bytes.
// Nothing buffers a whole file in memory. The two formats are told apart by the attachment row's
// `format`, never by guessing from the file.
import type { Readable, Writable } from 'node:stream';
import type { Db } from '../db/connect.js';
import { IntegrityError } from './formats/chunked.js';
import { isLegacyAuthFailure } from './formats/legacy-gcm.js';

export { IntegrityError } from './formats/chunked.js';
export { FileTooLargeError } from './hashing.js';
export { MissingKeyError } from './keys.js';

/** Whether a read error means the stored bytes are not what was written (not a client abort). */
export function isIntegrityFailure(err: unknown): boolean {
  return err instanceof IntegrityError || isLegacyAuthFailure(err);
}

export const FILE_FORMATS = ['gcm', 'stream1'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface StoredFileMeta {
  storageKey: string;
  size: number;
  /** SHA-256 of the plaintext, lowercase hex. */
  sha256: string;
  format: FileFormat;
  /** "gcm" only: the nonce and tag, hex ('' for "stream1", whose nonces and tags are in the file). */
  iv: string;
  authTag: string;
  /** The id (hex) of the key the file is sealed with (files/keys.ts); the file's header names it too. */
  keyId: string;
}

/** What reading a stored file back needs (an attachment row has it). */
export type StoredFileRef = Pick<StoredFileMeta, 'storageKey' | 'iv' | 'authTag' | 'format'>;

/** A file written and fsynced under its temporary name, waiting for commit() or discard(). */
export interface PendingFile extends StoredFileMeta {
  /** Renames the file to its final name (call before the database commit). */
  commit(): Promise<void>;
  /** Removes the file, wherever it is (call when the database transaction fails). */
  discard(): Promise<void>;
}

/**
 * A file sealed anew under the current key (migrate-files), read back: its plaintext's SHA-256
 * and size, to compare with the row's before `replace()` makes it the stored file.
 */
export interface ResealedFile {
  sha256: string;
  size: number;
  keyId: string;
  /**
   * Makes the new bytes the stored file, in `db` (the transaction that switches the row, where
   * the backend keeps its bytes in the database; a file is renamed before that commit).
   */
  replace(db?: Db): Promise<void>;
  /** Removes the new bytes (nothing was replaced). */
  discard(): Promise<void>;
}

const STORAGE_KEY = /^[A-Za-z0-9_-]{20,64}$/;

/** Whether `value` has the shape of a storage key (an opaque id, never a path). */
export function isStorageKey(value: string): boolean {
  return STORAGE_KEY.test(value);
}

/** How old an unclaimed file must be before the start-up sweep removes it (see `sweep`). */
export const SWEEP_GRACE_MS = 10 * 60_000;

/** What reading a stored file back gives: its plaintext's SHA-256, or why it cannot be read intact. */
export type HashStoredResult =
  | { ok: true; sha256: string }
  | { ok: false; reason: 'missing' | 'altered' }
  | { ok: false; reason: 'key-missing'; keyId: string };

/** The attachment store the record and ledger code use, whichever keeps the bytes. */
export interface FileStore {
  readonly kind: 'directory' | 'database';
  /**
   * A key for another purpose (e.g. TOTP secrets), derived with HKDF-SHA256 from
   * ACCOUNT_SECRETS_KEY (the file key unless set), so that rotating the file key leaves it alone.
   */
  deriveKey(purpose: string): Buffer;
  /** The id (hex) of the key new files are sealed with, and the ids of every key held. */
  readonly currentKeyId: string;
  keyIds(): string[];
  /** Storage is writable (the readiness check). */
  checkWritable(): Promise<void>;
  /**
   * The decrypted bytes of a stored file, or null when it is gone. The stream errors if the
   * stored bytes were altered: for "stream1" files before the first byte of the changed chunk
   * (an IntegrityError), for "gcm" files only at the end; with a MissingKeyError when the file
   * names a key that is not held.
   */
  open(meta: StoredFileRef): Promise<Readable | null>;
  /**
   * Plaintext bytes `start` to `end` (inclusive) of a "stream1" file of `size` plaintext bytes,
   * decrypting only the chunks they lie in; null when the file is gone. The caller checks the
   * range against `size`. A chunk read that fails its check ends the stream with an IntegrityError.
   */
  openRange(meta: StoredFileRef & { size: number }, start: number, end: number): Promise<Readable | null>;
  /** The decrypted bytes of a stored file; the stream errors if it is gone or altered. */
  openDecrypted(meta: StoredFileRef): Readable;
  /** Removes a stored file; a file already gone is not an error. */
  remove(storageKey: string): Promise<void>;
  /**
   * Streams `source` into the store (format "stream1"), reserved in `pending_uploads` first.
   * Rejects with a 413 HttpError (and leaves nothing stored) when it grows past maxBytes.
   * `inspect` sees the first bytes (content signature checks).
   */
  write(source: Readable, maxBytes: number, inspect?: (head: Buffer) => void): Promise<PendingFile>;
  /**
   * SHA-256 of the stored plaintext, or the reason it cannot be read back intact
   * ('missing' when the file is gone, 'altered' when decryption fails its integrity check,
   * 'key-missing' when the file names a key that is not held).
   */
  hashStored(meta: StoredFileRef): Promise<HashStoredResult>;
  /**
   * Seals the file anew under the current key, beside the old one (which stays until
   * `replace`), reading the old one in full and the new one back; rejects when the old one is
   * gone or fails its check. `npm run ledger -- migrate-files` compares the result with the row.
   */
  reseal(meta: StoredFileRef): Promise<ResealedFile>;
  /**
   * The start-up sweep: removes what uploads that never committed left behind, never what an
   * attachment row or a live reservation (files/pending.ts) claims. The number of files removed.
   */
  sweepUnfinished(db: Db, graceMs: number, now: Date): Promise<number>;
}

/** Where the sealed bytes of a new file go until commit() or discard(). */
export interface SealedSink {
  stream: Writable;
  /** Makes the written bytes the stored file (before the database commit). */
  commit(): Promise<void>;
  /** Removes what was written, when nothing was committed. */
  discard(): Promise<void>;
}
