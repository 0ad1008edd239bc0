// What both backends share (backends/directory.ts, backends/database.ts): the keyring, and
// writing, opening, ranges, hashing and resealing over the stored bytes (header, then sealed
// chunks, formats/chunked.ts), which each backend reads and writes its own way. A chunk is
// authenticated the same way wherever it is kept.
import crypto from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from '../errors.js';
import type { Db } from '../db/connect.js';
import { nowOrOnceDatabaseIsBack } from '../db/outage.js';
import { CHUNK_SIZE, chunkCount, IntegrityError, Opener, sealedSize, Sealer } from './formats/chunked.js';
import { openLegacy } from './formats/legacy-gcm.js';
import { FileTooLargeError, Meter, sha256Of } from './hashing.js';
import { FileKeyring, MissingKeyError, type FileKeySettings } from './keys.js';
import type { PendingUploads } from './pending.js';
import type {
  FileStore,
  HashStoredResult,
  PendingFile,
  ResealedFile,
  SealedSink,
  StoredFileRef,
} from './store.js';

/** The reason a read failed, as hashStored reports it. */
export function failureOf(err: unknown): HashStoredResult & { ok: false } {
  return err instanceof MissingKeyError
    ? { ok: false, reason: 'key-missing', keyId: err.keyId }
    : { ok: false, reason: 'altered' };
}

/** The sealed bytes of a file resealed beside the stored one (see `reseal`). */
export interface ResealTarget {
  sink: SealedSink;
  /** The new bytes as stored, header first (to read them back before they replace the old). */
  readBack(): Readable;
  /** Makes them the stored file under the storage key, in `db` where the backend is a database. */
  replace(db?: Db): Promise<void>;
}

export abstract class SealedStore implements FileStore {
  abstract readonly kind: FileStore['kind'];
  readonly keyring: FileKeyring;

  /**
   * `pending` records uploads in flight (files/pending.ts) so that the sweep of another process
   * leaves them alone; the command-line tools, which never upload, go without.
   */
  protected constructor(
    dataDir: string,
    keys: FileKeySettings | string | undefined,
    protected readonly pending?: PendingUploads,
  ) {
    this.keyring = FileKeyring.load(dataDir, keys);
  }

  abstract checkWritable(): Promise<void>;
  abstract remove(storageKey: string): Promise<void>;
  abstract sweepUnfinished(db: Db, graceMs: number, now: Date): Promise<number>;
  /** Whether anything is stored under `storageKey`. */
  protected abstract exists(storageKey: string): Promise<boolean>;
  /**
   * The stored header (possibly damaged) and the stored bytes of chunks `first` to `until`, read
   * from the same version of the file where the backend can; null when nothing is stored.
   * `storedEnd` is where the file's last chunk ends.
   */
  protected abstract readRange(
    storageKey: string,
    first: number,
    until: number,
    storedEnd: number,
  ): Promise<{ header: Buffer; chunks: Readable } | null>;
  /** The whole stored file as kept (sealed), header first; errors (or ends early) when it is gone. */
  abstract openStored(storageKey: string): Readable;
  /** A place for the sealed bytes of a new file under `storageKey`. */
  protected abstract newSink(storageKey: string): SealedSink;
  /** A place beside the stored file for the bytes that are to replace it (`reseal`). */
  protected abstract newResealTarget(storageKey: string): Promise<ResealTarget>;

  get currentKeyId(): string {
    return this.keyring.currentIdHex;
  }

  keyIds(): string[] {
    return this.keyring.ids();
  }

  deriveKey(purpose: string): Buffer {
    return this.keyring.deriveKey(purpose);
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
    const firstChunk = Math.floor(start / CHUNK_SIZE);
    const untilChunk = Math.floor(end / CHUNK_SIZE);
    const lastChunk = chunkCount(meta.size) - 1;
    const stored = await this.readRange(meta.storageKey, firstChunk, untilChunk, sealedSize(meta.size));
    if (!stored) return null;
    const out = new PassThrough();
    let opener: Opener;
    try {
      opener = new Opener(this.keyring, meta.storageKey, {
        header: stored.header,
        firstChunk,
        lastChunk,
        untilChunk,
      });
    } catch (err) {
      // A damaged header or a key not held: the stream fails before its first byte, as a damaged
      // chunk would.
      stored.chunks.destroy();
      process.nextTick(() => out.destroy(err as Error));
      return out;
    }
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
    pipeline(stored.chunks, opener, slice, out).catch(() => {
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
    const meter = new Meter({ maxBytes, inspect });
    const sink = this.newSink(storageKey);
    try {
      await pipeline(source, meter, new Sealer(this.keyring, storageKey), sink.stream);
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
      size: meter.size,
      sha256: meter.sha256,
      format: 'stream1',
      iv: '',
      authTag: '',
      keyId: this.currentKeyId,
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

  openDecrypted(meta: StoredFileRef): Readable {
    if (meta.format !== 'stream1')
      return openLegacy(this.keyring, meta, () => this.openStored(meta.storageKey));
    const decrypt = new Opener(this.keyring, meta.storageKey);
    const stored = this.openStored(meta.storageKey);
    stored.on('error', (err) => decrypt.destroy(err));
    // A reader that stops early (a client gone, a failed chunk) closes the stored stream too.
    decrypt.on('close', () => stored.destroy());
    return stored.pipe(decrypt);
  }

  async hashStored(meta: StoredFileRef): Promise<HashStoredResult> {
    if (!(await this.exists(meta.storageKey))) return { ok: false, reason: 'missing' };
    try {
      return { ok: true, sha256: await sha256Of(this.openDecrypted(meta)) };
    } catch (err) {
      return failureOf(err);
    }
  }

  /**
   * The old file is decrypted in full (every chunk, or a "gcm" file's tag, checked) while it is
   * sealed under the current key beside it; the new bytes are then read back and must open to
   * the same plaintext. Nothing replaces the old file until `replace()`.
   */
  async reseal(meta: StoredFileRef): Promise<ResealedFile> {
    const target = await this.newResealTarget(meta.storageKey);
    const meter = new Meter();
    try {
      await pipeline(
        this.openDecrypted(meta),
        meter,
        new Sealer(this.keyring, meta.storageKey),
        target.sink.stream,
      );
      await target.sink.commit();
      const readBack = new Opener(this.keyring, meta.storageKey);
      const back = target.readBack();
      back.on('error', (err) => readBack.destroy(err));
      if ((await sha256Of(back.pipe(readBack))) !== meter.sha256)
        throw new IntegrityError('The resealed file does not read back as written.', 0);
    } catch (err) {
      await target.sink.discard();
      throw err;
    }
    return {
      sha256: meter.sha256,
      size: meter.size,
      keyId: this.currentKeyId,
      replace: (db) => target.replace(db),
      discard: () => target.sink.discard(),
    };
  }
}
