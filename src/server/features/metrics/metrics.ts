// The metrics GET /metrics serves (docs/decisions.md#metrics), made by buildApp only when
// METRICS_TOKEN is set. Label values are only route patterns, methods, status codes and fixed
// words of our own: never a name, an e-mail, an MRN, an id or an address someone typed.
import { and, desc, gt, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { Database, Db } from '../../db/connect.js';
import { isDatabaseOutage } from '../../db/outage.js';
import { ledgerCheckpoints, notificationJobs } from '../../db/schema.js';
import { HttpError } from '../../errors.js';
import type { FileStore } from '../../files/store.js';
import { isIntegrityFailure } from '../../files/store.js';
import { ledgerSize } from '../ledger/tree.js';
import type { RunResult } from '../notifications/jobs.js';

/** The route label of a request no route matched (a 404): never its address. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The database figures are read at most this often, however many scrapes (and workers) ask. */
const SNAPSHOT_MS = 1_000;

/** What the database says at one moment (one set of queries per scrape). */
interface Snapshot {
  ledgerEntries: number;
  checkpoint: { treeSize: number; createdAt: Date } | null;
  jobsDue: number;
  jobsRetrying: number;
  oldestDueAt: Date | null;
}

/** How the cluster's primary combines a metric over the workers (docs/decisions.md#metrics). */
type Aggregator = 'sum' | 'max';

export interface AppMetrics {
  registry: client.Registry;
  /** After each answer: its duration by route pattern, method and status. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  /** An error thrown while answering: counted by kind when it is our fault or the database's. */
  countError(err: unknown): void;
  /** One pass of the notification worker. */
  countNotificationRun(result: RunResult): void;
  /** The store, its written attachment bytes counted. */
  countingStore(store: FileStore): FileStore;
}

/** Why a request failed on our side, a fixed word; null for a refusal of the caller's request. */
function errorKind(err: unknown): string | null {
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status < 500) return null; // HttpError 4xx, Fastify's own, validation
  if (isDatabaseOutage(err)) return 'database_unavailable';
  if (isIntegrityFailure(err)) return 'file_integrity';
  if (err instanceof HttpError) return 'unavailable'; // a 5xx we answer on purpose (payments not set up)
  return 'internal';
}

async function readSnapshot(db: Db, now: Date): Promise<Snapshot> {
  const [checkpoint] = await db
    .select({ treeSize: ledgerCheckpoints.treeSize, createdAt: ledgerCheckpoints.createdAt })
    .from(ledgerCheckpoints)
    .orderBy(desc(ledgerCheckpoints.treeSize))
    .limit(1);
  // Only unsent, unskipped jobs: the rows notification_jobs_due_idx covers.
  const [jobs] = await db
    .select({
      due: sql<number>`(count(*) filter (where ${lte(notificationJobs.dueAt, now)}))::int`,
      retrying: sql<number>`(count(*) filter (where ${gt(notificationJobs.attempts, 0)}))::int`,
      oldestDueAt: sql<
        string | null
      >`min(${notificationJobs.dueAt}) filter (where ${lte(notificationJobs.dueAt, now)})`,
    })
    .from(notificationJobs)
    .where(and(isNull(notificationJobs.sentAt), isNull(notificationJobs.skippedAt)));
  return {
    ledgerEntries: await ledgerSize(db),
    checkpoint: checkpoint
      ? { treeSize: Number(checkpoint.treeSize), createdAt: checkpoint.createdAt }
      : null,
    jobsDue: Number(jobs?.due ?? 0),
    jobsRetrying: Number(jobs?.retrying ?? 0),
    oldestDueAt: jobs?.oldestDueAt ? new Date(jobs.oldestDueAt) : null,
  };
}

/** Every answer's duration, and the errors behind the failed ones. */
export function registerMetricHooks(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/patients/:id), never the address asked for.
    metrics.observeRequest(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.addHook('onError', async (_request, _reply, error) => {
    metrics.countError(error);
  });
}

