// npm run ledger -- verify
// Audits the ledger and every record against it. Opens the database like the server does
// (DATABASE_URL, or PGlite under DATA_DIR, refused with a clear message while the server runs).
import { loadConfig } from '../config.js';
import { parseLedgerArgs, runLedgerVerify } from '../features/ledger/command.js';
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
    process.exitCode = await runLedgerVerify(parsed.options, database.db, files, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
