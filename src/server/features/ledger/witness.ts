// `npm run ledger -- witness --url <server> --key <verifier key> --state <file>`: a witness anyone
// can run, from cron on another machine. It fetches the log's signed checkpoint, checks the
// signature with the pinned key, checks that the tree only grew since the checkpoint kept in the
// state file (an RFC 9162 consistency proof, verified with the shared Merkle code), and keeps the
// new checkpoint (written atomically). It needs no database and trusts nothing the server says
// that it cannot check. Exit codes: 0 consistent, 1 the log misbehaved (bad signature, wrong key,
// a shrinking tree, an inconsistent root: rewritten history or a split view), 2 usage or an
// unusable state file, 3 the log could not be reached or answered nonsense.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { bytesEqual, verifyConsistency } from '../../../shared/ledger/merkle.js';
import {
  base64Encode,
  MAX_NOTE_LENGTH,
  NoteError,
  openCheckpoint,
  parseVerifierKey,
  type Checkpoint,
  type VerifierKey,
} from '../../../shared/ledger/note.js';
import { fromHex, HASH_HEX } from '../../../shared/ledger/sha256.js';

export const WITNESS_USAGE = `Usage: npm run ledger -- witness --url <server> --key <verifier key> --state <file>

  --url    the MedLedger server, e.g. https://records.example.org
  --key    the log's verifier key, as GET /api/ledger/public-key gave it once (pin it)
  --state  a file this witness keeps the last checkpoint it accepted in (made on the first run)

Exit codes: 0 consistent; 1 the log misbehaved (bad signature, wrong key, tree shrank, history
rewritten or a split view); 2 usage or an unusable state file; 3 the log could not be reached.`;

export interface WitnessOptions {
  url: string;
  key: string;
  statePath: string;
}

export function parseWitnessArgs(args: string[]): { options: WitnessOptions } | { error: string } {
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (!['--url', '--key', '--state'].includes(flag) || args[i + 1] === undefined)
      return { error: `Unknown or incomplete option ${flag}\n${WITNESS_USAGE}` };
    values[flag.slice(2)] = args[++i];
  }
  if (!values.url || !values.key || !values.state) return { error: WITNESS_USAGE };
  return { options: { url: values.url, key: values.key, statePath: values.state } };
}

/** What the state file holds: the last checkpoint this witness accepted. */
export interface WitnessState {
  origin: string;
  verifierKey: string;
  treeSize: number;
  /** Base64, as in the checkpoint. */
  rootHash: string;
  checkpoint: string;
  acceptedAt: string;
}

export interface WitnessIo {
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
  now?: () => Date;
}

class WitnessFailure extends Error {
  constructor(
    readonly code: 1 | 2 | 3,
    message: string,
  ) {
    super(message);
  }
}

const misbehaved = (message: string) => new WitnessFailure(1, message);
const unreachable = (message: string) => new WitnessFailure(3, message);

export async function runWitness(options: WitnessOptions, io: WitnessIo): Promise<number> {
  try {
    const line = await witness(options, io);
    io.out(line);
    return 0;
  } catch (err) {
    if (err instanceof WitnessFailure) {
      io.err(`witness: ${err.message}`);
      return err.code;
    }
    io.err(`witness: ${(err as Error).message}`);
    return 3;
  }
}

