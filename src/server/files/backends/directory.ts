// Attachments as files under DATA_DIR/attachments (the default, and always with PGlite). A new file
// is streamed to a temporary name while it is hashed and sealed, fsynced, then renamed to its
// final name (its storage key) before the record's transaction commits; a resealed file replaces
// the old one by a rename as well.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants.js';
import type { Db } from '../../db/connect.js';
import { chunkOffset, HEADER_SIZE, openWhole } from '../formats/chunked.js';
import { openLegacyWhole } from '../formats/legacy-gcm.js';
import type { FileKeySettings } from '../keys.js';
import { protectedKeys, type PendingUploads } from '../pending.js';
import { failureOf, SealedStore, type ResealTarget } from '../sealed-store.js';
import {
  isStorageKey,
  SWEEP_GRACE_MS,
  type HashStoredResult,
  type SealedSink,
  type StoredFileRef,
} from '../store.js';

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

/** Attachments as files under DATA_DIR/attachments (the default, and always with PGlite). */
export class DirectoryStore extends SealedStore {
  readonly kind = 'directory' as const;
  readonly dir: string;
  readonly tmpDir: string;

  constructor(dataDir: string, keys?: FileKeySettings | string, pending?: PendingUploads) {
    super(dataDir, keys, pending);
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

  /** Header and chunks from one open file: a file resealed meanwhile (renamed over) is not mixed in. */
  protected async readRange(storageKey: string, first: number, until: number, storedEnd: number) {
    const handle = await fsp.open(this.pathFor(storageKey), 'r').catch(() => null);
    if (!handle) return null;
    let header: Buffer;
    try {
      header = Buffer.alloc(HEADER_SIZE);
      const { bytesRead } = await handle.read(header, 0, HEADER_SIZE, 0);
      header = header.subarray(0, bytesRead);
    } catch (err) {
      await handle.close();
      throw err;
    }
    // The range's chunks only; the last chunk's stored end follows from the plaintext size.
    const end = Math.min(chunkOffset(until + 1), storedEnd) - 1;
    const chunks = handle.createReadStream({ start: chunkOffset(first), end, highWaterMark: 1024 * 1024 });
    return { header, chunks };
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

  protected async newResealTarget(storageKey: string): Promise<ResealTarget> {
    const tmpPath = path.join(this.tmpDir, `${storageKey}.${crypto.randomBytes(4).toString('hex')}.reseal`);
    const stream = fs.createWriteStream(tmpPath, { mode: 0o600, flush: true });
    return {
      sink: {
        stream,
        commit: async () => {},
        discard: async () => {
          if (!stream.closed) {
            const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
            stream.destroy();
            await closed;
          }
          await fsp.rm(tmpPath, { force: true });
        },
      },
      readBack: () => fs.createReadStream(tmpPath, { highWaterMark: 1024 * 1024 }),
      // A rename: a reader that has the old file open reads it to its end.
      replace: async () => {
        await fsp.rename(tmpPath, this.pathFor(storageKey));
        await fsyncDir(this.dir);
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
    const onPlain = (plain: Buffer) => hash.update(plain);
    try {
      if (meta.format === 'stream1') openWhole(this.keyring, meta.storageKey, bytes, onPlain);
      else openLegacyWhole(this.keyring, meta, bytes, onPlain);
      return { ok: true, sha256: hash.digest('hex') };
    } catch (err) {
      return failureOf(err);
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
