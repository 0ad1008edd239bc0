// `npm run ledger -- verify`: the audit with progress on long runs, a summary, and an exit code
// (0 all checks pass, 1 a mismatch was found, 2 usage). Kept apart from the CLI entry point so
// tests can run it against their own database.
import type { Db } from '../../db/connect.js';
import type { FileStore } from '../../files/store.js';
import { HttpError } from '../../errors.js';
import { eraseEntryContent, type ErasureRequest } from './erasure.js';
import type { HashPool } from './hash-pool.js';
import { auditLedger } from './integrity.js';
import { auditCheckpoints } from './key-rotation.js';

export const LEDGER_USAGE = `Usage: npm run ledger -- verify [--skip-records] [--batch <entries>]
       npm run ledger -- migrate-files
       npm run ledger -- rotate-signing-key
       npm run ledger -- erase <entry number or hash> --by <who> --reason <why> [--earlier]
       npm run ledger -- witness --url <server> --key <verifier key> --state <file>
       npm run ledger -- verify-receipt <receipt.json> [file...] [--key <verifier key>]

  verify          re-checks the whole chain, the Merkle tree and every record (fields and
                  attachment bytes) against the ledger; exits 1 on any mismatch
  --skip-records  check the ledger itself only (chain and tree), not the records
  --batch N       entries read per query (default 2000)
  migrate-files   rewrites every attachment still in the single-GCM format written before the
                  chunked one (each old file's tag is checked first; the plaintext SHA-256 must
                  not change); safe to run again; exits 1 if a file could not be converted
  rotate-signing-key
                  replaces the checkpoints' signing key: a new key is announced in a checkpoint
                  signed by the old and the new key (witnesses following the old key learn the
                  new one from it; see "Witnessing the ledger" in the README);
                  the key file is replaced, or with LEDGER_SIGNING_KEY set the new key is
                  LEDGER_NEXT_SIGNING_KEY. Restart every server process afterwards
  erase           deletes the salt and content of one (format 2) entry, so that the entry can no
                  longer be linked to its content, and ledgers the erasure (which entry, who, when,
                  why); the entry, chain and tree stay and verify. verify fails for an opening
                  deleted any other way. --by and --reason are kept in the ledger's (committed)
                  content: name a role or a ticket, no health data
  --earlier       ledgers the erasure of an opening already deleted before erasures were
                  ledgered (verify fails on those until then); the record is taken as it stands
  witness         checks the server's signed checkpoint against the last one seen (see
                  "Witnessing the ledger" in the README); needs no database
  verify-receipt  checks a record's receipt offline; needs no database`;

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Milliseconds between progress lines (progress is shown only once a run takes this long). */
  progressEveryMs?: number;
}

export interface VerifyOptions {
  skipRecords: boolean;
  batchSize: number;
}

/** The options of `verify`, `migrate-files`, `erase`, or the message to print (exit code 2). */
export function parseLedgerArgs(
  args: string[],
):
  | { options: VerifyOptions }
  | { command: 'migrate-files' | 'rotate-signing-key' }
  | EraseCommand
  | { error: string } {
  const [command, ...rest] = args;
  if (command === 'erase') return parseEraseArgs(rest);
  if (command === 'migrate-files' || command === 'rotate-signing-key') {
    return rest.length === 0 ? { command } : { error: `Unknown option ${rest[0]}\n${LEDGER_USAGE}` };
  }
  if (command !== 'verify') return { error: LEDGER_USAGE };
  const options: VerifyOptions = { skipRecords: false, batchSize: 2000 };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--skip-records') options.skipRecords = true;
    else if (rest[i] === '--batch' && /^[1-9]\d{0,5}$/.test(rest[i + 1] ?? ''))
      options.batchSize = Number(rest[++i]);
    else return { error: `Unknown option ${rest[i]}\n${LEDGER_USAGE}` };
  }
  return { options };
}

export interface EraseCommand {
  command: 'erase';
  entryId: string;
  request: ErasureRequest;
  earlier: boolean;
}

