// One pass over the due notification jobs with the app's mailer (tests call it directly), and the
// loop main.ts starts.
import type { AppContext } from '../../context.js';
import { startPeriodic } from '../../periodic.js';
import { runDueJobs } from './jobs.js';
import { createRenderer } from './render.js';

export const WORKER_INTERVAL_MS = 30_000;

export async function runNotificationsOnce(ctx: AppContext) {
  const result = await runDueJobs(ctx.db, ctx.mail, createRenderer(ctx.config.publicUrl), ctx.now());
  ctx.metrics?.countNotificationRun(result);
  return result;
}

export const startNotificationWorker = (ctx: AppContext, onError: (err: unknown) => void) =>
  startPeriodic(() => runNotificationsOnce(ctx), WORKER_INTERVAL_MS, onError);