export function createMetrics(database: Database, now: () => Date): AppMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // One read of the database serves every gauge below in a scrape.
  let snapshot: { at: number; value: Promise<Snapshot | null> } | undefined;
  const current = (): Promise<Snapshot | null> => {
    const at = Date.now();
    if (!snapshot || at - snapshot.at >= SNAPSHOT_MS) {
      snapshot = { at, value: readSnapshot(database.db, now()).catch(() => null) };
    }
    return snapshot.value;
  };
  /**
   * A gauge read from the database at each scrape: NaN ("unknown", which no alert's comparison
   * matches) while the database cannot be read or before there is anything to measure.
   */
  const databaseGauge = (name: string, help: string, value: (s: Snapshot) => number | null) =>
    new client.Gauge({
      name,
      help,
      registers,
      aggregator: 'max' satisfies Aggregator,
      async collect() {
        const s = await current();
        this.set((s && value(s)) ?? NaN);
      },
    });
  const secondsAgo = (at: Date) => Math.max(0, (now().getTime() - at.getTime()) / 1000);

  new client.Gauge({
    name: 'medledger_database_up',
    help: 'Whether the last scrape could read the database (1) or not (0).',
    registers,
    aggregator: 'max' satisfies Aggregator,
    async collect() {
      this.set((await current()) ? 1 : 0);
    },
  });
  databaseGauge('medledger_ledger_entries', 'Entries in the ledger.', (s) => s.ledgerEntries);
  databaseGauge(
    'medledger_ledger_checkpoint_age_seconds',
    'Seconds since the latest signed checkpoint was made (NaN before the first).',
    (s) => (s.checkpoint ? secondsAgo(s.checkpoint.createdAt) : null),
  );
  databaseGauge(
    'medledger_ledger_entries_unsigned',
    'Ledger entries no signed checkpoint covers yet.',
    (s) => s.ledgerEntries - (s.checkpoint?.treeSize ?? 0),
  );
  databaseGauge(
    'medledger_notification_jobs_waiting',
    'Notification mails due and not yet sent.',
    (s) => s.jobsDue,
  );
  databaseGauge(
    'medledger_notification_jobs_retrying',
    'Notification mails whose sending failed at least once and that will be tried again.',
    (s) => s.jobsRetrying,
  );
  databaseGauge(
    'medledger_notification_oldest_waiting_seconds',
    'How long the oldest due notification mail has waited (0 when none waits).',
    (s) => (s.oldestDueAt ? secondsAgo(s.oldestDueAt) : 0),
  );

  new client.Gauge({
    name: 'medledger_db_pool_connections',
    help: 'Database connections of this process by state (PGlite: one in-process connection).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = database.poolStats();
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new client.Gauge({
    name: 'medledger_db_pool_max_connections',
    help: 'The most connections the pool opens.',
    registers,
    collect() {
      this.set(database.poolStats().max);
    },
  });
  new client.Gauge({
    name: 'medledger_db_pool_waiting_requests',
    help: 'Queries waiting for a free database connection.',
    registers,
    collect() {
      this.set(database.poolStats().waiting);
    },
  });

  const queryDuration = new client.Histogram({
    name: 'medledger_db_query_duration_seconds',
    help: 'Time each database statement took.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  database.observeQueries((seconds) => queryDuration.observe(seconds));

  const requestDuration = new client.Histogram({
    name: 'medledger_http_request_duration_seconds',
    help: 'Time from request to answer, by route pattern, method and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const errors = new client.Counter({
    name: 'medledger_http_errors_total',
    help: 'Errors that ended a request on our side, by kind (database_unavailable, file_integrity, unavailable, internal).',
    labelNames: ['kind'] as const,
    registers,
  });
  const notifications = new client.Counter({
    name: 'medledger_notification_sends_total',
    help: 'Notification jobs the worker handled, by outcome (sent, skipped, failed).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const storedBytes = new client.Counter({
    name: 'medledger_attachment_bytes_written_total',
    help: 'Plaintext bytes of attachments written to storage (uploads, and files an amendment carries over).',
    registers,
  });
  const storedFiles = new client.Counter({
    name: 'medledger_attachments_written_total',
    help: 'Attachment files written to storage.',
    registers,
  });
  for (const outcome of ['sent', 'skipped', 'failed']) notifications.inc({ outcome }, 0);

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requestDuration.observe(
        { method, route: route ?? UNMATCHED_ROUTE, status_code: String(status) },
        seconds,
      );
    },
    countError(err) {
      const kind = errorKind(err);
      if (kind) errors.inc({ kind });
    },
    countNotificationRun(result) {
      notifications.inc({ outcome: 'sent' }, result.sent);
      notifications.inc({ outcome: 'skipped' }, result.skipped);
      notifications.inc({ outcome: 'failed' }, result.failed);
    },
    countingStore(store) {
      const write: FileStore['write'] = async (...args) => {
        const pending = await store.write(...args);
        storedBytes.inc(pending.size);
        storedFiles.inc();
        return pending;
      };
      // Every other member is the store's own, called on the store itself.
      return new Proxy(store, {
        get(target, property) {
          if (property === 'write') return write;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    },
  };
}
