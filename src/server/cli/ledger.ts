// npm run ledger -- verify | migrate-files
// Audits the ledger and every record against it. Opens the database like the server does
// (DATABASE_URL, or PGlite under DATA_DIR, refused with a clear message while the server runs).
import { loadConfig } from '../config.js';
import { parseLedgerArgs, runLedgerVerify } from '../features/ledger/command.js';
import { runMigrateFiles } from '../features/records/migrate-files.js';
import { FileStore } from '../files/store.js';
import { openDatabaseForCli } from './open-database.js';

async function main() {
  const parsed = parseLedgerArgs(process.argv.slice(2));
  if ('error' in parsed) {
    console.error(parsed.error);
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabaseForCli(config);
  try {
    const files = new FileStore(config.dataDir, config.fileEncryptionKey);
    const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
    process.exitCode =
      'command' in parsed
        ? await runMigrateFiles(database.db, files, io)
        : await runLedgerVerify(parsed.options, database.db, files, io);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
