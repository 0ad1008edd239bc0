// Attachments kept in PostgreSQL (`attachment_chunks`), so every app process and machine on one
// database sees them (docs/decisions.md, "Uploads and attachments"). The rows hold exactly the
// bytes a file in DATA_DIR/attachments would: idx -1 the header, idx 0.. the sealed 64 KiB chunks
// of files/chunked.ts. Reading concatenates the rows in order into the same Opener a file goes
// through, so a row changed, cut, dropped or swapped in the database is refused at that chunk just
// as a changed file is.
//
// Writing: each sealed chunk is inserted as soon as the Sealer produces it (never the whole file in
// memory), each insert its own statement, after the upload was reserved in `pending_uploads`. The
// rows are not referenced by any attachment row until the record's transaction commits (which also
// ends the reservation); a failed upload deletes its rows, and the start-up sweep deletes rows that
// neither an attachment nor a live reservation claims. Reading: rows in order, 16 at a time (1 MiB);
// a range reads only the rows of its chunks.
//
// Resealing (migrate-files) writes the new rows under a reserved temporary key beside the old
// ones; one transaction then drops the old rows and gives the new ones the file's storage key, so
// a statement sees the old file or the new one. A reader whose file is resealed between two of its
// statements (a file of more than 15 chunks, or a range) meets the new rows with the old header,
// which fails their check: such a download is cut off and has to be retried.
import crypto from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { attachmentChunks } from '../../db/schema.js';
import { HEADER_SIZE, Opener, SEALED_CHUNK_SIZE, Sealer } from '../formats/chunked.js';
import { sha256Of } from '../hashing.js';
import type { FileKeySettings } from '../keys.js';
import { PENDING_UPLOAD_TTL_MS, pendingUploadsIn, releaseInTransaction } from '../pending.js';
import { SealedStore, type ResealTarget } from '../sealed-store.js';
import type { SealedSink, StoredFileRef } from '../store.js';
import { DirectoryStore } from './directory.js';

/** The header's row index; chunk i is row i. */
export const HEADER_ROW = -1;
/** Rows read per statement (16 sealed chunks: about 1 MiB). */
const READ_BATCH = 16;
const LAST_ROW = 2 ** 31 - 1;

export class DatabaseStore extends SealedStore {
  readonly kind = 'database' as const;

  /** The key is FILE_ENCRYPTION_KEY (or DATA_DIR/secrets/file.key): every process must share it. */
  constructor(
    readonly db: Db,
    dataDir: string,
    keys?: FileKeySettings | string,
  ) {
    super(dataDir, keys, pendingUploadsIn(db));
  }

  /** A probe row is written and deleted. */
  async checkWritable(): Promise<void> {
    const storageKey = `ready-probe-${crypto.randomBytes(8).toString('hex')}`;
    await this.db.insert(attachmentChunks).values({ storageKey, idx: HEADER_ROW, bytes: Buffer.from('ok') });
    await this.db.delete(attachmentChunks).where(eq(attachmentChunks.storageKey, storageKey));
  }

  protected async exists(storageKey: string): Promise<boolean> {
    const rows = await this.db
      .select({ idx: attachmentChunks.idx })
      .from(attachmentChunks)
      .where(eq(attachmentChunks.storageKey, storageKey))
      .limit(1);
    return rows.length > 0;
  }

  protected async readRange(storageKey: string, first: number, until: number) {
    const [row] = await this.db
      .select({ bytes: attachmentChunks.bytes })
      .from(attachmentChunks)
      .where(and(eq(attachmentChunks.storageKey, storageKey), eq(attachmentChunks.idx, HEADER_ROW)));
    // Chunks without their header: a damaged file, refused by the header check.
    const header = row ? row.bytes : (await this.exists(storageKey)) ? Buffer.alloc(0) : null;
    return header && { header, chunks: rowReader(this.db, storageKey, first, until) };
  }

  openStored(storageKey: string): Readable {
    return rowReader(this.db, storageKey, HEADER_ROW, LAST_ROW);
  }

  protected newSink(storageKey: string): SealedSink {
    return {
      // Autocommitted rows: the reservation made before them keeps every sweep away.
      stream: new RowWriter(this.db, storageKey),
      commit: async () => {},
      discard: () => this.remove(storageKey),
    };
  }

  async remove(storageKey: string): Promise<void> {
    await this.db.delete(attachmentChunks).where(eq(attachmentChunks.storageKey, storageKey));
  }

