// The chunked attachment format (chunked.ts) through both stores (files on disk, rows in the
// database: the same tests, parametrised): round trips, every kind of damage caught at the chunk
// where it is, ranges that read only their chunks; and the old format (on disk only).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/connect.js';
import { createTestDatabase, useTempDirs } from '../test/helpers.js';
import { KEY_ID_SIZE } from './keys.js';
import { CHUNK_SIZE, FORMAT_VERSION, HEADER_SIZE, MAGIC, sealedSize } from './formats/chunked.js';
import { DatabaseStore } from './backends/database.js';
import { DirectoryStore } from './backends/directory.js';
import { IntegrityError, type FileStore, type PendingFile, type StoredFileRef } from './store.js';
import { readSealed, sealedChunk, STORES, swapChunks, writeLegacyFile, writeSealed } from './testing.js';

const KEY = 'ab'.repeat(32);
const tempDir = useTempDirs('medledger-stream-');
const makeDirectoryStore = () => new DirectoryStore(tempDir(), KEY);
/** Bytes that differ at every position (a chunk moved elsewhere would not decrypt to the same). */
function pattern(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += 32) crypto.createHash('sha256').update(String(i)).digest().copy(out, i);
  return out;
}
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Everything a stream gave before it ended or failed, and how it failed. */
async function drain(stream: Readable): Promise<{ data: Buffer; error: unknown }> {
  const parts: Buffer[] = [];
  try {
    for await (const part of stream) parts.push(part as Buffer);
    return { data: Buffer.concat(parts), error: null };
  } catch (error) {
    return { data: Buffer.concat(parts), error };
  }
}

async function stored(store: FileStore, bytes: Buffer): Promise<PendingFile> {
  const pending = await store.write(Readable.from(bytes.length ? [bytes] : []), 64 * 1024 * 1024);
  await pending.commit();
  return pending;
}

/**
 * hashStored, and on disk also the blocking read of the audit's worker threads
 * (hashStoredBlocking), which must find the same.
 */
async function hashBack(store: FileStore, file: StoredFileRef) {
  const result = await store.hashStored(file);
  if (store instanceof DirectoryStore) expect(await store.hashStoredBlocking(file)).toEqual(result);
  return result;
}

/** Reads the file whole and expects it refused at `chunk`, having passed on only what precedes it. */
async function expectRefusedAt(store: FileStore, file: StoredFileRef, plain: Buffer, chunk: number) {
  const { data, error } = await drain((await store.open(file))!);
  expect(error).toBeInstanceOf(IntegrityError);
  expect((error as IntegrityError).chunk).toBe(chunk);
  expect(data.length).toBeLessThanOrEqual(chunk * CHUNK_SIZE);
  expect(data.equals(plain.subarray(0, data.length))).toBe(true);
  expect(await hashBack(store, file)).toEqual({ ok: false, reason: 'altered' });
}

