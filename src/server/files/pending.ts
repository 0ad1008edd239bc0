// Uploads in flight, tracked in the database so that several processes can share one storage
// folder: a row is written before the file (reserve), and deleted either in the transaction that
// commits the file's attachment row (releaseInTransaction) or when the upload is given up
// (release). The start-up sweep keeps every file that is committed or still reserved.
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import { attachments, pendingUploads } from '../db/schema.js';

/** A reservation older than this belongs to a process that died mid-upload. */
export const PENDING_UPLOAD_TTL_MS = 6 * 60 * 60_000;

export interface PendingUploads {
  reserve(storageKey: string): Promise<void>;
  release(storageKey: string): Promise<void>;
  /**
   * Whether an attachment row holds the file: its record committed although the app never heard
   * (the connection was lost with the COMMIT's answer). Such a file is never given up.
   */
  committed(storageKey: string): Promise<boolean>;
}

export function pendingUploadsIn(db: Db): PendingUploads {
  return {
    reserve: async (storageKey) => {
      await db.insert(pendingUploads).values({ storageKey });
    },
    release: async (storageKey) => {
      await db.delete(pendingUploads).where(inArray(pendingUploads.storageKey, [storageKey]));
    },
    committed: async (storageKey) => {
      const rows = await db
        .select({ id: attachments.id })
        .from(attachments)
        .where(eq(attachments.storageKey, storageKey))
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** Ends the reservations of files whose attachment rows `tx` is committing. */
export async function releaseInTransaction(tx: Db, storageKeys: string[]): Promise<void> {
  if (storageKeys.length > 0)
    await tx.delete(pendingUploads).where(inArray(pendingUploads.storageKey, storageKeys));
}

/**
 * Of `keys`, those the sweep must keep: committed attachments and live reservations. One
 * statement, so a commit between two reads cannot make a file look unowned.
 */
export function protectedKeys(db: Db, now: Date) {
  const liveSince = new Date(now.getTime() - PENDING_UPLOAD_TTL_MS);
  return async (keys: string[]): Promise<Set<string>> => {
    const rows = await db
      .select({ key: attachments.storageKey })
      .from(attachments)
      .where(inArray(attachments.storageKey, keys))
      .union(
        db
          .select({ key: pendingUploads.storageKey })
          .from(pendingUploads)
          .where(and(inArray(pendingUploads.storageKey, keys), gte(pendingUploads.createdAt, liveSince))),
      );
    return new Set(rows.map((r) => r.key));
  };
}

/** Reservations of processes that died long ago: their files are gone or swept as leftovers. */
export async function dropStaleReservations(db: Db, now: Date): Promise<void> {
  await db
    .delete(pendingUploads)
    .where(lt(pendingUploads.createdAt, new Date(now.getTime() - PENDING_UPLOAD_TTL_MS)));
}