  protected async newResealTarget(storageKey: string): Promise<ResealTarget> {
    // Reserved like an upload, so that no sweep takes the new rows for leftovers.
    const beside = `${storageKey}-reseal`;
    await this.remove(beside);
    await this.pending?.reserve(beside);
    const discard = async () => {
      await this.remove(beside);
      await this.pending?.release(beside);
    };
    return {
      sink: { stream: new RowWriter(this.db, beside), commit: async () => {}, discard },
      readBack: () => rowReader(this.db, beside, HEADER_ROW, LAST_ROW),
      replace: async (tx = this.db) => {
        await tx.delete(attachmentChunks).where(eq(attachmentChunks.storageKey, storageKey));
        await tx.update(attachmentChunks).set({ storageKey }).where(eq(attachmentChunks.storageKey, beside));
        await releaseInTransaction(tx, [beside]);
      },
    };
  }

  /**
   * One statement: rows of storage keys that no attachment and no live reservation claims. A
   * record committing meanwhile swaps its reservation for its attachment row atomically, so the
   * statement's snapshot sees one or the other. Rows carry no time: an upload in flight is always
   * reserved before its first row, so `graceMs` (a guard for files on disk) is not needed here.
   */
  async sweepUnfinished(db: Db, _graceMs: number, now: Date): Promise<number> {
    const liveSince = new Date(now.getTime() - PENDING_UPLOAD_TTL_MS);
    const result = await db.execute<{ files: number }>(sql`
      with gone as (
        delete from attachment_chunks c
        where not exists (select 1 from attachments a where a.storage_key = c.storage_key)
          and not exists (
            select 1 from pending_uploads p
            where p.storage_key = c.storage_key and p.created_at >= ${liveSince.toISOString()}
          )
        returning c.storage_key
      )
      select count(distinct storage_key)::int as files from gone`);
    return (result as { rows: { files: number }[] }).rows[0]?.files ?? 0;
  }

  /**
   * Copies a file of the directory store into the database under the same storage key, in `db`
   * (a transaction, so a copy is whole or absent): a "stream1" file byte for byte, an old "gcm"
   * file decrypted (its tag checked) and sealed anew. The plaintext's SHA-256, for the caller to
   * compare with the row's.
   */
  async copyFrom(source: DirectoryStore, meta: StoredFileRef, db: Db): Promise<{ sha256: string }> {
    await db.delete(attachmentChunks).where(eq(attachmentChunks.storageKey, meta.storageKey));
    const writer = new RowWriter(db, meta.storageKey);
    if (meta.format === 'stream1') await pipeline(source.openStored(meta.storageKey), writer);
    else await pipeline(source.openDecrypted(meta), new Sealer(this.keyring, meta.storageKey), writer);
    // Read back: what the database now holds must open and hash as the row says.
    const stored = rowReader(db, meta.storageKey, HEADER_ROW, LAST_ROW);
    const opener = new Opener(this.keyring, meta.storageKey);
    stored.on('error', (err) => opener.destroy(err));
    return { sha256: await sha256Of(stored.pipe(opener)) };
  }
}

/** Stored bytes in, rows out: the header as row -1, then one row per sealed chunk. */
class RowWriter extends Writable {
  private buf: Buffer = Buffer.alloc(0);
  private idx = HEADER_ROW;

  constructor(
    private readonly db: Db,
    private readonly storageKey: string,
  ) {
    super();
  }

  override _write(data: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    this.flushRows(false).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void) {
    this.flushRows(true).then(() => done(), done);
  }

  private async flushRows(end: boolean) {
    const rows: { storageKey: string; idx: number; bytes: Buffer }[] = [];
    for (;;) {
      const size = this.idx === HEADER_ROW ? HEADER_SIZE : SEALED_CHUNK_SIZE;
      if (this.buf.length < size && !(end && this.buf.length > 0)) break;
      const bytes = Buffer.from(this.buf.subarray(0, size));
      rows.push({ storageKey: this.storageKey, idx: this.idx++, bytes });
      this.buf = this.buf.subarray(bytes.length);
    }
    if (rows.length > 0) await this.db.insert(attachmentChunks).values(rows);
  }
}

/** The bytes of rows `from`..`until` of a file, in order, READ_BATCH rows per statement. */
function rowReader(db: Db, storageKey: string, from: number, until: number): Readable {
  let next = from;
  let fetching = false;
  return new Readable({
    highWaterMark: SEALED_CHUNK_SIZE * 4,
    read() {
      if (fetching) return;
      fetching = true;
      db.select({ idx: attachmentChunks.idx, bytes: attachmentChunks.bytes })
        .from(attachmentChunks)
        .where(
          and(
            eq(attachmentChunks.storageKey, storageKey),
            gte(attachmentChunks.idx, next),
            lte(attachmentChunks.idx, until),
          ),
        )
        .orderBy(asc(attachmentChunks.idx))
        .limit(READ_BATCH)
        .then(
          (rows) => {
            fetching = false;
            if (rows.length > 0) next = rows[rows.length - 1].idx + 1;
            const more = rows.length === READ_BATCH && next <= until;
            for (const row of rows) this.push(row.bytes);
            if (!more) this.push(null);
          },
          (err: Error) => this.destroy(err),
        );
    },
  });
}
