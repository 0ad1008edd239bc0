// The running server sweeps upload leftovers periodically, not only at its next start (issue 56:
// leftovers of a crash waited for a restart): an upload that died mid-way (its reservation expired)
// goes within an interval, an upload in flight stays, and nothing is swept once stopped. In both
// stores; on PGlite here, on PostgreSQL with test:pg.
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attachmentChunks, pendingUploads } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { PENDING_UPLOAD_TTL_MS } from './pending.js';
import { startUploadSweeps } from './sweep.js';
import { DirectoryStore } from './backends/directory.js';
import { type PendingFile } from './store.js';
import { STORES } from './testing.js';

const pdf = () => Readable.from([Buffer.from('%PDF-1.7 left over\n'.repeat(5_000))]);

describe.each(STORES)('the periodic upload sweep (%s store)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ attachmentStore: store });
  });
  afterAll(async () => t?.close());

  /** Whether anything of an uncommitted upload is still stored: its temporary file, or its rows. */
  const stored = async (file: PendingFile) => {
    const files = t.ctx.files;
    if (files instanceof DirectoryStore)
      return (await fsp.readdir(files.tmpDir)).includes(`${file.storageKey}.part`);
    const rows = await t.ctx.db
      .select({ idx: attachmentChunks.idx })
      .from(attachmentChunks)
      .where(eq(attachmentChunks.storageKey, file.storageKey));
    return rows.length > 0;
  };
  const reserved = async (file: PendingFile) =>
    (await t.ctx.db.select().from(pendingUploads).where(eq(pendingUploads.storageKey, file.storageKey)))
      .length > 0;
  /** An upload of a process that died: written, never committed, its reservation past the TTL. */
  const deadUpload = async () => {
    const file = await t.ctx.files.write(pdf(), 10 * 1024 * 1024);
    const expired = new Date(Date.now() - PENDING_UPLOAD_TTL_MS - 60_000);
    await t.ctx.db
      .update(pendingUploads)
      .set({ createdAt: expired })
      .where(eq(pendingUploads.storageKey, file.storageKey));
    return file;
  };

  it('removes a dead upload and its expired reservation while running, keeps one in flight, stops', async () => {
    const dead = await deadUpload();
    const inFlight = await t.ctx.files.write(pdf(), 10 * 1024 * 1024);
    expect(await stored(dead)).toBe(true);
    const swept: number[] = [];
    const errors: unknown[] = [];
    const stop = startUploadSweeps({
      db: t.ctx.db,
      files: t.ctx.files,
      graceMs: 0,
      intervalMs: 50,
      now: () => new Date(),
      onSwept: (n) => swept.push(n),
      onError: (err) => errors.push(err),
    });
    try {
      await vi.waitFor(
        async () => {
          expect(await stored(dead)).toBe(false);
          expect(await reserved(dead)).toBe(false);
          // Reported once the round has returned, which is after its deletions are seen.
          expect(swept.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      // Several more rounds: the upload in flight (reserved, not committed) is never taken.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stored(inFlight)).toBe(true);
      expect(await reserved(inFlight)).toBe(true);
    } finally {
      stop();
    }
    expect(errors).toEqual([]);

    // Stopped: a new leftover stays.
    const later = await deadUpload();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stored(later)).toBe(true);
    await later.discard();
    await inFlight.discard();
    expect(await t.ctx.db.select().from(pendingUploads)).toEqual([]);
  });
});
