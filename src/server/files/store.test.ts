import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../test/helpers.js';
import { DirectoryStore } from './backends/directory.js';
import { isStorageKey } from './store.js';

const tempDir = useTempDirs('medledger-store-');
const makeStore = () => new DirectoryStore(tempDir(), 'ab'.repeat(32));
async function readAll(stream: Readable) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('FileStore', () => {
  it('accepts opaque ids as storage keys and refuses paths', () => {
    expect(isStorageKey('Ab3_-'.repeat(5))).toBe(true);
    for (const bad of ['../../etc/passwd', 'short', 'a/b'.repeat(10), 'x'.repeat(65), '']) {
      expect(isStorageKey(bad)).toBe(false);
    }
  });

  it('opens a committed file decrypted, answers null once it is removed', async () => {
    const store = makeStore();
    const bytes = Buffer.from('%PDF-1.7 a record\n'.repeat(1000));
    const pending = await store.write(Readable.from([bytes]), 1024 * 1024);
    await pending.commit();
    const stream = await store.open(pending);
    expect(stream).not.toBeNull();
    expect((await readAll(stream!)).equals(bytes)).toBe(true);
    await store.remove(pending.storageKey);
    expect(await store.open(pending)).toBeNull();
    await store.remove(pending.storageKey); // already gone: not an error
    await expect(store.remove('../outside-the-store')).rejects.toThrow('invalid storage key');
  });

  it('leaves no temporary file behind a write refused on its first bytes, however early', async () => {
    const dir = tempDir();
    const store = new DirectoryStore(dir, 'ab'.repeat(32));
    const refuse = () => {
      throw new Error('not a PDF');
    };
    // The refusal can come before the write stream has created its file; many at once make that
    // likely. The file must not appear after the write has been refused.
    const writes = Array.from({ length: 40 }, () =>
      store.write(Readable.from([Buffer.from('MZ not a pdf')]), 1024, refuse),
    );
    for (const result of await Promise.allSettled(writes)) expect(result.status).toBe('rejected');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const left = fs.readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.part'));
    expect(left).toEqual([]);
  });

  it("sweeps only leftovers older than the grace period, never another process's upload in flight", async () => {
    const store = makeStore();
    const bytes = Buffer.from('%PDF-1.7 in flight\n'.repeat(100));
    // Another process: one upload still streaming (.part), one renamed into place but not yet
    // committed in the database.
    await store.write(Readable.from([bytes]), 1024 * 1024); // never committed: stays a .part
    const renamed = await store.write(Readable.from([bytes]), 1024 * 1024);
    await renamed.commit();
    const nothingReferenced = async () => new Set<string>();

    expect(await store.sweep(nothingReferenced)).toBe(0);
    expect(fs.readdirSync(store.tmpDir)).toHaveLength(1);
    expect((await readAll((await store.open(renamed))!)).equals(bytes)).toBe(true);

    // An hour later both are leftovers of a process that died: they go, a referenced file stays.
    const kept = await store.write(Readable.from([bytes]), 1024 * 1024);
    await kept.commit();
    const later = Date.now() + 61 * 60_000;
    const onlyKept = async (keys: string[]) => new Set(keys.filter((k) => k === kept.storageKey));
    expect(await store.sweep(onlyKept, undefined, later)).toBe(2);
    expect(fs.readdirSync(store.tmpDir)).toEqual([]);
    expect(await store.open(renamed)).toBeNull();
    expect((await readAll((await store.open(kept))!)).equals(bytes)).toBe(true);
  });
});
