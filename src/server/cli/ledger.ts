// npm run ledger -- verify | migrate-files | rotate-signing-key | erase | witness | verify-receipt
// `verify` audits the ledger and every record against it and `migrate-files` rewrites old-format
// attachments (or, with attachments in PostgreSQL, copies DATA_DIR's files into it), both opening
// the database like the server
// does (DATABASE_URL, or PGlite under DATA_DIR, refused with a clear message while the server
// runs). `witness` and `verify-receipt` need no database: they run on any machine.
import fs from 'node:fs';
import { loadConfig, type Config } from '../config.js';
import type { Db } from '../db/connect.js';
import {
  LEDGER_USAGE,
  parseLedgerArgs,
  runLedgerErase,
  runLedgerVerify,
  type VerifyOptions,
} from '../features/ledger/command.js';
import { HashPool } from '../features/ledger/hash-pool.js';
import { runRotateSigningKey } from '../features/ledger/key-rotation.js';
import { configuredNoteSigner, ledgerKeyFile } from '../features/ledger/signing.js';
import { parseVerifyReceiptArgs, runVerifyReceipt } from '../features/ledger/receipt-command.js';
import { parseWitnessArgs, runWitness } from '../features/ledger/witness.js';
import { runMigrateFiles } from '../features/records/migrate-files.js';
import { DatabaseStore } from '../files/backends/database.js';
import { fileKeySettings } from '../files/configured.js';
import { DirectoryStore } from '../files/backends/directory.js';
import { type FileStore } from '../files/store.js';
import { openDatabaseForCli } from './open-database.js';

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

/** The audit with its attachments read back and hashed on a worker thread per core (hash-pool.ts). */
async function verifyOnAllCores(options: VerifyOptions, db: Db, files: FileStore, config: Config) {
  const pool = options.skipRecords
    ? undefined
    : new HashPool({
        dataDir: config.dataDir,
        keys: fileKeySettings(config),
        databaseUrl: config.attachmentStore === 'database' ? config.databaseUrl : undefined,
      });
  try {
    return await runLedgerVerify(options, db, files, io, pool, configuredVerifierKey(config));
  } finally {
    await pool?.close();
  }
}

/** The configured signing key's verifier key, without making a key file where there is none. */
function configuredVerifierKey(config: Config): string | undefined {
  if (!config.ledgerSigningKey && !fs.existsSync(ledgerKeyFile(config.dataDir))) return undefined;
  return configuredNoteSigner({ ...config, keyHex: config.ledgerSigningKey }).verifierKey;
}

function usage(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'witness') {
    const parsed = parseWitnessArgs(rest);
    if ('error' in parsed) usage(parsed.error);
    else process.exitCode = await runWitness(parsed.options, io);
    return;
  }
  if (command === 'verify-receipt') {
    const parsed = parseVerifyReceiptArgs(rest);
    if ('error' in parsed) usage(parsed.error);
    else process.exitCode = await runVerifyReceipt(parsed.options, io);
    return;
  }
  const parsed = parseLedgerArgs(process.argv.slice(2));
  if ('error' in parsed) usage(command === undefined ? LEDGER_USAGE : parsed.error);
  const config = loadConfig();
  const database = await openDatabaseForCli(config);
  try {
    const directory = new DirectoryStore(config.dataDir, fileKeySettings(config));
    // `verify` reads where the server keeps attachments; `migrate-files` copies the directory's
    // files into the database when that is where they are kept.
    const files =
      config.attachmentStore === 'database'
        ? new DatabaseStore(database.db, config.dataDir, fileKeySettings(config))
        : directory;
    process.exitCode =
      'command' in parsed
        ? parsed.command === 'erase'
          ? await runLedgerErase(parsed, database.db, io)
          : parsed.command === 'rotate-signing-key'
            ? await runRotateSigningKey(
                database.db,
                { ...config, nextSigningKey: process.env.LEDGER_NEXT_SIGNING_KEY || undefined },
                io,
              )
            : await runMigrateFiles(database.db, files, io, directory)
        : await verifyOnAllCores(parsed.options, database.db, files, config);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
