// WORKERS=N (or `npm start -- --workers N`): Node's cluster module runs N app processes on one
// port (docs/decisions.md, "Several app processes"). The primary serves nothing itself: it makes
// the keys once (so workers never race to create them), forks the workers, starts a new one when
// one dies, and passes SIGTERM/SIGINT on to every worker, whose own graceful shutdown (main.ts)
// finishes its requests; it passes SIGHUP on too, on which each worker reads a renewed certificate.
// Everything a worker shares with the others is in PostgreSQL: sessions, rate-limit and sign-in
// counters, reservations, notification jobs (claimed with SKIP LOCKED), and, with
// ATTACHMENT_STORE=database, the attachments.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { createLedgerSigner } from './features/ledger/signing.js';
import { loadKey } from './files/keys.js';
import { answerClusterMetrics } from './features/metrics/cluster.js';

/** The worker's place (0..N-1) among the workers; 0 outside a cluster. */
export const WORKER_INDEX_ENV = 'MEDLEDGER_WORKER_INDEX';

/** A worker that dies is replaced after this pause (a worker failing at start cannot spin). */
const RESTART_DELAY_MS = 1_000;

/** `--workers N` from the command line, else WORKERS; an error message for anything else. */
export function workerCount(argv: string[], fromEnv: number): number | { error: string } {
  const at = argv.indexOf('--workers');
  if (at === -1) return fromEnv;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    return { error: '--workers needs a whole number from 1 to 64.' };
  return n;
}

/** This process's index among the workers (0 for the only process). */
export function workerIndex(): number {
  return Number(process.env[WORKER_INDEX_ENV] ?? 0);
}

export function runPrimary(config: Config, workers: number): void {
  // The keys, made once here when they come from DATA_DIR (each worker then reads them).
  loadKey(config.dataDir, config.fileEncryptionKey);
  createLedgerSigner({
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    keyHex: config.ledgerSigningKey,
  });

  // A worker taking a scrape of /metrics asks here for every worker's figures.
  if (config.metricsToken) answerClusterMetrics();

  let stopping = false;
  let listening = 0;
  const fork = (index: number): Worker => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    worker.once('listening', () => {
      listening++;
      if (listening === workers)
        console.log(`\nMedLedger is running at ${config.publicUrl} (${workers} processes)\n`);
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(
        `worker ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); starting another`,
      );
      setTimeout(() => {
        if (!stopping) fork(index);
      }, RESTART_DELAY_MS);
    });
    return worker;
  };
  for (let i = 0; i < workers; i++) fork(i);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, stopping ${workers} processes`);
    const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    let failed = false;
    let left = all.length;
    if (left === 0) process.exit(0);
    for (const worker of all) {
      worker.once('exit', (code) => {
        if (code !== 0) failed = true;
        if (--left === 0) process.exit(failed ? 1 : 0);
      });
      worker.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Each worker reads a renewed certificate itself (main.ts).
  if (config.tls)
    process.on('SIGHUP', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
    });
}
