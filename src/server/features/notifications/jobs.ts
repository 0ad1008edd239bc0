// The notification job table's queue: enqueue in the caller's transaction, and a worker that
// claims due jobs with FOR UPDATE SKIP LOCKED (several app processes never send one twice), sends
// them and retries failures with exponential back-off. No in-memory timers hold any mail.
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { notificationJobs, notificationPreferences } from '../../db/schema.js';
import type { Mailer, OutgoingMail } from '../../mail/mailer.js';

export const MAX_ATTEMPTS = 6;
/** 1, 2, 4, 8, 16 minutes after each failure. */
export const retryDelayMs = (attempts: number) => 60_000 * 2 ** (attempts - 1);
const BATCH = 20;

/** A job for an account (preferences apply) or for a plain address (someone without one). */
export type JobInput = {
  kind: string;
  payload: Record<string, unknown>;
  dueAt: Date;
} & ({ userId: string } | { recipientEmail: string });

export async function enqueueJob(tx: Db, job: JobInput): Promise<void> {
  await tx.insert(notificationJobs).values(job);
}

type JobRow = typeof notificationJobs.$inferSelect;
/** Renders a job as a mail from the current rows, or null when it no longer applies. */
export type RenderJob = (db: Db, job: JobRow) => Promise<OutgoingMail | null>;

export interface RunResult {
  sent: number;
  skipped: number;
  failed: number;
}

/** The user's switch for this kind: the new sign-in notice has its own, the rest share one. */
async function emailEnabled(db: Db, userId: string | null, kind: string): Promise<boolean> {
  if (!userId) return true; // a plain address (no account, no preferences)
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  if (kind === 'new_sign_in') return row?.newSignInEnabled ?? true;
  return row?.emailEnabled ?? true;
}

/** Claims and sends the jobs due at `now`; tests and the worker loop call it. */
export async function runDueJobs(db: Db, mail: Mailer, render: RenderJob, now: Date): Promise<RunResult> {
  const result: RunResult = { sent: 0, skipped: 0, failed: 0 };
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(notificationJobs)
      .where(
        and(
          isNull(notificationJobs.sentAt),
          isNull(notificationJobs.skippedAt),
          lte(notificationJobs.dueAt, now),
        ),
      )
      .orderBy(asc(notificationJobs.dueAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    for (const job of due) {
      const message = (await emailEnabled(tx, job.userId, job.kind)) ? await render(tx, job) : null;
      if (!message) {
        await tx.update(notificationJobs).set({ skippedAt: now }).where(eq(notificationJobs.id, job.id));
        result.skipped++;
        continue;
      }
      try {
        await mail.send(message);
        await tx
          .update(notificationJobs)
          .set({ sentAt: now, attempts: job.attempts + 1 })
          .where(eq(notificationJobs.id, job.id));
        result.sent++;
      } catch (err) {
        const attempts = job.attempts + 1;
        await tx
          .update(notificationJobs)
          .set({
            attempts,
            lastError: err instanceof Error ? err.message.slice(0, 500) : 'send failed',
            dueAt: new Date(now.getTime() + retryDelayMs(attempts)),
            ...(attempts >= MAX_ATTEMPTS ? { skippedAt: now } : {}),
          })
          .where(eq(notificationJobs.id, job.id));
        result.failed++;
      }
    }
  });
  return result;
}
