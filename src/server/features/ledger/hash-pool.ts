// A small pool of worker threads that read back, decrypt and hash attachments for the integrity
// check (integrity.ts), so that the audit uses every core (docs/decisions.md, "Ledger audit across
// cores"). Each worker opens the same store (folder and key) itself; nothing is skipped: every
// attachment is still decrypted and hashed in full, and a changed or missing file is reported
// exactly as FileStore.hashStored reports it.
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileKeySettings } from '../../files/keys.js';
import type { FileStore, HashStoredResult, StoredFileRef } from '../../files/store.js';

/** What the audit needs of a store: the SHA-256 of an attachment's plaintext, read back. */
export type AttachmentHasher = Pick<FileStore, 'hashStored'>;

/** Where the store is: the folder and keys, and the database when attachments are kept there. */
export interface StoreLocation {
  dataDir: string;
  keys?: FileKeySettings | string;
  /** Set when attachments live in PostgreSQL: each worker opens its own connection to it. */
  databaseUrl?: string;
}

/** One attachment to hash; jobs are numbered from 0 in the order asked for. */
export interface HashJob {
  id: number;
  ref: StoredFileRef;
}

/** What a worker is started with: where the store is, and the pool's shared claim counter. */
export interface WorkerSetup extends StoreLocation {
  claimed: Int32Array;
}

/**
 * The worker's entry. Under tsx (the CLI, `npm run dev`, the tests) a worker does not
 * inherit the loader, so it registers tsx's ESM hooks first, then imports the worker module.
 */
function workerFor(location: WorkerSetup): Worker {
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
 * How the workers share the jobs. Every job is posted to every worker, and the first worker free to
 * take it claims it by raising one shared counter (`claimed`, the number of jobs taken so far): a
 * worker takes the next job itself and never waits for the main thread, which during an audit is
 * busy with the entries' own checks (and, with PGlite, the database). Measured with
 * bench/ledger.bench.ts (2 workers, 120 files of 512 KB, 60 MB): when the main thread handed out
 * three jobs per worker at a time, the workers idled while it was busy and the audit took 96-119 ms
 * (ratio to raw SHA-256 0.33-0.40); claimed this way, 86-89 ms (0.42-0.44).
 */
export class HashPool implements AttachmentHasher {
  private readonly waiting = new Map<
    number,
    { resolve: (r: HashStoredResult) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  /** Jobs asked for since the last post (see post()). */
  private readonly outbox: HashJob[] = [];
  private readonly workers: Worker[];
  /** Jobs claimed so far; job n is the n-th posted (ids count from 0). */
  private readonly claimed = new Int32Array(new SharedArrayBuffer(4));
  /** The first error of a worker: the pool no longer answers. */
  private failure: Error | null = null;

  /** `threads` defaults to the cores Node may use. */
  constructor(
    location: StoreLocation,
    readonly threads = os.availableParallelism(),
  ) {
    this.workers = Array.from({ length: Math.max(1, threads) }, () => {
      const worker = workerFor({ ...location, claimed: this.claimed });
      worker.on('message', (message: { id: number; result?: HashStoredResult; error?: string }) => {
        const job = this.waiting.get(message.id);
        if (!job) return;
        this.waiting.delete(message.id);
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result!);
      });
      // A job a failed worker had claimed (or will claim: a free worker may hold the number of the
      // next job before it is posted) would never be answered: every waiting job fails, and so
      // does every later one, and the audit reports the failure instead of waiting for ever.
      worker.on('error', (err) => {
        this.failure ??= err;
        for (const job of this.waiting.values()) job.reject(err);
        this.waiting.clear();
      });
      worker.unref();
      return worker;
    });
  }

  hashStored(ref: StoredFileRef): Promise<HashStoredResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      if (this.outbox.length === 0) queueMicrotask(() => this.post());
      this.outbox.push({
        id,
        ref: { storageKey: ref.storageKey, iv: ref.iv, authTag: ref.authTag, format: ref.format },
      });
    });
  }

  /**
   * Jobs asked for in one go (the audit asks for a whole batch's attachments at once) are posted
   * to each worker as one message: a message per job and worker cost the audit's main thread
   * about 1.5 ms per 120 attachments in postMessage alone.
   */
  private post() {
    const jobs = this.outbox.splice(0);
    for (const worker of this.workers) worker.postMessage(jobs);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