async function witness(options: WitnessOptions, io: WitnessIo): Promise<string> {
  let key: VerifierKey;
  try {
    key = parseVerifierKey(options.key);
  } catch (err) {
    throw new WitnessFailure(2, `--key: ${(err as Error).message}`);
  }
  let base: URL;
  try {
    base = new URL(options.url.replace(/\/+$/, '') + '/');
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error();
  } catch {
    throw new WitnessFailure(2, `--url: ${options.url} is not an http(s) address.`);
  }
  const previous = await readState(options.statePath, key);
  const doFetch = io.fetch ?? fetch;

  const note = await fetchText(doFetch, new URL('api/ledger/checkpoint', base));
  let next: Checkpoint;
  try {
    next = await openCheckpoint(note, key);
  } catch (err) {
    if (err instanceof NoteError) {
      await keepEvidence(options.statePath, note);
      throw misbehaved(`REJECTED checkpoint from ${base.host}: ${err.message}`);
    }
    throw err;
  }

  if (previous) {
    const oldRoot = fromBase64(previous.rootHash);
    if (next.treeSize < previous.treeSize) {
      await keepEvidence(options.statePath, note);
      throw misbehaved(
        `REJECTED: the tree shrank from ${previous.treeSize} to ${next.treeSize} entries (history was rewritten).`,
      );
    }
    if (next.treeSize === previous.treeSize) {
      if (!bytesEqual(next.rootHash, oldRoot)) {
        await keepEvidence(options.statePath, note);
        throw misbehaved(
          `REJECTED: two different signed roots for ${next.treeSize} entries (history was rewritten or a split view).`,
        );
      }
    } else {
      const proof = await fetchConsistency(doFetch, base, previous.treeSize, next.treeSize);
      if (!verifyConsistency(previous.treeSize, next.treeSize, oldRoot, next.rootHash, proof)) {
        await keepEvidence(options.statePath, note);
        throw misbehaved(
          `REJECTED: the tree of ${next.treeSize} entries does not extend the one of ${previous.treeSize} this witness saw (history was rewritten or a split view).`,
        );
      }
    }
  }

  const state: WitnessState = {
    origin: next.origin,
    verifierKey: options.key.trim(),
    treeSize: next.treeSize,
    rootHash: base64Encode(next.rootHash),
    checkpoint: note,
    acceptedAt: (io.now?.() ?? new Date()).toISOString(),
  };
  await writeAtomically(options.statePath, `${JSON.stringify(state, null, 2)}\n`);
  return previous
    ? `OK ${next.origin}: ${previous.treeSize} -> ${next.treeSize} entries, consistent, root ${state.rootHash}`
    : `OK ${next.origin}: first checkpoint kept, ${next.treeSize} entries, root ${state.rootHash}`;
}

function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

async function readState(statePath: string, key: VerifierKey): Promise<WitnessState | null> {
  let raw: string;
  try {
    raw = await fsp.readFile(statePath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new WitnessFailure(2, `the state file ${statePath} cannot be read: ${(err as Error).message}`);
  }
  let state: WitnessState;
  try {
    state = JSON.parse(raw) as WitnessState;
  } catch {
    throw new WitnessFailure(2, `the state file ${statePath} is not JSON.`);
  }
  // The kept checkpoint is checked again: a state file edited by hand is not trusted.
  try {
    const kept = await openCheckpoint(String(state.checkpoint), key);
    state.treeSize = kept.treeSize;
    state.rootHash = base64Encode(kept.rootHash);
  } catch (err) {
    throw new WitnessFailure(
      2,
      `the state file ${statePath} does not hold a checkpoint signed by this key (${(err as Error).message}); use a new state file for another log or key.`,
    );
  }
  return state;
}

async function fetchText(doFetch: typeof fetch, url: URL): Promise<string> {
  let res: Response;
  try {
    res = await doFetch(url, { signal: AbortSignal.timeout(30_000), redirect: 'error' });
  } catch (err) {
    throw unreachable(`could not reach ${url.href}: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw unreachable(`${url.href} answered ${res.status}.`);
  const text = await res.text();
  if (text.length > MAX_NOTE_LENGTH) throw unreachable(`${url.href} answered more than a checkpoint.`);
  return text;
}

async function fetchConsistency(
  doFetch: typeof fetch,
  base: URL,
  from: number,
  to: number,
): Promise<Uint8Array[]> {
  const url = new URL(`api/ledger/consistency?from=${from}&to=${to}`, base);
  const text = await fetchText(doFetch, url);
  let proof: unknown;
  try {
    proof = (JSON.parse(text) as { proof?: unknown }).proof;
  } catch {
    throw unreachable(`${url.href} did not answer JSON.`);
  }
  if (
    !Array.isArray(proof) ||
    proof.length > 128 ||
    !proof.every((h) => typeof h === 'string' && HASH_HEX.test(h))
  )
    throw misbehaved(`REJECTED: the consistency proof from ${from} to ${to} entries is malformed.`);
  return proof.map((h: string) => fromHex(h));
}

/** Writes `data` to a temporary file beside `target`, syncs it and renames it over `target`. */
async function writeAtomically(target: string, data: string): Promise<void> {
  const dir = path.dirname(path.resolve(target));
  await fsp.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.tmp`);
  const handle = await fsp.open(tmp, 'w', 0o644);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, target);
  // The rename itself survives a crash once the folder is synced (not possible on every system).
  try {
    const dirHandle = fs.openSync(dir, 'r');
    fs.fsyncSync(dirHandle);
    fs.closeSync(dirHandle);
  } catch {
    // Windows cannot open folders; the rename is still atomic there.
  }
}

/** Keeps a refused checkpoint beside the state file: signed evidence to show others. */
async function keepEvidence(statePath: string, note: string): Promise<void> {
  try {
    await writeAtomically(`${statePath}.rejected`, note);
  } catch {
    // Evidence is a courtesy; the exit code and message are what count.
  }
}
