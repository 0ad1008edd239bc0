// config -> database -> buildApp -> listen. `npm start` runs this compiled (dist/server/main.js). With
// WORKERS=N (or --workers N) above 1 this process is the primary of a cluster (cluster.ts) and each
// of its N workers runs main() below.
import cluster from 'node:cluster';
import { runPrimary, workerCount, workerIndex } from './cluster.js';
import { loadConfig, type Config } from './config.js';
import { openDatabaseForCli } from './cli/open-database.js';
import { startUploadSweeps, sweepUploadLeftovers } from './files/sweep.js';
import { buildApp, reloadCertificate } from './app.js';
import { createAdmin } from './features/auth/service.js';
import { startNotificationWorker } from './features/notifications/worker.js';
import { copyLeftoverFilesAtStart, keysAtStart } from './features/records/migrate-files.js';
import { DirectoryStore } from './files/backends/directory.js';
import { fileKeySettings } from './files/configured.js';
import { loggableError } from './db/outage.js';

const SHUTDOWN_TIMEOUT_MS = 15_000;

/** A configuration the server will not serve with; its message is all the operator needs. */
class StartRefused extends Error {}

async function main(config: Config) {
  const database = await openDatabaseForCli(config);
  const { app, ctx } = await buildApp(config, database);

  // A key dropped too early (a rotation's previous key) is said at once, by its id, not at the
  // first download.
  const keys = await keysAtStart(database.db, ctx.files);
  if (keys.missing) {
    await database.close();
    throw new StartRefused(keys.missing);
  }
  if (keys.left && workerIndex() === 0) app.log.warn(keys.left);

  // Leftovers of uploads that never committed, now and then periodically (files/sweep.ts).
  const onSwept = (files: number) => app.log.info(`Removed ${files} unfinished upload file(s).`);
  const swept = await sweepUploadLeftovers(database.db, ctx.files, config.uploadSweepGraceMs, ctx.now());
  if (swept > 0) onSwept(swept);
  const stopSweeps = startUploadSweeps({
    db: database.db,
    files: ctx.files,
    graceMs: config.uploadSweepGraceMs,
    intervalMs: config.uploadSweepIntervalMs,
    now: ctx.now,
    onSwept,
    onError: (err) => app.log.error({ err: loggableError(err) }, 'upload sweep failed'),
  });

  // Attachments kept in DATA_DIR before they moved into PostgreSQL are copied in by one process.
  if (workerIndex() === 0) {
    const copied = await copyLeftoverFilesAtStart(
      database.db,
      ctx.files,
      new DirectoryStore(config.dataDir, fileKeySettings(config)),
    );
    if (copied && copied.missing > 0)
      app.log.warn(
        `Copied ${copied.copied} of ${copied.missing} attachment file(s) from DATA_DIR into the database` +
          (copied.failed > 0 ? `; not copied: ${copied.problems.join('; ')}` : '.'),
      );
  }

  // One process creates the administrator (several at once would race on the e-mail).
  if (config.adminEmail && config.adminPassword && workerIndex() === 0) {
    const { created } = await createAdmin(database.db, config.adminEmail, config.adminPassword);
    if (created) app.log.info(`Administrator ${config.adminEmail} created from ADMIN_EMAIL.`);
  }

  // Notification mails (reminders included) wait in the database; this loop sends what is due.
  const stopNotifications = startNotificationWorker(ctx, (err) =>
    app.log.error({ err }, 'notification run failed'),
  );

  // Graceful shutdown: stop accepting (new requests get 503), let requests in flight finish, close
  // the pool. A request that will not finish does not hold the process beyond the timeout.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, finishing requests in flight`);
    const force = setTimeout(() => {
      app.log.warn(`requests still running after ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    stopNotifications();
    stopSweeps();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err: loggableError(err) }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A renewed certificate: SIGHUP reads the files again (the cluster's primary passes it on).
  if (config.tls)
    process.on('SIGHUP', () => {
      try {
        reloadCertificate(app, config);
        app.log.info('certificate reloaded from TLS_CERT_FILE and TLS_KEY_FILE');
      } catch (err) {
        app.log.error({ err }, 'certificate not reloaded; the one in use stays');
      }
    });

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isWorker) return; // the primary says when every worker listens
  if (database.kind === 'pglite') {
    console.log(
      `\nNOTE: running on the embedded database (PGlite) in ${config.dataDir}. It is for trying MedLedger ` +
        'and for development: it does not fsync, so a power loss can lose recent writes. ' +
        'Real patient data belongs on PostgreSQL (set DATABASE_URL).',
    );
  }
  console.log(`\nMedLedger is running at ${config.publicUrl}\n`);
}

function start() {
  const config = loadConfig();
  const workers = cluster.isPrimary ? workerCount(process.argv.slice(2), config.workers) : 1;
  if (typeof workers === 'object') {
    console.error(workers.error);
    process.exit(2);
  }
  if (workers > 1) {
    if (!config.databaseUrl) {
      console.error('Several processes (WORKERS above 1) need PostgreSQL: set DATABASE_URL.');
      process.exit(2);
    }
    runPrimary(config, workers);
    return;
  }
  main(config).catch((err: unknown) => {
    console.error(err instanceof StartRefused ? err.message : err);
    process.exit(1);
  });
}

start();
