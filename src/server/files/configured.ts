// The attachment store and keys the configuration names, for the server, the CLI and the workers.
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { DatabaseStore } from './backends/database.js';
import { DirectoryStore } from './backends/directory.js';
import type { FileKeySettings } from './keys.js';
import { pendingUploadsIn } from './pending.js';
import type { FileStore } from './store.js';

/** The configured store: the database with ATTACHMENT_STORE=database (the default with DATABASE_URL). */
export function fileStoreFor(config: Config, db: Db): FileStore {
  return config.attachmentStore === 'database'
    ? new DatabaseStore(db, config.dataDir, fileKeySettings(config))
    : new DirectoryStore(config.dataDir, fileKeySettings(config), pendingUploadsIn(db));
}

/** The configuration's keys, as the stores take them. */
export function fileKeySettings(config: Config): FileKeySettings {
  return {
    current: config.fileEncryptionKey,
    previous: config.previousFileEncryptionKeys,
    accountSecrets: config.accountSecretsKey,
  };
}
