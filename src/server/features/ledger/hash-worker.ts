// One thread of the audit's hashing pool (hash-pool.ts): its own FileStore over the same folder and
// key, answering { id, ref } with hashStored(ref) — each attachment read, decrypted and hashed in
// full, exactly as on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { FileStore, type StoredFileRef } from '../../files/store.js';

const { dataDir, keyHex } = workerData as { dataDir: string; keyHex?: string };
const files = new FileStore(dataDir, keyHex);

parentPort!.on('message', (message: { id: number; ref: StoredFileRef }) => {
  files.hashStored(message.ref).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: message.id, error: String(err) }),
  );
});
