// The audit's hashing pool (hash-pool.ts): every job posted goes to every worker and is done by the
// one that claims it first, so each must be answered, with its own file's result,
// however the workers race for them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/helpers.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import { type HashStoredResult } from '../../files/store.js';
import { HashPool } from './hash-pool.js';

const KEY = 'cd'.repeat(32);
const tempDir = useTempDirs('medledger-hash-pool-');
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('HashPool', () => {
  it('answers every job with its own file, also when some are missing or altered', async () => {
    const dataDir = tempDir();
    const store = new DirectoryStore(dataDir, KEY);
    // Sizes from empty to several chunks, in no order, so the workers finish jobs out of turn.
    const contents = Array.from({ length: 60 }, (_, i) => crypto.randomBytes((i * 7919) % 200_000));
    const refs = [];
    for (const bytes of contents) {
      const file = await store.write(Readable.from(bytes.length ? [bytes] : []), 1024 * 1024);
      await file.commit();
      refs.push(file);
    }
    fs.rmSync(store.pathFor(refs[7].storageKey));
    fs.writeFileSync(store.pathFor(refs[31].storageKey), Buffer.from('changed on disk'));
    const expected: HashStoredResult[] = contents.map((bytes) => ({ ok: true, sha256: sha(bytes) }));
    expected[7] = { ok: false, reason: 'missing' };
    expected[31] = { ok: false, reason: 'altered' };

    const pool = new HashPool({ dataDir, keys: KEY }, 3);
    try {
      // Twice over: the jobs asked for in one go reach the workers as one message, and the second
      // burst is posted while the first is still in flight, so the ids keep counting across them.
      const firstBurst = Promise.all(refs.map((ref) => pool.hashStored(ref)));
      await new Promise((resolve) => setImmediate(resolve));
      const secondBurst = Promise.all(refs.map((ref) => pool.hashStored(ref)));
      const [first, second] = await Promise.all([firstBurst, secondBurst]);
      expect(first).toEqual(expected);
      expect(second).toEqual(expected);
      // And one job alone, after the burst (every worker idle, the counter caught up).
      expect(await pool.hashStored(refs[59])).toEqual(expected[59]);
    } finally {
      await pool.close();
    }
  });

  it('fails every job, then and later, once a worker has failed, instead of leaving one unanswered', async () => {
    const dataDir = tempDir();
    const store = new DirectoryStore(dataDir, KEY);
    const file = await store.write(Readable.from([Buffer.from('a scan')]), 1024);
    await file.commit();
    // The worker refuses this key as it starts, so the job waiting for it cannot be answered; the
    // next job, posted after the failure, has no worker left at all.
    const pool = new HashPool({ dataDir, keys: 'not-a-key' }, 1);
    try {
      await expect(pool.hashStored(file)).rejects.toThrow('FILE_ENCRYPTION_KEY must be 64 hex characters');
      await expect(pool.hashStored(file)).rejects.toThrow('FILE_ENCRYPTION_KEY must be 64 hex characters');
    } finally {
      await pool.close();
    }
  });
});
