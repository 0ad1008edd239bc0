// `npm run ledger -- verify-receipt <receipt.json> [file...] [--key <verifier key>]`: checks a
// record's receipt offline with the shared check (src/shared/ledger/receipt.ts): the checkpoint's
// signature, the entry hash recomputed from its fields, the inclusion proof, and each file given
// against the entry's SHA-256s. Exit codes: 0 all checks pass, 1 a check failed, 2 usage.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { verifyReceipt } from '../../../shared/ledger/receipt.js';

export const VERIFY_RECEIPT_USAGE = `Usage: npm run ledger -- verify-receipt <receipt.json> [file...] [--key <verifier key>]

  checks a record's ledger receipt without asking the server: the signed checkpoint, the entry's
  hash recomputed from its fields, the inclusion proof, and that each file given is one the entry
  covers. --key pins the log's verifier key (without it the receipt's own key is used, with a
  warning). Exits 1 when a check fails.`;

const MAX_RECEIPT_BYTES = 1024 * 1024;

export interface VerifyReceiptOptions {
  receiptPath: string;
  files: string[];
  key?: string;
}

export function parseVerifyReceiptArgs(
  args: string[],
): { options: VerifyReceiptOptions } | { error: string } {
  const positional: string[] = [];
  let key: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--key' && args[i + 1] !== undefined) key = args[++i];
    else if (args[i].startsWith('--')) return { error: `Unknown option ${args[i]}\n${VERIFY_RECEIPT_USAGE}` };
    else positional.push(args[i]);
  }
  if (positional.length === 0) return { error: VERIFY_RECEIPT_USAGE };
  const [receiptPath, ...files] = positional;
  return { options: { receiptPath, files, key } };
}

async function fileSha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

export async function runVerifyReceipt(
  options: VerifyReceiptOptions,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  let receipt: unknown;
  const files: Array<{ name: string; sha256: string }> = [];
  try {
    const stat = await fsp.stat(options.receiptPath);
    if (stat.size > MAX_RECEIPT_BYTES) throw new Error('it is larger than a receipt can be');
    receipt = JSON.parse(await fsp.readFile(options.receiptPath, 'utf8'));
  } catch (err) {
    io.err(`verify-receipt: ${options.receiptPath} cannot be read as JSON: ${(err as Error).message}`);
    return 2;
  }
  for (const file of options.files) {
    try {
      files.push({ name: path.basename(file), sha256: await fileSha256(file) });
    } catch (err) {
      io.err(`verify-receipt: ${file} cannot be read: ${(err as Error).message}`);
      return 2;
    }
  }
  const result = await verifyReceipt(receipt, { verifierKey: options.key, files });
  for (const warning of result.warnings) io.err(`warning: ${warning}`);
  for (const check of result.checks)
    io.out(`${check.ok ? 'ok    ' : 'FAILED'} ${check.name}: ${check.detail}`);
  if (result.ok) {
    io.out(
      options.files.length > 0
        ? 'Result: OK, the receipt is valid and every file given is covered by its ledger entry.'
        : 'Result: OK, the receipt is valid (give the files to check them too).',
    );
    return 0;
  }
  io.out('Result: FAILED');
  return 1;
}
