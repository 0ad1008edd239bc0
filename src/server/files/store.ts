// Attachment storage. `FileStore` is the contract the record and ledger code use; two stores keep
// the same sealed bytes: `DirectoryStore` here (DATA_DIR/attachments, the default; a file is
// streamed to a temporary name while it is hashed and encrypted, fsynced, then renamed to its final
// name) and `DatabaseStore` (files/database-store.ts, rows of PostgreSQL, with DATABASE_URL). What
// they share (hashing, sealing, opening, ranges) is `SealedStore`, so a chunk is authenticated the
// same way wherever it is kept. Nothing here buffers a whole file in memory.
//
// Two formats, told apart by the attachment row's `format` (never by guessing from the file):
// - "stream1" (every new file, chunked.ts): a header, then 64 KiB chunks each sealed on its own
//   with AES-256-GCM, so a reader refuses a changed file at the first changed chunk, and a range
//   is read by decrypting only the chunks it covers.
// - "gcm" (files written before): one AES-256-GCM stream (nonce in `iv`, tag in `authTag`, the
//   storage key as associated data) whose tag is checked only at the end. Still readable;
//   `npm run ledger -- migrate-files` rewrites them as "stream1".
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from '../errors.js';
import { MAX_UPLOAD_BYTES } from '../../shared/constants.js';
import type { Db } from '../db/connect.js';
import { nowOrOnceDatabaseIsBack } from '../db/outage.js';
import { protectedKeys, type PendingUploads } from './pending.js';
import {
  CHUNK_SIZE,
  chunkCount,
  chunkOffset,
  HEADER_SIZE,
  IntegrityError,
  Opener,
  openWhole,
  sealedSize,
  Sealer,
} from './chunked.js';

export { IntegrityError } from './chunked.js';

