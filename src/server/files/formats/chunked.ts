// The chunked attachment format ("stream1"), the STREAM construction of age and Tink's streaming
// AEAD: a header, then the plaintext in 64 KiB chunks, each sealed on its own with AES-256-GCM,
// so a reader can refuse a changed file at the chunk where it was changed instead of at its end.
//
//   header   "MLSA" | version 0x02 | key id (8) | salt (9 random bytes) | nonce prefix (7 random)
//            (version 0x01, written before key rotation: "MLSA" | 0x01 | salt (16) | prefix (7))
//   chunk i  AES-256-GCM(plaintext[i*64 KiB ..], 16-byte tag appended)
//            key    HKDF-SHA256(file key, salt, "medledger attachment stream1" 0x00 storage key)
//            nonce  prefix (7) | i as uint32 big-endian (4) | 0x01 on the last chunk, else 0x00 (1)
//            AAD    header | storage key
//
// Every chunk but the last holds exactly 64 KiB of plaintext; the last holds 0 to 64 KiB (0 only
// for an empty file). The index in the nonce catches reordered or swapped chunks, the last-chunk
// flag catches a file cut at a chunk boundary or with chunks appended, the AAD a header or a whole
// file moved from another storage key. The per-file key (random salt) keeps the 7-byte prefixes
// from ever having to be unique across files.
//
// The key id (files/keys.ts) names the file key, so a reader takes that key of its keyring or says
// which id it lacks; it is in the AAD like the rest of the header. Both versions' headers are 29
// bytes (the storage key in the HKDF info already makes every file's key its own; the salt only
// tells apart versions of one storage key, resealed or rewritten, for which 72 bits are plenty),
// so offsets do not depend on the version. A version 1 file names no key: it is opened with each
// key of the keyring in turn until its first chunk authenticates.
import crypto from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { KEY_ID_SIZE, type FileKeyring } from '../keys.js';

export const MAGIC = Buffer.from('MLSA', 'latin1');
/** The version written now; version 1 (no key id) is still read. */
export const FORMAT_VERSION = 2;
export const CHUNK_SIZE = 64 * 1024;
export const TAG_SIZE = 16;
export const SEALED_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE;
const V1_SALT_SIZE = 16;
const SALT_SIZE = 9;
const PREFIX_SIZE = 7;
export const HEADER_SIZE = MAGIC.length + 1 + KEY_ID_SIZE + SALT_SIZE + PREFIX_SIZE;
const INFO = 'medledger attachment stream1';

/** A stored file failed its integrity check; `chunk` is the index of the chunk that failed. */
export class IntegrityError extends Error {
  constructor(
    message: string,
    readonly chunk: number,
  ) {
    super(message);
    this.name = 'IntegrityError';
  }
}

export interface ChunkKeys {
  key: Buffer;
  prefix: Buffer;
  aad: Buffer;
}

/** A fresh header naming the keyring's current key (random salt and nonce prefix). */
export function newHeader(keyring: FileKeyring): Buffer {
  return Buffer.concat([
    MAGIC,
    Buffer.from([FORMAT_VERSION]),
    keyring.currentId,
    crypto.randomBytes(SALT_SIZE + PREFIX_SIZE),
  ]);
}

function checkHeader(header: Buffer): 1 | 2 {
  const version = header[MAGIC.length];
  if (
    header.length !== HEADER_SIZE ||
    !header.subarray(0, MAGIC.length).equals(MAGIC) ||
    (version !== 1 && version !== 2)
  ) {
    throw new IntegrityError('The file does not start with a valid header.', 0);
  }
  return version;
}

/** The id of the key a header names (hex), or null for a version 1 header (no key id). */
export function headerKeyId(header: Buffer): string | null {
  if (checkHeader(header) === 1) return null;
  return header.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_SIZE).toString('hex');
}

function chunkKeys(fileKey: Buffer, storageKey: string, header: Buffer, salt: Buffer): ChunkKeys {
  const prefix = Buffer.from(header.subarray(HEADER_SIZE - PREFIX_SIZE));
  const info = Buffer.concat([Buffer.from(INFO), Buffer.from([0]), Buffer.from(storageKey)]);
  const key = Buffer.from(crypto.hkdfSync('sha256', fileKey, salt, info, 32));
  return { key, prefix, aad: Buffer.concat([header, Buffer.from(storageKey)]) };
}

/**
 * The keys a file's chunks may be sealed with, from its header: those of the key it names (a
 * MissingKeyError when the keyring lacks it), or for a version 1 header those of every key held,
 * to be tried in turn (`openFirstChunk`). An IntegrityError when the header is not one of ours.
 */
