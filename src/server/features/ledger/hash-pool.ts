// A small pool of worker threads that read back, decrypt and hash attachments for the integrity
// check (integrity.ts), so that the audit uses every core (docs/decisions.md, "Ledger audit across
// cores"). Each worker opens the same store (folder and key) itself; nothing is skipped: every
// attachment is still decrypted and hashed in full, and a changed or missing file is reported
// exactly as FileStore.hashStored reports it.
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileStore, HashStoredResult, StoredFileRef } from '../../files/store.js';

/** What the audit needs of a store: the SHA-256 of an attachment's plaintext, read back. */
export type AttachmentHasher = Pick<FileStore, 'hashStored'>;

/** Where the store is: the folder and key, and the database when attachments are kept there. */
export interface StoreLocation {
  dataDir: string;
  keyHex?: string;
  /** Set when attachments live in PostgreSQL: each worker opens its own connection to it. */
  databaseUrl?: string;
}

/**
 * The worker's entry. Under tsx (the server and the CLI run from TypeScript) a worker does not
 * inherit the loader, so it registers tsx's ESM hooks first, then imports the worker module.
 */
function workerFor(location: StoreLocation): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(`./hash-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  if (!typescript) return new Worker(entry, { workerData: location });
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  );
  const source =
    `import(${JSON.stringify(tsx.href)}).then((tsx) => { tsx.register(); ` +
    `return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { eval: true, workerData: location });
}

/**
 * Jobs a worker holds at once: the next ones already wait in its message queue, so it does not
 * idle while the main thread, busy with the audit's own checks, hands it more (and with
 * attachments in the database, one job's reads overlap another's hashing). Measured with
 * bench/ledger.bench.ts ("the pool's threads alone", 2 workers, 60 MB): one job at a time 72 ms,
 * three 54 ms, six 50 ms.
 */
const JOBS_PER_WORKER = 3;

export class HashPool implements AttachmentHasher {
  /** A worker once per job it can take now. */
  private readonly idle: Worker[] = [];
  private readonly queue: Array<{
    ref: StoredFileRef;
    resolve: (r: HashStoredResult) => void;
    reject: (e: Error) => void;
  }> = [];
  private readonly waiting = new Map<
    number,
    { worker: Worker; resolve: (r: HashStoredResult) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private readonly workers: Worker[];

  /** `threads` defaults to the cores Node may use. */
  constructor(
    location: StoreLocation,
    readonly threads = os.availableParallelism(),
  ) {
    this.workers = Array.from({ length: Math.max(1, threads) }, () => {
      const worker = workerFor(location);
      worker.on('message', (message: { id: number; result?: HashStoredResult; error?: string }) => {
        const job = this.waiting.get(message.id);
        if (!job) return;
        this.waiting.delete(message.id);
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result!);
        this.release(worker);
      });
      worker.on('error', (err) => {
        for (const [id, job] of this.waiting) {
          if (job.worker !== worker) continue;
          this.waiting.delete(id);
          job.reject(err);
        }
      });
      worker.unref();
      for (let slot = 0; slot < JOBS_PER_WORKER; slot++) this.idle.push(worker);
      return worker;
    });
  }

  hashStored(ref: StoredFileRef): Promise<HashStoredResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        ref: { storageKey: ref.storageKey, iv: ref.iv, authTag: ref.authTag, format: ref.format },
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  private release(worker: Worker) {
    this.idle.push(worker);
    this.dispatch();
  }

  private dispatch() {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      const id = this.nextId++;
      this.waiting.set(id, { worker, resolve: job.resolve, reject: job.reject });
      worker.postMessage({ id, ref: job.ref });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
