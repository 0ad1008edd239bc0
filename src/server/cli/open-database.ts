// Opens the configured database for a command-line tool, with a clear message when the embedded
// data folder is held by a running server.
import path from 'node:path';
import type { Config } from '../config.js';
import { connect, DataFolderInUseError, type Database } from '../db/connect.js';

export async function openDatabaseForCli(config: Config): Promise<Database> {
  try {
    return await connect(
      config.databaseUrl
        ? { databaseUrl: config.databaseUrl }
        : { pgliteDir: path.join(config.dataDir, 'pglite') },
    );
  } catch (err) {
    if (err instanceof DataFolderInUseError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