describe.each(STORES)('the chunked format, attachments in the %s', (kind) => {
  let database: Database | undefined;
  beforeAll(async () => {
    if (kind === 'database') database = await createTestDatabase();
  }, 60_000);
  afterAll(async () => database?.close());
  function makeStore(): FileStore {
    return kind === 'database' ? new DatabaseStore(database!.db, os.tmpdir(), KEY) : makeDirectoryStore();
  }

  it('stores every size as a header and 64 KiB chunks and reads it back', async () => {
    const store = makeStore();
    for (const size of [
      0,
      1,
      CHUNK_SIZE - 1,
      CHUNK_SIZE,
      CHUNK_SIZE + 1,
      3 * CHUNK_SIZE,
      3 * CHUNK_SIZE + 17,
    ]) {
      const plain = pattern(size);
      const file = await stored(store, plain);
      expect(file).toMatchObject({ format: 'stream1', size, sha256: sha(plain), iv: '', authTag: '' });
      const onDisk = await readSealed(store, file.storageKey);
      expect(onDisk.length).toBe(sealedSize(size));
      expect(onDisk.subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);
      expect(onDisk[MAGIC.length]).toBe(FORMAT_VERSION);
      const { data, error } = await drain((await store.open(file))!);
      expect(error).toBeNull();
      expect(data.equals(plain)).toBe(true);
      expect(await hashBack(store, file)).toEqual({ ok: true, sha256: sha(plain) });
    }
  });

  it('hashes files back in any order and at once, each with its own bytes (read buffers are reused)', async () => {
    const store = makeStore();
    const plains = [3 * CHUNK_SIZE + 17, 5, 0, CHUNK_SIZE + 1, 2 * CHUNK_SIZE].map((size, i) =>
      Buffer.from(pattern(size).map((byte) => byte ^ i)),
    );
    const files = await Promise.all(plains.map((plain) => stored(store, plain)));
    const expected = plains.map((plain) => ({ ok: true, sha256: sha(plain) }));
    for (let round = 0; round < 2; round++) {
      expect(await Promise.all(files.map((file) => store.hashStored(file)))).toEqual(expected);
      const oneByOne = [];
      for (const file of files) oneByOne.push(await hashBack(store, file));
      expect(oneByOne).toEqual(expected);
    }
  });

  it('reads many small writes and a file past the whole-read limit through the streams', async () => {
    const store = makeStore();
    const plain = pattern(5 * 1024 * 1024 + 333);
    const pieces = [];
    for (let i = 0; i < plain.length; i += 7777) pieces.push(plain.subarray(i, i + 7777));
    const pending = await store.write(Readable.from(pieces), 64 * 1024 * 1024);
    await pending.commit();
    expect(pending.sha256).toBe(sha(plain));
    expect((await drain((await store.open(pending))!)).data.equals(plain)).toBe(true);
    expect(await hashBack(store, pending)).toEqual({ ok: true, sha256: sha(plain) });
    // Damage in the middle of the large file is caught by the streaming read of hashStored too.
    const bytes = await readSealed(store, pending.storageKey);
    bytes[sealedChunk(40, bytes.length).start + 5] ^= 1;
    await writeSealed(store, pending.storageKey, bytes);
    await expectRefusedAt(store, pending, plain, 40);
  });

  describe('refuses a changed file at the changed chunk', () => {
    const plain = pattern(2 * CHUNK_SIZE + 5000); // three chunks, the last one short
    async function damaged(change: (bytes: Buffer) => Buffer, content = plain) {
      const store = makeStore();
      const file = await stored(store, content);
      await writeSealed(store, file.storageKey, change(await readSealed(store, file.storageKey)));
      return { store, file };
    }

    it('a flipped byte in the second chunk: only the first chunk is passed on', async () => {
      const { store, file } = await damaged((b) => {
        b[sealedChunk(1, b.length).start + 100] ^= 0x20;
        return b;
      });
      await expectRefusedAt(store, file, plain, 1);
    });

    it('a flipped bit in a tag', async () => {
      const { store, file } = await damaged((b) => {
        b[sealedChunk(1, b.length).end - 1] ^= 1;
        return b;
      });
      await expectRefusedAt(store, file, plain, 1);
    });

    it('the last chunk cut short', async () => {
      const { store, file } = await damaged((b) => b.subarray(0, b.length - 10));
      await expectRefusedAt(store, file, plain, 2);
    });

    it('the last chunk dropped: the new last chunk lacks the last-chunk flag', async () => {
      const { store, file } = await damaged((b) => b.subarray(0, sealedChunk(2, b.length).start));
      await expectRefusedAt(store, file, plain, 1);
    });

    it('two chunks swapped', async () => {
      const even = pattern(3 * CHUNK_SIZE); // three full chunks, so the last two can swap places
      const { store, file } = await damaged((b) => swapChunks(b, 1, 2), even);
      await expectRefusedAt(store, file, even, 1);
    });

    it('bytes appended', async () => {
      const { store, file } = await damaged((b) => Buffer.concat([b, Buffer.from('appended')]));
      await expectRefusedAt(store, file, plain, 2);
    });

    it('a whole chunk appended (a copy of the last one)', async () => {
      const { store, file } = await damaged((b) =>
        Buffer.concat([b, b.subarray(sealedChunk(2, b.length).start)]),
      );
      await expectRefusedAt(store, file, plain, 2);
    });

    it('a changed header, and a file cut inside its header', async () => {
      const salt = await damaged((b) => {
        b[MAGIC.length + 1 + KEY_ID_SIZE + 3] ^= 1;
        return b;
      });
      await expectRefusedAt(salt.store, salt.file, plain, 0);
      const version = await damaged((b) => {
        b[MAGIC.length] = 3;
        return b;
      });
      await expectRefusedAt(version.store, version.file, plain, 0);
      const cut = await damaged((b) => b.subarray(0, HEADER_SIZE - 1));
      await expectRefusedAt(cut.store, cut.file, plain, 0);
      const empty = await damaged(() => Buffer.alloc(0));
      await expectRefusedAt(empty.store, empty.file, plain, 0);
    });

    it("another file's bytes under this file's name", async () => {
      const store = makeStore();
      const a = await stored(store, plain);
      const b = await stored(store, plain);
      await writeSealed(store, b.storageKey, await readSealed(store, a.storageKey));
      await expectRefusedAt(store, b, plain, 0);
    });
  });

  describe('ranges', () => {
    const plain = pattern(3 * CHUNK_SIZE + 1234);
    async function range(store: FileStore, file: PendingFile, start: number, end: number) {
      return drain((await store.openRange(file, start, end))!);
    }

    it('answers exactly the bytes asked for, within and across chunks', async () => {
      const store = makeStore();
      const file = await stored(store, plain);
      const size = plain.length;
      for (const [start, end] of [
        [0, 0],
        [0, size - 1],
        [10, 20],
        [CHUNK_SIZE - 3, CHUNK_SIZE + 3],
        [CHUNK_SIZE, 2 * CHUNK_SIZE - 1],
        [CHUNK_SIZE + 1, 3 * CHUNK_SIZE + 10],
        [3 * CHUNK_SIZE, size - 1],
        [size - 1, size - 1],
      ]) {
        const { data, error } = await range(store, file, start, end);
        expect(error).toBeNull();
        expect(data.equals(plain.subarray(start, end + 1))).toBe(true);
      }
    });

    it('decrypts only the chunks the range lies in', async () => {
      const store = makeStore();
      const file = await stored(store, plain);
      const bytes = await readSealed(store, file.storageKey);
      bytes[sealedChunk(2, bytes.length).start + 7] ^= 1;
      await writeSealed(store, file.storageKey, bytes);
      // Chunks 0, 1 and 3 are intact and read alone; chunk 2 is refused without a byte of it.
      expect(
        (await range(store, file, 5, 2 * CHUNK_SIZE - 1)).data.equals(plain.subarray(5, 2 * CHUNK_SIZE)),
      ).toBe(true);
      expect((await range(store, file, 3 * CHUNK_SIZE, plain.length - 1)).error).toBeNull();
      const across = await range(store, file, CHUNK_SIZE + 10, 2 * CHUNK_SIZE + 10);
      expect(across.error).toBeInstanceOf(IntegrityError);
      expect((across.error as IntegrityError).chunk).toBe(2);
      expect(across.data.length).toBeLessThanOrEqual(CHUNK_SIZE - 10);
      expect(across.data.equals(plain.subarray(CHUNK_SIZE + 10, CHUNK_SIZE + 10 + across.data.length))).toBe(
        true,
      );
    });

    it('refuses a range of a file cut short or moved, and a damaged header', async () => {
      const store = makeStore();
      const file = await stored(store, plain);
      const at = file.storageKey;
      const original = await readSealed(store, at);
      await writeSealed(store, at, original.subarray(0, sealedChunk(3, original.length).start));
      // The last chunk is gone: a range in it fails; chunk 2 alone is still authentic.
      expect((await range(store, file, plain.length - 5, plain.length - 1)).error).toBeInstanceOf(
        IntegrityError,
      );
      expect((await range(store, file, 2 * CHUNK_SIZE, 3 * CHUNK_SIZE - 1)).error).toBeNull();
      // Chunk 2 is not the last chunk, so its copy at the end of a file cut there is not accepted as one.
      await writeSealed(store, at, original.subarray(0, sealedChunk(3, original.length).start - 1));
      expect((await range(store, file, 2 * CHUNK_SIZE, 2 * CHUNK_SIZE + 1)).error).toBeInstanceOf(
        IntegrityError,
      );
      const header = Buffer.from(original);
      header[0] ^= 1;
      await writeSealed(store, at, header);
      const bad = await range(store, file, 0, 10);
      expect(bad.error).toBeInstanceOf(IntegrityError);
      expect(bad.data.length).toBe(0);
      await store.remove(at);
      expect(await store.openRange(file, 0, 10)).toBeNull();
      expect(await hashBack(store, file)).toEqual({ ok: false, reason: 'missing' });
    });
  });
});