export function keysFor(keyring: FileKeyring, storageKey: string, header: Buffer): ChunkKeys[] {
  if (checkHeader(header) === 1) {
    const salt = header.subarray(MAGIC.length + 1, MAGIC.length + 1 + V1_SALT_SIZE);
    return keyring.all.map((key) => chunkKeys(key, storageKey, header, salt));
  }
  const at = MAGIC.length + 1;
  const fileKey = keyring.keyFor(header.subarray(at, at + KEY_ID_SIZE));
  const salt = header.subarray(at + KEY_ID_SIZE, at + KEY_ID_SIZE + SALT_SIZE);
  return [chunkKeys(fileKey, storageKey, header, salt)];
}

/**
 * The first chunk read with the candidates of `keysFor`: its plaintext and the keys that opened it
 * (the only candidate for a version 2 file); an IntegrityError when none does.
 */
function openFirstChunk(
  candidates: ChunkKeys[],
  index: number,
  last: boolean,
  sealed: Buffer,
): { keys: ChunkKeys; plain: Buffer } {
  let failure: unknown;
  for (const keys of candidates) {
    try {
      return { keys, plain: openChunk(keys, index, last, sealed) };
    } catch (err) {
      failure = err;
    }
  }
  if (candidates.length > 1) {
    throw new IntegrityError(
      `Chunk ${index} failed its authentication check with every key held (the file names no key id: it was sealed before key ids).`,
      index,
    );
  }
  throw failure;
}

function nonceOf(keys: ChunkKeys, index: number, last: boolean): Buffer {
  if (!Number.isSafeInteger(index) || index < 0 || index > 0xffffffff)
    throw new Error('chunk index out of range');
  const nonce = Buffer.alloc(12);
  keys.prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, PREFIX_SIZE);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

export function sealChunk(keys: ChunkKeys, index: number, last: boolean, plaintext: Buffer): Buffer {
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.key, nonceOf(keys, index, last));
  cipher.setAAD(keys.aad);
  const body = cipher.update(plaintext);
  const end = cipher.final();
  return Buffer.concat([body, end, cipher.getAuthTag()]);
}

/** The plaintext of one sealed chunk, or an IntegrityError naming it. */
export function openChunk(keys: ChunkKeys, index: number, last: boolean, sealed: Buffer): Buffer {
  if (sealed.length < TAG_SIZE || sealed.length > SEALED_CHUNK_SIZE)
    throw new IntegrityError(`Chunk ${index} is cut short.`, index);
  const decipher = crypto.createDecipheriv('aes-256-gcm', keys.key, nonceOf(keys, index, last));
  decipher.setAAD(keys.aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_SIZE));
  try {
    const body = decipher.update(sealed.subarray(0, sealed.length - TAG_SIZE));
    // GCM's final() checks the tag and adds no bytes: the body is returned as it is, not copied.
    const end = decipher.final();
    return end.length === 0 ? body : Buffer.concat([body, end]);
  } catch {
    throw new IntegrityError(`Chunk ${index} failed its authentication check.`, index);
  }
}

/** How many chunks a file of `plainSize` bytes has (an empty file has one, empty, last chunk). */
export function chunkCount(plainSize: number): number {
  return Math.max(1, Math.ceil(plainSize / CHUNK_SIZE));
}

/** Where chunk `index` starts in the stored file. */
export function chunkOffset(index: number): number {
  return HEADER_SIZE + index * SEALED_CHUNK_SIZE;
}

/** The stored size of a file of `plainSize` bytes. */
export function sealedSize(plainSize: number): number {
  return HEADER_SIZE + plainSize + chunkCount(plainSize) * TAG_SIZE;
}

/** Plaintext in, the stored format out: the header, then each chunk once the next byte is seen. */
export class Sealer extends Transform {
  private readonly header: Buffer;
  private readonly keys: ChunkKeys;
  private readonly buf = Buffer.allocUnsafe(CHUNK_SIZE);
  private filled = 0;
  private index = 0;
  private started = false;

  /** Seals under the keyring's current key, named in the header. */
  constructor(keyring: FileKeyring, storageKey: string) {
    super();
    this.header = newHeader(keyring);
    [this.keys] = keysFor(keyring, storageKey, this.header);
  }