/** Whether a read error means the stored bytes are not what was written (not a client abort). */
export function isIntegrityFailure(err: unknown): boolean {
  if (err instanceof IntegrityError) return true;
  // A "gcm" file: the decipher's final tag check.
  return err instanceof Error && /unable to authenticate data/i.test(err.message);
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

export class FileTooLargeError extends Error {}

const STORAGE_KEY = /^[A-Za-z0-9_-]{20,64}$/;

/** Whether `value` has the shape of a storage key (an opaque id, never a path). */
export function isStorageKey(value: string): boolean {
  return STORAGE_KEY.test(value);
}

/** How old an unclaimed file must be before the start-up sweep removes it (see `sweep`). */
export const SWEEP_GRACE_MS = 10 * 60_000;

/** Files up to this size are read back whole when hashed (bounded memory, less overhead). */
const WHOLE_READ_LIMIT = 4 * 1024 * 1024;

/**
 * Buffers for those whole reads, kept for the next file: on this kind of virtual machine a page
 * first touched costs several microseconds, and a fresh buffer per file made reading back cost
 * as much as decrypting it. A few are kept (an audit reads a handful of files at once).
 */
const readBuffers: Buffer[] = [];
const READ_BUFFERS_KEPT = 4;

/** The whole file read into `buffer` (at least as large as the file); the part holding it. */
async function readInto(file: string, buffer: Buffer): Promise<Buffer> {
  const handle = await fsp.open(file, 'r');
  try {
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0 || filled + bytesRead === buffer.length)
        return buffer.subarray(0, filled + bytesRead);
      filled += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** What reading a stored file back gives: its plaintext's SHA-256, or why it cannot be read intact. */
export type HashStoredResult = { ok: true; sha256: string } | { ok: false; reason: 'missing' | 'altered' };

/** The attachment store the record and ledger code use, whichever keeps the bytes. */
export interface FileStore {
  readonly kind: 'directory' | 'database';
  /** A key for another purpose (e.g. TOTP secrets), derived from the file key with HKDF-SHA256. */
  deriveKey(purpose: string): Buffer;
  /** Storage is writable (the readiness check). */
  checkWritable(): Promise<void>;
  /**
   * The decrypted bytes of a stored file, or null when it is gone. The stream errors if the
   * stored bytes were altered: for "stream1" files before the first byte of the changed chunk
   * (an IntegrityError), for "gcm" files only at the end.
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
   * ('missing' when the file is gone, 'altered' when decryption fails its integrity check).
   */
  hashStored(meta: StoredFileRef): Promise<HashStoredResult>;
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

/**
 * What both stores share: the key, and hashing, sealing, opening and ranges over the stored
 * bytes (header, then sealed chunks), which each store reads and writes its own way.
 */
export abstract class SealedStore implements FileStore {
  abstract readonly kind: FileStore['kind'];
  protected readonly key: Buffer;

  /**
   * `pending` records uploads in flight (files/pending.ts) so that the sweep of another process
   * leaves them alone; the command-line tools, which never upload, go without.
   */
  protected constructor(
    dataDir: string,
    keyHex: string | undefined,
    protected readonly pending?: PendingUploads,
  ) {
    this.key = loadKey(dataDir, keyHex);
  }

  abstract checkWritable(): Promise<void>;
  abstract remove(storageKey: string): Promise<void>;
  abstract sweepUnfinished(db: Db, graceMs: number, now: Date): Promise<number>;
  /** Whether anything is stored under `storageKey`. */
  protected abstract exists(storageKey: string): Promise<boolean>;
  /** The stored header (possibly damaged), or null when nothing is stored under `storageKey`. */
  protected abstract readHeader(storageKey: string): Promise<Buffer | null>;
  /** The stored bytes of chunks `first` to `until`; `storedEnd` is where the file's last chunk ends. */
  protected abstract readChunks(
    storageKey: string,
    first: number,
    until: number,
    storedEnd: number,
  ): Readable;
  /** The whole stored file as kept (sealed), header first; errors (or ends early) when it is gone. */
  abstract openStored(storageKey: string): Readable;
  /** A place for the sealed bytes of a new file under `storageKey`. */
  protected abstract newSink(storageKey: string): SealedSink;

  deriveKey(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.key, Buffer.alloc(0), `medledger:${purpose}`, 32));
  }

  async open(meta: StoredFileRef): Promise<Readable | null> {
    return (await this.exists(meta.storageKey)) ? this.openDecrypted(meta) : null;
  }

  async openRange(
    meta: StoredFileRef & { size: number },
    start: number,
    end: number,
  ): Promise<Readable | null> {
    if (meta.format !== 'stream1') throw new Error('ranges are read from "stream1" files only');
    if (!(start >= 0 && start <= end && end < meta.size)) throw new Error('range outside the file');
    const header = await this.readHeader(meta.storageKey);
    if (!header) return null;
    const firstChunk = Math.floor(start / CHUNK_SIZE);
    const untilChunk = Math.floor(end / CHUNK_SIZE);
    const lastChunk = chunkCount(meta.size) - 1;
    const out = new PassThrough();
    let opener: Opener;
    try {
      opener = new Opener(this.key, meta.storageKey, { header, firstChunk, lastChunk, untilChunk });
    } catch (err) {
      // A damaged header: the stream fails before its first byte, as a damaged chunk would.
      process.nextTick(() => out.destroy(err as Error));
      return out;
    }
    const reader = this.readChunks(meta.storageKey, firstChunk, untilChunk, sealedSize(meta.size));
    const skip = start - firstChunk * CHUNK_SIZE;
    let position = 0;
    const length = end - start + 1;
    const slice = new Transform({
      transform(chunk: Buffer, _enc, done) {
        const from = Math.max(0, skip - position);
        const to = Math.min(chunk.length, skip + length - position);
        position += chunk.length;
        done(null, from < to ? chunk.subarray(from, to) : undefined);
      },
    });
    pipeline(reader, opener, slice, out).catch(() => {
      // pipeline has already destroyed `out` with the error; its reader sees it.
    });
    return out;
  }

  async write(source: Readable, maxBytes: number, inspect?: (head: Buffer) => void): Promise<PendingFile> {
    const storageKey = crypto.randomBytes(24).toString('base64url');
    try {
      await this.pending?.reserve(storageKey);
    } catch (err) {
      // A connection lost before its answer may have made the reservation all the same.
      await this.giveUp(storageKey, async () => {}).catch(() => {});
      throw err;
    }
    const hash = crypto.createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    let inspected = false;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError());
        if (!inspected) {
          head = Buffer.concat([head, chunk]).subarray(0, 16);
          if (head.length >= 16 || chunk.length === 0) {
            inspected = true;
            try {
              inspect?.(head);
            } catch (err) {
              return done(err as Error);
            }
          }
        }
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        if (!inspected) {
          inspected = true;
          try {
            inspect?.(head);
          } catch (err) {
            return done(err as Error);
          }
        }
        done();
      },
    });
    const sink = this.newSink(storageKey);
    try {
      await pipeline(source, meter, new Sealer(this.key, storageKey), sink.stream);
    } catch (err) {
      await this.giveUp(storageKey, () => sink.discard()).catch(() => {});
      // Drain the rest of the upload so the request can still be answered.
      source.resume();
      if (err instanceof FileTooLargeError || (source as { truncated?: boolean }).truncated) {
        throw tooLarge(`File is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB per file.`);
      }
      throw err;
    }
    let committed = false;
    return {
      storageKey,
      size,
      sha256: hash.digest('hex'),
      format: 'stream1',
      iv: '',
      authTag: '',
      commit: async () => {
        await sink.commit();
        committed = true;
      },
      discard: () => this.giveUp(storageKey, () => (committed ? this.remove(storageKey) : sink.discard())),
    };
  }

  /**
   * Removes an upload's bytes, then its reservation, unless its record did commit (a failure that
   * was only the COMMIT's answer lost); again once the database is back if it was away, since
   * only the database can say which.
   */
  private giveUp(storageKey: string, removeBytes: () => Promise<void>): Promise<void> {
    return nowOrOnceDatabaseIsBack(async () => {
      if (await this.pending?.committed(storageKey)) return;
      await removeBytes();
      await this.pending?.release(storageKey);
    });
  }

  protected decipherFor(meta: StoredFileRef) {
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(meta.iv, 'hex'));
    decipher.setAAD(Buffer.from(meta.storageKey));
    decipher.setAuthTag(Buffer.from(meta.authTag, 'hex'));
    return decipher;
  }

  openDecrypted(meta: StoredFileRef): Readable {
    const decrypt =
      meta.format === 'stream1' ? new Opener(this.key, meta.storageKey) : this.decipherFor(meta);
    const stored = this.openStored(meta.storageKey);
    stored.on('error', (err) => decrypt.destroy(err));
    // A reader that stops early (a client gone, a failed chunk) closes the stored stream too.
    decrypt.on('close', () => stored.destroy());
    return stored.pipe(decrypt);
  }

  async hashStored(meta: StoredFileRef): Promise<HashStoredResult> {
    if (!(await this.exists(meta.storageKey))) return { ok: false, reason: 'missing' };
    const hash = crypto.createHash('sha256');
    try {
      for await (const chunk of this.openDecrypted(meta)) hash.update(chunk as Buffer);
      return { ok: true, sha256: hash.digest('hex') };
    } catch {
      return { ok: false, reason: 'altered' };
    }
  }
}

