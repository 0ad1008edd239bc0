// Attachment storage: streamed to a temporary file beside the store while it is hashed (SHA-256
// of the plaintext) and encrypted (AES-256-GCM, a fresh nonce per file, the storage key as
// associated data so a file cannot be swapped for another on disk), fsynced, then renamed to its
// final name. Nothing here buffers a whole file in memory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from '../errors.js';

export interface StoredFileMeta {
  storageKey: string;
  size: number;
  /** SHA-256 of the plaintext, lowercase hex. */
  sha256: string;
  iv: string;
  authTag: string;
}

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

/** How old a leftover must be before the start-up sweep removes it (see `sweep`). */
export const SWEEP_GRACE_MS = 60 * 60_000;

/** Files up to this size are read back whole when hashed (bounded memory, less overhead). */
const WHOLE_READ_LIMIT = 4 * 1024 * 1024;

export class FileStore {
  readonly dir: string;
  readonly tmpDir: string;
  private readonly key: Buffer;

  constructor(dataDir: string, keyHex?: string) {
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
   * the file was altered on disk.
   */
  async open(meta: Pick<StoredFileMeta, 'storageKey' | 'iv' | 'authTag'>): Promise<Readable | null> {
    const stat = await fsp.stat(this.pathFor(meta.storageKey)).catch(() => null);
    return stat ? this.openDecrypted(meta) : null;
  }

  /** Removes a stored file; a file already gone is not an error. */
  async remove(storageKey: string): Promise<void> {
    await fsp.rm(this.pathFor(storageKey), { force: true });
  }

  /**
   * Streams `source` to a temporary file. Rejects with a 413 HttpError (and leaves nothing on
   * disk) when it grows past maxBytes. `inspect` sees the first bytes (content signature checks).
   */
  async write(source: Readable, maxBytes: number, inspect?: (head: Buffer) => void): Promise<PendingFile> {
    const storageKey = crypto.randomBytes(24).toString('base64url');
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(storageKey));
    const hash = crypto.createHash('sha256');
    const tmpPath = path.join(this.tmpDir, `${storageKey}.part`);
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
      await pipeline(source, meter, cipher, fs.createWriteStream(tmpPath, { mode: 0o600, flush: true }));
    } catch (err) {
      await fsp.rm(tmpPath, { force: true });
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
      iv: iv.toString('hex'),
      authTag: cipher.getAuthTag().toString('hex'),
      commit: async () => {
        await fsp.rename(tmpPath, finalPath);
        committed = true;
        await fsyncDir(this.dir);
      },
      discard: async () => {
        await fsp.rm(committed ? finalPath : tmpPath, { force: true });
      },
    };
  }

  private decipherFor(meta: Pick<StoredFileMeta, 'storageKey' | 'iv' | 'authTag'>) {
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(meta.iv, 'hex'));
    decipher.setAAD(Buffer.from(meta.storageKey));
    decipher.setAuthTag(Buffer.from(meta.authTag, 'hex'));
    return decipher;
  }

  /** The decrypted bytes of a stored file. The stream errors if the file was altered on disk. */
  openDecrypted(meta: Pick<StoredFileMeta, 'storageKey' | 'iv' | 'authTag'>): Readable {
    const decipher = this.decipherFor(meta);
    // 1 MiB reads: with the default 64 KiB chunks, per-chunk overhead halves decrypt+hash speed.
    const file = fs.createReadStream(this.pathFor(meta.storageKey), { highWaterMark: 1024 * 1024 });
    file.on('error', (err) => decipher.destroy(err));
    return file.pipe(decipher);
  }

  /**
   * SHA-256 of the stored plaintext, or the reason it cannot be read back intact
   * ('missing' when the file is gone, 'altered' when decryption fails its integrity check).
   */
  async hashStored(
    meta: Pick<StoredFileMeta, 'storageKey' | 'iv' | 'authTag'>,
  ): Promise<{ ok: true; sha256: string } | { ok: false; reason: 'missing' | 'altered' }> {
    const file = this.pathFor(meta.storageKey);
    const stat = await fsp.stat(file).catch(() => null);
    if (!stat) return { ok: false, reason: 'missing' };
    const hash = crypto.createHash('sha256');
    try {
      if (stat.size <= WHOLE_READ_LIMIT) {
        // Small files (most records): one read and one decrypt call; streams cost more per file.
        const decipher = this.decipherFor(meta);
        hash.update(decipher.update(await fsp.readFile(file)));
        hash.update(decipher.final());
      } else {
        for await (const chunk of this.openDecrypted(meta)) hash.update(chunk as Buffer);
      }
      return { ok: true, sha256: hash.digest('hex') };
    } catch {
      return { ok: false, reason: 'altered' };
    }
  }

  /**
   * Removes leftovers of uploads that never committed: temporary files, and files no committed
   * attachment points to (run at start; `isReferenced` asks the database). Only files older than
   * `graceMs` are touched: another process sharing this folder may be writing, or about to commit,
   * a younger one (its file is renamed into place just before its transaction commits).
   */
  async sweep(
    isReferenced: (storageKeys: string[]) => Promise<Set<string>>,
    graceMs = SWEEP_GRACE_MS,
    now = Date.now(),
  ): Promise<number> {
    const olderThanGrace = async (file: string) => {
      const stat = await fsp.stat(file).catch(() => null);
      return stat !== null && now - stat.mtimeMs > graceMs;
    };
    let removed = 0;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      if (!(await olderThanGrace(file))) continue;
      await fsp.rm(file, { force: true });
      removed++;
    }
    const names = (await fsp.readdir(this.dir)).filter((n) => n !== '.tmp');
    for (let i = 0; i < names.length; i += 500) {
      const batch = names.slice(i, i + 500);
      const known = await isReferenced(batch);
      for (const name of batch) {
        const file = path.join(this.dir, name);
        if (known.has(name) || !(await olderThanGrace(file))) continue;
        await fsp.rm(file, { force: true });
        removed++;
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
