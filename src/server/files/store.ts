// Attachment storage: streamed to a temporary file beside the store while it is hashed (SHA-256
// of the plaintext) and encrypted, fsynced, then renamed to its final name. Nothing here buffers a
// whole file in memory.
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
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from '../errors.js';
import type { PendingUploads } from './pending.js';
import {
  CHUNK_SIZE,
  chunkCount,
  chunkOffset,
  HEADER_SIZE,
  Opener,
  openWhole,
  sealedSize,
  Sealer,
} from './chunked.js';

export { IntegrityError } from './chunked.js';

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

export class FileStore {
  readonly dir: string;
  readonly tmpDir: string;
  private readonly key: Buffer;

  /**
   * `pending` records uploads in flight (files/pending.ts) so that the sweep of another process
   * sharing this folder leaves them alone; the command-line tools, which never upload, go without.
   */
  constructor(
    dataDir: string,
    keyHex?: string,
    private readonly pending?: PendingUploads,
  ) {
    this.dir = path.join(dataDir, 'attachments');
    this.tmpDir = path.join(this.dir, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.key = loadKey(dataDir, keyHex);
  }

  /** A key for another purpose (e.g. TOTP secrets), derived from the file key with HKDF-SHA256. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.key, Buffer.alloc(0), `medledger:${purpose}`, 32));
  }
  /** Storage is writable: a probe file is written, synced and removed (the readiness check). */
  async checkWritable(): Promise<void> {
    const probe = path.join(
      this.tmpDir,
      `ready-${process.pid}-${crypto.randomBytes(4).toString('hex')}.probe`,
    );
    await fsp.writeFile(probe, 'ok', { flush: true });
    await fsp.rm(probe, { force: true });
  }

  pathFor(storageKey: string): string {
    if (!isStorageKey(storageKey)) throw new Error('invalid storage key');
    return path.join(this.dir, storageKey);
  }

  /**
   * The decrypted bytes of a stored file, or null when the file is gone. The stream errors if
   * the file was altered on disk: for "stream1" files before the first byte of the changed chunk
   * (an IntegrityError), for "gcm" files only at the end.
   */
  async open(meta: StoredFileRef): Promise<Readable | null> {
    const stat = await fsp.stat(this.pathFor(meta.storageKey)).catch(() => null);
    return stat ? this.openDecrypted(meta) : null;
  }

  /**
   * Plaintext bytes `start` to `end` (inclusive) of a "stream1" file of `size` plaintext bytes,
   * decrypting only the chunks they lie in; null when the file is gone. The caller checks the
   * range against `size`. A chunk read that fails its check ends the stream with an IntegrityError.
   */
  async openRange(
    meta: StoredFileRef & { size: number },
    start: number,
    end: number,
  ): Promise<Readable | null> {
    if (meta.format !== 'stream1') throw new Error('ranges are read from "stream1" files only');
    if (!(start >= 0 && start <= end && end < meta.size)) throw new Error('range outside the file');
    const file = this.pathFor(meta.storageKey);
    const handle = await fsp.open(file, 'r').catch(() => null);
    if (!handle) return null;
    let header: Buffer;
    try {
      header = Buffer.alloc(HEADER_SIZE);
      const { bytesRead } = await handle.read(header, 0, HEADER_SIZE, 0);
      header = header.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
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
    // The range's chunks only; the last chunk's stored end follows from the plaintext size.
    const readEnd = Math.min(chunkOffset(untilChunk + 1), sealedSize(meta.size)) - 1;
    const reader = fs.createReadStream(file, { start: chunkOffset(firstChunk), end: readEnd, highWaterMark: 1024 * 1024 });
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

  /** Removes a stored file; a file already gone is not an error. */
  async remove(storageKey: string): Promise<void> {
    await fsp.rm(this.pathFor(storageKey), { force: true });
  }

  /**
   * Streams `source` to a temporary file (format "stream1"). Rejects with a 413 HttpError (and
   * leaves nothing on disk) when it grows past maxBytes. `inspect` sees the first bytes (content
   * signature checks).
   */
  async write(source: Readable, maxBytes: number, inspect?: (head: Buffer) => void): Promise<PendingFile> {
    const storageKey = crypto.randomBytes(24).toString('base64url');
    await this.pending?.reserve(storageKey);
    const tmpPath = path.join(this.tmpDir, `${storageKey}.part`);
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
    try {
      // flush: fsync before the stream closes; pipeline settles after the close. (A FileHandle
      // with a stream opened on it with autoClose: false never settles its close() on Node 20.)
      await pipeline(
        source,
        meter,
        new Sealer(this.key, storageKey),
        fs.createWriteStream(tmpPath, { mode: 0o600, flush: true }),
      );
    } catch (err) {
      await fsp.rm(tmpPath, { force: true });
      await this.pending?.release(storageKey).catch(() => {});
      // Drain the rest of the upload so the request can still be answered.
      source.resume();
      if (err instanceof FileTooLargeError || (source as { truncated?: boolean }).truncated) {
        throw tooLarge(`File is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB per file.`);
      }
      throw err;
    }
    const finalPath = this.pathFor(storageKey);
    let committed = false;
    return {
      storageKey,
      size,
      sha256: hash.digest('hex'),
      format: 'stream1',
      iv: '',
      authTag: '',
      commit: async () => {
        await fsp.rename(tmpPath, finalPath);
        committed = true;
        await fsyncDir(this.dir);
      },
      discard: async () => {
        await fsp.rm(committed ? finalPath : tmpPath, { force: true });
        await this.pending?.release(storageKey);
      },
    };
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
    const tmpPath = path.join(this.tmpDir, `${meta.storageKey}.${crypto.randomBytes(4).toString('hex')}.migrate`);
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

  private decipherFor(meta: StoredFileRef) {
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(meta.iv, 'hex'));
    decipher.setAAD(Buffer.from(meta.storageKey));
    decipher.setAuthTag(Buffer.from(meta.authTag, 'hex'));
    return decipher;
  }

  /** The decrypted bytes of a stored file. The stream errors if the file was altered on disk. */
  openDecrypted(meta: StoredFileRef): Readable {
    const decrypt = meta.format === 'stream1' ? new Opener(this.key, meta.storageKey) : this.decipherFor(meta);
    // 1 MiB reads: with the default 64 KiB chunks, per-chunk overhead halves decrypt+hash speed.
    const file = fs.createReadStream(this.pathFor(meta.storageKey), { highWaterMark: 1024 * 1024 });
    file.on('error', (err) => decrypt.destroy(err));
    // A reader that stops early (a client gone, a failed chunk) closes the file too.
    decrypt.on('close', () => file.destroy());
    return file.pipe(decrypt);
  }

  /**
   * SHA-256 of the stored plaintext, or the reason it cannot be read back intact
   * ('missing' when the file is gone, 'altered' when decryption fails its integrity check).
   */
  async hashStored(
    meta: StoredFileRef,
  ): Promise<{ ok: true; sha256: string } | { ok: false; reason: 'missing' | 'altered' }> {
    const file = this.pathFor(meta.storageKey);
    const stat = await fsp.stat(file).catch(() => null);
    if (!stat) return { ok: false, reason: 'missing' };
    const hash = crypto.createHash('sha256');
    try {
      if (stat.size <= WHOLE_READ_LIMIT) {
        // Small files (most records): one read and one decrypt pass; streams cost more per file.
        const bytes = await fsp.readFile(file);
        if (meta.format === 'stream1') {
          openWhole(this.key, meta.storageKey, bytes, (plain) => hash.update(plain));
        } else {
          const decipher = this.decipherFor(meta);
          hash.update(decipher.update(bytes));
          hash.update(decipher.final());
        }
      } else {
        for await (const chunk of this.openDecrypted(meta)) hash.update(chunk as Buffer);
      }
      return { ok: true, sha256: hash.digest('hex') };
    } catch {
      return { ok: false, reason: 'altered' };
    }
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
function loadKey(dataDir: string, keyHex?: string): Buffer {
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