/** Attachments as files under DATA_DIR/attachments (the default, and always with PGlite). */
export class DirectoryStore extends SealedStore {
  readonly kind = 'directory' as const;
  readonly dir: string;
  readonly tmpDir: string;

  constructor(dataDir: string, keyHex?: string, pending?: PendingUploads) {
    super(dataDir, keyHex, pending);
    this.dir = path.join(dataDir, 'attachments');
    this.tmpDir = path.join(this.dir, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * A probe file is written, synced and removed; and the folder's file system must have room for a
   * file at the upload limit, or the check fails as the write would (ENOSPC: readiness says full).
   */
  async checkWritable(): Promise<void> {
    const { bavail, bsize } = await fsp.statfs(this.tmpDir);
    if (bavail * bsize < MAX_UPLOAD_BYTES)
      throw Object.assign(new Error('less free space than one file at the upload limit'), { code: 'ENOSPC' });
    const probe = path.join(
      this.tmpDir,
      `ready-${process.pid}-${crypto.randomBytes(4).toString('hex')}.probe`,
    );
    await fsp.writeFile(probe, 'ok', { flush: true });
    await fsp.rm(probe, { force: true });
  }

  /** Whether the folder holds any stored file (temporary files aside). */
  async hasAnyFile(): Promise<boolean> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    return names.some(isStorageKey);
  }

  pathFor(storageKey: string): string {
    if (!isStorageKey(storageKey)) throw new Error('invalid storage key');
    return path.join(this.dir, storageKey);
  }

  protected async exists(storageKey: string): Promise<boolean> {
    return (await fsp.stat(this.pathFor(storageKey)).catch(() => null)) !== null;
  }

  protected async readHeader(storageKey: string): Promise<Buffer | null> {
    const handle = await fsp.open(this.pathFor(storageKey), 'r').catch(() => null);
    if (!handle) return null;
    try {
      const header = Buffer.alloc(HEADER_SIZE);
      const { bytesRead } = await handle.read(header, 0, HEADER_SIZE, 0);
      return header.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  protected readChunks(storageKey: string, first: number, until: number, storedEnd: number): Readable {
    // The range's chunks only; the last chunk's stored end follows from the plaintext size.
    const end = Math.min(chunkOffset(until + 1), storedEnd) - 1;
    return fs.createReadStream(this.pathFor(storageKey), {
      start: chunkOffset(first),
      end,
      highWaterMark: 1024 * 1024,
    });
  }

  openStored(storageKey: string): Readable {
    // 1 MiB reads: with the default 64 KiB chunks, per-chunk overhead halves decrypt+hash speed.
    return fs.createReadStream(this.pathFor(storageKey), { highWaterMark: 1024 * 1024 });
  }

  protected newSink(storageKey: string): SealedSink {
    const tmpPath = path.join(this.tmpDir, `${storageKey}.part`);
    let committed = false;
    // flush: fsync before the stream closes; pipeline settles after the close. (A FileHandle
    // with a stream opened on it with autoClose: false never settles its close() on Node 20.)
    const stream = fs.createWriteStream(tmpPath, { mode: 0o600, flush: true });
    return {
      stream,
      commit: async () => {
        await fsp.rename(tmpPath, this.pathFor(storageKey));
        committed = true;
        await fsyncDir(this.dir);
      },
      discard: async () => {
        if (committed) return;
        // The stream creates its file asynchronously: a write refused on its first bytes can get
        // here before the file exists, and removing it then would leave it behind once created.
        if (!stream.closed) {
          const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
          stream.destroy();
          await closed;
        }
        await fsp.rm(tmpPath, { force: true });
      },
    };
  }

  async remove(storageKey: string): Promise<void> {
    await fsp.rm(this.pathFor(storageKey), { force: true });
  }

  /**
   * Rewrites a "gcm" file as "stream1" under the same storage key: the old file is decrypted in
   * full (its tag checked) into a fsynced temporary file; nothing replaces the old file until
   * `replace()`. Rejects when the old file is gone or fails its check. `sha256` is the plaintext's
   * hash, for the caller to compare with the row's.
   */
  async rewriteLegacy(meta: StoredFileRef): Promise<{
    sha256: string;
    size: number;
    replace(): Promise<void>;
    discard(): Promise<void>;
  }> {
    if (meta.format !== 'gcm') throw new Error('only "gcm" files are rewritten');
    const tmpPath = path.join(
      this.tmpDir,
      `${meta.storageKey}.${crypto.randomBytes(4).toString('hex')}.migrate`,
    );
    const hash = crypto.createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      // The decipher checks the old tag at its end, before the write stream is finished: a
      // failed check fails the pipeline and the temporary file is removed.
      await pipeline(
        this.openDecrypted(meta),
        meter,
        new Sealer(this.key, meta.storageKey),
        fs.createWriteStream(tmpPath, { mode: 0o600, flush: true }),
      );
    } catch (err) {
      await fsp.rm(tmpPath, { force: true });
      throw err;
    }
    return {
      sha256: hash.digest('hex'),
      size,
      replace: async () => {
        await fsp.rename(tmpPath, this.pathFor(meta.storageKey));
        await fsyncDir(this.dir);
      },
      discard: async () => {
        await fsp.rm(tmpPath, { force: true });
      },
    };
  }

  /** Small files (most records): one read and one decrypt pass; streams cost more per file. */
  override async hashStored(meta: StoredFileRef): Promise<HashStoredResult> {
    const file = this.pathFor(meta.storageKey);
    const stat = await fsp.stat(file).catch(() => null);
    if (!stat) return { ok: false, reason: 'missing' };
    if (stat.size > WHOLE_READ_LIMIT) return super.hashStored(meta);
    const buffer = readBuffers.pop() ?? Buffer.allocUnsafe(WHOLE_READ_LIMIT);
    try {
      return this.hashWhole(meta, await readInto(file, buffer));
    } finally {
      if (readBuffers.length < READ_BUFFERS_KEPT) readBuffers.push(buffer);
    }
  }

  /**
   * hashStored for a thread that does nothing else (the audit's hash workers, hash-worker.ts):
   * a small file is read with blocking calls, so the bytes land in this core's cache and are
   * decrypted there, without the five hand-offs to Node's thread pool (stat, open, two reads,
   * close) that the asynchronous reads cost per file. Measured with bench/ledger.bench.ts (two
   * workers, 120 files of 512 KB): 79-113 ms asynchronously, 49-72 ms so. Never call it on the
   * server's event loop. Larger files stream as in hashStored.
   */
  async hashStoredBlocking(meta: StoredFileRef): Promise<HashStoredResult> {
    let fd: number;
    try {
      fd = fs.openSync(this.pathFor(meta.storageKey), 'r');
    } catch {
      return { ok: false, reason: 'missing' };
    }
    const buffer = readBuffers.pop() ?? Buffer.allocUnsafe(WHOLE_READ_LIMIT);
    try {
      let filled = 0;
      for (;;) {
        const read = fs.readSync(fd, buffer, filled, buffer.length - filled, filled);
        filled += read;
        if (read === 0 || filled === buffer.length) break;
      }
      if (filled === buffer.length) return await super.hashStored(meta); // past the whole-read limit
      return this.hashWhole(meta, buffer.subarray(0, filled));
    } finally {
      fs.closeSync(fd);
      if (readBuffers.length < READ_BUFFERS_KEPT) readBuffers.push(buffer);
    }
  }

  /** The SHA-256 of a whole stored file's plaintext, from its sealed bytes. */
  private hashWhole(meta: StoredFileRef, bytes: Buffer): HashStoredResult {
    const hash = crypto.createHash('sha256');
    try {
      if (meta.format === 'stream1') {
        openWhole(this.key, meta.storageKey, bytes, (plain) => hash.update(plain));
      } else {
        const decipher = this.decipherFor(meta);
        hash.update(decipher.update(bytes));
        hash.update(decipher.final());
      }
      return { ok: true, sha256: hash.digest('hex') };
    } catch {
      return { ok: false, reason: 'altered' };
    }
  }

  sweepUnfinished(db: Db, graceMs: number, now: Date): Promise<number> {
    return this.sweep(protectedKeys(db, now), graceMs, now.getTime());
  }

  /**
   * Removes leftovers of uploads that never committed: temporary files and stored files that
   * `isProtected` (files/pending.ts: committed attachments and live reservations, asked of the
   * database) does not claim. Another process sharing this folder reserves each upload before
   * its first byte, so its work is never taken for a leftover; `graceMs` is a second guard (clock
   * skew, files from before reservations existed), not the mechanism.
   */
  async sweep(
    isProtected: (storageKeys: string[]) => Promise<Set<string>>,
    graceMs = SWEEP_GRACE_MS,
    now = Date.now(),
  ): Promise<number> {
    const olderThanGrace = async (file: string) => {
      const stat = await fsp.stat(file).catch(() => null);
      return stat !== null && now - stat.mtimeMs > graceMs;
    };
    const keyOf = (name: string, dir: string) => {
      const key = dir === this.tmpDir ? name.replace(/\.part$/, '') : name;
      return isStorageKey(key) ? key : null;
    };
    let removed = 0;
    for (const dir of [this.tmpDir, this.dir]) {
      const names = (await fsp.readdir(dir)).filter((n) => n !== '.tmp');
      for (let i = 0; i < names.length; i += 500) {
        const batch = names.slice(i, i + 500);
        const keys = batch.map((n) => keyOf(n, dir)).filter((k): k is string => k !== null);
        const kept = keys.length > 0 ? await isProtected(keys) : new Set<string>();
        for (const name of batch) {
          const key = keyOf(name, dir);
          const file = path.join(dir, name);
          if ((key && kept.has(key)) || !(await olderThanGrace(file))) continue;
          await fsp.rm(file, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}

async function fsyncDir(dir: string) {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is already synced.
  } finally {
    await handle.close();
  }
}

/** FILE_ENCRYPTION_KEY, or a key made once and kept (mode 0600) in DATA_DIR/secrets/file.key. */
export function loadKey(dataDir: string, keyHex?: string): Buffer {
  if (keyHex) {
    if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) throw new Error('FILE_ENCRYPTION_KEY must be 64 hex characters');
    return Buffer.from(keyHex, 'hex');
  }
  const keyFile = path.join(dataDir, 'secrets', 'file.key');
  if (fs.existsSync(keyFile)) return Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'hex');
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(keyFile, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}