  override _transform(data: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    try {
      if (!this.started) {
        this.started = true;
        this.push(this.header);
      }
      let at = 0;
      while (at < data.length) {
        // A full chunk is sealed only once more data follows: the last one carries the flag.
        if (this.filled === CHUNK_SIZE) {
          this.push(sealChunk(this.keys, this.index++, false, this.buf));
          this.filled = 0;
        }
        const n = Math.min(CHUNK_SIZE - this.filled, data.length - at);
        data.copy(this.buf, this.filled, at, at + n);
        this.filled += n;
        at += n;
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback) {
    try {
      if (!this.started) this.push(this.header);
      this.push(sealChunk(this.keys, this.index, true, this.buf.subarray(0, this.filled)));
      done();
    } catch (err) {
      done(err as Error);
    }
  }
}

export interface OpenerOptions {
  /**
   * The header, when the input starts at a chunk rather than at the start of the file (ranges).
   * Without it the input is the whole file, header first.
   */
  header?: Buffer;
  /** The index of the input's first chunk (with `header`). */
  firstChunk?: number;
  /** With `header`: the index of the file's last chunk (it carries the last-chunk flag). */
  lastChunk?: number;
  /** With `header`: the index of the last chunk the input must hold (the end of the range). */
  untilChunk?: number;
}

/**
 * The stored format in, plaintext out. Each chunk is authenticated before any of its bytes is
 * passed on; the first bad chunk ends the stream with an IntegrityError.
 */
export class Opener extends Transform {
  /** The candidates of keysFor until the first chunk has told which one it is. */
  private candidates: ChunkKeys[] | null = null;
  private keys: ChunkKeys | null = null;
  private pending: Buffer = Buffer.alloc(0);
  private index: number;
  private readonly lastChunk: number | undefined;
  private readonly untilChunk: number | undefined;

  constructor(
    private readonly keyring: FileKeyring,
    private readonly storageKey: string,
    options: OpenerOptions = {},
  ) {
    super();
    this.index = options.firstChunk ?? 0;
    this.lastChunk = options.lastChunk;
    this.untilChunk = options.untilChunk;
    if (options.header) this.candidates = keysFor(keyring, storageKey, options.header);
  }

  private open(last: boolean, sealed: Buffer): Buffer {
    if (this.keys) return openChunk(this.keys, this.index, last, sealed);
    const first = openFirstChunk(this.candidates!, this.index, last, sealed);
    this.keys = first.keys;
    return first.plain;
  }

  override _transform(data: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    try {
      let buf = this.pending.length ? Buffer.concat([this.pending, data]) : data;
      if (!this.candidates) {
        if (buf.length < HEADER_SIZE) {
          this.pending = Buffer.from(buf);
          return done();
        }
        this.candidates = keysFor(this.keyring, this.storageKey, buf.subarray(0, HEADER_SIZE));
        buf = buf.subarray(HEADER_SIZE);
      }
      // Without a known last chunk, a full chunk is opened as "not last" once a byte follows it.
      while (
        this.lastChunk === undefined
          ? buf.length > SEALED_CHUNK_SIZE
          : this.index < this.lastChunk && buf.length >= SEALED_CHUNK_SIZE
      ) {
        this.push(this.open(false, buf.subarray(0, SEALED_CHUNK_SIZE)));
        this.index++;
        buf = buf.subarray(SEALED_CHUNK_SIZE);
      }
      if (this.lastChunk !== undefined && this.index === this.lastChunk && buf.length > SEALED_CHUNK_SIZE)
        throw new IntegrityError(`Chunk ${this.index} is longer than a chunk.`, this.index);
      this.pending = buf.length ? Buffer.from(buf) : Buffer.alloc(0);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback) {
    try {
      if (!this.candidates) throw new IntegrityError('The file is shorter than its header.', 0);
      if (this.lastChunk === undefined) {
        // The whole file: what is left is its last chunk (never empty of its tag).
        this.push(this.open(true, this.pending));
      } else {
        const until = this.untilChunk ?? this.lastChunk;
        if (this.index === this.lastChunk && this.index <= until) {
          this.push(this.open(true, this.pending));
          this.index++;
        }
        if (this.index <= until) {
          throw new IntegrityError(
            this.pending.length > 0
              ? `Chunk ${this.index} is cut short.`
              : `The file ends before chunk ${this.index}.`,
            this.index,
          );
        }
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  }
}

/** Opens a whole stored file held in memory (small files); an IntegrityError when it is changed. */
export function openWhole(
  keyring: FileKeyring,
  storageKey: string,
  sealed: Buffer,
  onChunk: (b: Buffer) => void,
) {
  if (sealed.length < HEADER_SIZE) throw new IntegrityError('The file is shorter than its header.', 0);
  const candidates = keysFor(keyring, storageKey, sealed.subarray(0, HEADER_SIZE));
  const firstEnd = Math.min(sealed.length, HEADER_SIZE + SEALED_CHUNK_SIZE);
  const first = openFirstChunk(
    candidates,
    0,
    firstEnd === sealed.length,
    sealed.subarray(HEADER_SIZE, firstEnd),
  );
  onChunk(first.plain);
  let at = firstEnd;
  let index = 1;
  while (at < sealed.length) {
    const end = Math.min(sealed.length, at + SEALED_CHUNK_SIZE);
    onChunk(openChunk(first.keys, index++, end === sealed.length, sealed.subarray(at, end)));
    at = end;
  }
}