/** `erase <entry> --by <who> --reason <why> [--earlier]`, in any order. */
function parseEraseArgs(args: string[]): EraseCommand | { error: string } {
  const entries: string[] = [];
  const request: Partial<ErasureRequest> = {};
  let earlier = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--earlier') {
      earlier = true;
      continue;
    }
    const option = args[i] === '--by' ? 'by' : args[i] === '--reason' ? 'reason' : null;
    if (option) {
      const value = args[++i];
      if (value === undefined) return { error: `${args[i - 1]} needs a value\n${LEDGER_USAGE}` };
      request[option] = value;
    } else if (args[i].startsWith('--')) return { error: `Unknown option ${args[i]}\n${LEDGER_USAGE}` };
    else entries.push(args[i]);
  }
  if (entries.length !== 1)
    return { error: `erase takes one entry: its number or its hash\n${LEDGER_USAGE}` };
  if (request.by === undefined || request.reason === undefined)
    return { error: `erase needs --by <who> and --reason <why>: the erasure is ledgered\n${LEDGER_USAGE}` };
  const { by, reason } = request;
  return { command: 'erase', entryId: entries[0], request: { by, reason }, earlier };
}

/** Runs the audit, prints progress and a summary; returns the exit code (0 OK, 1 mismatch). */
export async function runLedgerVerify(
  options: VerifyOptions,
  db: Db,
  files: FileStore,
  io: CommandIo,
  /** Hashes the attachments on worker threads (hash-pool.ts); `files` on this thread without. */
  hasher?: HashPool,
  /** The configured signing key's verifier key: the stored checkpoints are checked against it. */
  verifierKey?: string,
): Promise<number> {
  const { skipRecords, batchSize } = options;
  const started = Date.now();
  const every = io.progressEveryMs ?? 2000;
  let lastProgress = started;
  const report = await auditLedger(db, files, {
    batchSize,
    records: !skipRecords,
    hasher,
    onProgress: ({ entries, total, records }) => {
      const now = Date.now();
      if (now - lastProgress < every) return;
      lastProgress = now;
      const pct = total > 0 ? Math.floor((entries / total) * 100) : 100;
      const rate = Math.round(entries / ((now - started) / 1000));
      io.err(`  checked ${entries} of ${total} entries (${pct}%), ${records} records, ${rate} entries/s`);
    },
  });
  const checkpoints = verifierKey ? await auditCheckpoints(db, verifierKey) : null;
  const seconds = (Date.now() - started) / 1000;

  io.out(`Ledger: ${report.entries} entries, tree size ${report.treeSize}, root ${report.rootHash}`);
  if (!skipRecords) {
    io.out(
      `Records: ${report.records} checked, ${(report.attachmentBytes / 1024 / 1024).toFixed(1)} MB of attachments read back`,
    );
  }
  if (report.erasedCount > 0) {
    const listed = report.erased.map((e) => e.erasedSeq).join(', ');
    const more = report.erasedCount > report.erased.length ? ', ...' : '';
    io.out(
      `Content erased: ${report.erasedCount} entr${report.erasedCount === 1 ? 'y' : 'ies'} (${listed}${more}); their hashes, chain links and leaves were checked, their content cannot be. Each erasure is ledgered:`,
    );
    for (const e of report.erased)
      io.out(
        `  - entry ${e.erasedSeq}: erased ${e.at.toISOString()} by ${e.erasedBy} (erasure entry ${e.seq}): ${e.reason}`,
      );
  }
  if (checkpoints) {
    const rotated =
      checkpoints.rotations > 0 ? `, ${checkpoints.rotations} signing-key rotation(s) followed` : '';
    io.out(`Checkpoints: ${checkpoints.checkpoints} checked against the signing keys in force${rotated}`);
  } else io.out('Checkpoints: not checked (no signing key is configured).');
  io.out(`Time: ${seconds.toFixed(1)} s`);
  const problems = [...(checkpoints?.problems ?? []), ...report.problems];
  const problemCount = report.problemCount + (checkpoints?.problems.length ?? 0);
  if (problemCount === 0) {
    io.out('Result: OK, the chain, the Merkle tree and every record match.');
    return 0;
  }
  io.out(`Result: FAILED, ${problemCount} problem(s):`);
  for (const p of problems) io.out(`  - ${p}`);
  if (problemCount > problems.length) io.out(`  ... and ${problemCount - problems.length} more`);
  return 1;
}

/** `npm run ledger -- erase <entry> --by --reason`: erases one entry's opening, says what it did. */
export async function runLedgerErase(
  erase: Omit<EraseCommand, 'command'>,
  db: Db,
  io: CommandIo,
): Promise<number> {
  try {
    const result = await eraseEntryContent(db, erase.entryId, erase.request, { earlier: erase.earlier });
    io.out(result.message);
    return result.erased || result.alreadyErased ? 0 : 1;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    io.err(`erase: ${err.message}`);
    return err.statusCode === 400 ? 2 : 1;
  }
}
