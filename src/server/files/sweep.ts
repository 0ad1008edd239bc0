// Leftovers of uploads that never committed: a process that crashed between writing a file and
// committing its record, or an upload given up while the database was away for longer than its
// clean-up kept trying (db/outage.ts, nowOrOnceDatabaseIsBack). Swept at start-up, before the
// server listens (main.ts), and then every UPLOAD_SWEEP_INTERVAL_MS while it runs, so they never
// wait for a restart. Safe with several processes: uploads in flight are reserved in the database,
// and a live reservation or a committed attachment is never swept (files/pending.ts).
import type { Db } from '../db/connect.js';
import { startPeriodic } from '../periodic.js';
import { dropStaleReservations } from './pending.js';
import type { FileStore } from './store.js';

/** One sweep: unclaimed stored files and rows, then reservations past their TTL. Files removed. */
export async function sweepUploadLeftovers(
  db: Db,
  files: FileStore,
  graceMs: number,
  now: Date,
): Promise<number> {
  const swept = await files.sweepUnfinished(db, graceMs, now);
  await dropStaleReservations(db, now);
  return swept;
}

export interface UploadSweeper {
  db: Db;
  files: FileStore;
  graceMs: number;
  intervalMs: number;
  now: () => Date;
  onSwept(files: number): void;
  onError(err: unknown): void;
}

/** Sweeps every `intervalMs` (the first one interval from now); returns stop(). */
export function startUploadSweeps(s: UploadSweeper): () => void {
  return startPeriodic(
    async () => {
      const swept = await sweepUploadLeftovers(s.db, s.files, s.graceMs, s.now());
      if (swept > 0) s.onSwept(swept);
    },
    s.intervalMs,
    s.onError,
    s.intervalMs,
  );
}
