// One thread of the audit's hashing pool (hash-pool.ts): its own store over the same attachments
// (the folder, or the database with a connection of its own) and key, answering { id, ref } with
// hashStored(ref) — each attachment read, decrypted and hashed in full, exactly as on the main thread.
// A folder is read with blocking calls (DirectoryStore.hashStoredBlocking): this thread does nothing
// else, and the jobs the pool queues here wait in its message queue.
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../../db/connect.js';
import { DatabaseStore } from '../../files/database-store.js';
import { DirectoryStore, type FileStore, type StoredFileRef } from '../../files/store.js';
import type { StoreLocation } from './hash-pool.js';

const { dataDir, keyHex, databaseUrl } = workerData as StoreLocation;
const files: FileStore = databaseUrl
  ? new DatabaseStore((await connect({ databaseUrl, migrate: false })).db, dataDir, keyHex)
  : new DirectoryStore(dataDir, keyHex);
const hashStored = (ref: StoredFileRef) =>
  files instanceof DirectoryStore ? files.hashStoredBlocking(ref) : files.hashStored(ref);

parentPort!.on('message', (message: { id: number; ref: StoredFileRef }) => {
  hashStored(message.ref).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: message.id, error: String(err) }),
  );
});
