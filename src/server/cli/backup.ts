// npm run backup -- FILE | npm run restore -- FILE (src/server/backup/): the configuration is the
// server's (DATABASE_URL, or PGlite under DATA_DIR; ATTACHMENT_STORE; the keys).
import { loadConfig } from '../config.js';
import { runBackup } from '../backup/backup.js';
import { runRestore } from '../backup/restore.js';

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

async function main() {
  const [command, file, ...rest] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !file || rest.length > 0) {
    console.error('Usage: npm run backup -- <file>\n       npm run restore -- <file>');
    process.exit(2);
  }
  const config = loadConfig();
  process.exitCode =
    command === 'backup' ? await runBackup(config, file, io) : await runRestore(config, file, io);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
