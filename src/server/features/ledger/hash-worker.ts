// One thread of the audit's hashing pool (hash-pool.ts): its own store over the same attachments
// (the folder, or the database with a connection of its own) and key, answering { id, ref } with
// hashStored(ref) — each attachment read, decrypted and hashed in full, exactly as on the main thread.
// A folder is read with blocking calls (DirectoryStore.hashStoredBlocking): this thread does nothing
// else.
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../../db/connect.js';
import { DatabaseStore } from '../../files/backends/database.js';
import { DirectoryStore } from '../../files/backends/directory.js';
import { type FileStore, type StoredFileRef } from '../../files/store.js';
import type { HashJob, WorkerSetup } from './hash-pool.js';

const { dataDir, keys, databaseUrl, claimed } = workerData as WorkerSetup;
const files: FileStore = databaseUrl
  ? new DatabaseStore((await connect({ databaseUrl, migrate: false })).db, dataDir, keys)
  : new DirectoryStore(dataDir, keys);
const hashStored = (ref: StoredFileRef) =>
  files instanceof DirectoryStore ? files.hashStoredBlocking(ref) : files.hashStored(ref);

// Every worker receives every job, in the order posted (in arrays of the jobs asked for together);
// a job is this worker's once it has claimed its number from the shared counter (hash-pool.ts).
// Jobs below the last number claimed are another worker's or done, and are dropped.
const received = new Map<number, StoredFileRef>();
let receivedUpTo = 0;
let mine: number | null = null;
let busy = false;

function next() {
  while (!busy) {
    if (mine === null) {
      if (Atomics.load(claimed, 0) >= receivedUpTo) return; // nothing unclaimed here yet
      mine = Atomics.add(claimed, 0, 1);
    }
    for (const id of received.keys()) {
      if (id >= mine) break;
      received.delete(id);
    }
    const ref = received.get(mine);
    if (!ref) return; // claimed before its message arrived here: taken when it does
    received.delete(mine);
    const id = mine;
    busy = true;
    hashStored(ref)
      .then(
        (result) => parentPort!.postMessage({ id, result }),
        (err: unknown) => parentPort!.postMessage({ id, error: String(err) }),
      )
      .finally(() => {
        busy = false;
        mine = null;
        next();
      });
  }
}

parentPort!.on('message', (jobs: HashJob[]) => {
  for (const job of jobs) received.set(job.id, job.ref);
  if (jobs.length > 0) receivedUpTo = jobs[jobs.length - 1].id + 1;
  next();
});