describe('the old single-GCM format', () => {
  it('still reads, and is rewritten in the chunked format with the same plaintext', async () => {
    const store = makeDirectoryStore();
    const plain = pattern(2 * CHUNK_SIZE + 99);
    const file = await stored(store, plain);
    const legacy = { storageKey: file.storageKey, ...writeLegacyFile(store, KEY, file.storageKey, plain) };
    expect(fs.statSync(store.pathFor(file.storageKey)).size).toBe(plain.length);
    expect((await drain((await store.open(legacy))!)).data.equals(plain)).toBe(true);
    expect(await hashBack(store, legacy)).toEqual({ ok: true, sha256: sha(plain) });
    await expect(store.openRange({ ...legacy, size: plain.length }, 0, 1)).rejects.toThrow();

    const rewrite = await store.reseal(legacy);
    expect(rewrite).toMatchObject({ sha256: sha(plain), size: plain.length });
    // Nothing is replaced before replace().
    expect((await drain((await store.open(legacy))!)).data.equals(plain)).toBe(true);
    await rewrite.replace();
    const now: StoredFileRef = { storageKey: file.storageKey, format: 'stream1', iv: '', authTag: '' };
    expect(fs.statSync(store.pathFor(file.storageKey)).size).toBe(sealedSize(plain.length));
    expect((await drain((await store.open(now))!)).data.equals(plain)).toBe(true);
    expect(fs.readdirSync(store.tmpDir)).toEqual([]);
  });

  it('is not rewritten when its tag fails, and the temporary file is removed', async () => {
    const store = makeDirectoryStore();
    const plain = pattern(CHUNK_SIZE * 2);
    const file = await stored(store, plain);
    const legacy = { storageKey: file.storageKey, ...writeLegacyFile(store, KEY, file.storageKey, plain) };
    const at = store.pathFor(file.storageKey);
    const bytes = fs.readFileSync(at);
    bytes[CHUNK_SIZE + 1] ^= 1;
    fs.writeFileSync(at, bytes);
    await expect(store.reseal(legacy)).rejects.toThrow();
    expect(fs.readFileSync(at).equals(bytes)).toBe(true);
    expect(fs.readdirSync(store.tmpDir)).toEqual([]);
    expect(await hashBack(store, legacy)).toEqual({ ok: false, reason: 'altered' });
  });
});
