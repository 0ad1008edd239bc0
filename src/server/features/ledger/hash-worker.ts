// One thread of the audit's hashing pool (hash-pool.ts): its own store over the same attachments
// (the folder, or the database with a connection of its own) and key, answering { id, ref } with
// hashStored(ref) — each attachment read, decrypted and hashed in full, exactly as on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../../db/connect.js';
import { DatabaseStore } from '../../files/database-store.js';
import { DirectoryStore, type FileStore, type StoredFileRef } from '../../files/store.js';
import type { StoreLocation } from './hash-pool.js';

const { dataDir, keyHex, databaseUrl } = workerData as StoreLocation;
const files: FileStore = databaseUrl
  ? new DatabaseStore((await connect({ databaseUrl, migrate: false })).db, dataDir, keyHex)
  : new DirectoryStore(dataDir, keyHex);

parentPort!.on('message', (message: { id: number; ref: StoredFileRef }) => {
  files.hashStored(message.ref).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: message.id, error: String(err) }),
  );
});
