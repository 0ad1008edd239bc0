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
  followSigningKey,
  openCheckpointWithRotation,
  type OpenedCheckpoint,
} from '../../../shared/ledger/key-rotation.js';
import {
  base64Encode,
  formatVerifierKey,
  MAX_NOTE_LENGTH,
  NoteError,
  openCheckpoint,
  openNote,
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
  /** The key in force: the pinned one, or the last one it announced. */
  verifierKey: string;
  /** The key-rotation announcements followed from the pinned key, oldest first (signed notes). */
  rotations?: string[];
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
  let pinned: VerifierKey;
  try {
    pinned = parseVerifierKey(options.key);
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
  const previous = await readState(options.statePath, pinned);
  const doFetch = io.fetch ?? fetch;
  let inForce = previous?.key ?? pinned;
  const rotations = [...(previous?.rotations ?? [])];
  // The last checkpoint accepted so far: each one seen must extend it.
  let accepted: { treeSize: number; rootHash: Uint8Array } | null = previous
    ? { treeSize: previous.treeSize, rootHash: fromBase64(previous.rootHash) }
    : null;

  const note = await fetchText(doFetch, new URL('api/ledger/checkpoint', base));
  let next: OpenedCheckpoint;
  try {
    if (!(await signedBy(note, inForce))) {
      // Not signed by the key in force: the log may have announced a new key since the last run.
      // Its checkpoints since then are followed from the key in force (shared/ledger/key-rotation.ts):
      // the old key signs up to the announcement, which the new key signs too.
      const since = await fetchCheckpoints(doFetch, base, accepted?.treeSize ?? -1);
      const followed = await followSigningKey(since, inForce);
      for (const [i, c] of followed.checkpoints.entries()) {
        if (!c.nextKey) continue;
        await checkExtends(doFetch, base, options.statePath, accepted, c, since[i]);
        accepted = c;
        rotations.push(since[i]);
      }
      inForce = followed.key;
    }
    next = await openCheckpointWithRotation(note, inForce);
  } catch (err) {
    if (err instanceof NoteError) {
      await keepEvidence(options.statePath, note);
      throw misbehaved(`REJECTED checkpoint from ${base.host}: ${err.message}`);
    }
    throw err;
  }
  await checkExtends(doFetch, base, options.statePath, accepted, next, note);
  if (next.nextKey) {
    if (!rotations.includes(note)) rotations.push(note);
    inForce = next.nextKey;
  }

  const keyText = formatVerifierKey(inForce.name, inForce.publicKey);
  const state: WitnessState = {
    origin: next.origin,
    verifierKey: keyText,
    rotations,
    treeSize: next.treeSize,
    rootHash: base64Encode(next.rootHash),
    checkpoint: note,
    acceptedAt: (io.now?.() ?? new Date()).toISOString(),
  };
  await writeAtomically(options.statePath, `${JSON.stringify(state, null, 2)}\n`);
  const rotated =
    rotations.length > (previous?.rotations?.length ?? 0) ? `; the log's signing key is now ${keyText}` : '';
  return previous
    ? `OK ${next.origin}: ${previous.treeSize} -> ${next.treeSize} entries, consistent, root ${state.rootHash}${rotated}`
    : `OK ${next.origin}: first checkpoint kept, ${next.treeSize} entries, root ${state.rootHash}${rotated}`;
}

/** Whether `note` carries a signature by `key` that verifies (a bad one is refused by the caller). */
async function signedBy(note: string, key: VerifierKey): Promise<boolean> {
  try {
    await openNote(note, key);
    return true;
  } catch (err) {
    if (err instanceof NoteError && /not signed by the key/.test(err.message)) return false;
    throw err;
  }
}

/** Refuses `next` unless its tree extends the one accepted before (RFC 9162 consistency). */
async function checkExtends(
  doFetch: typeof fetch,
  base: URL,
  statePath: string,
  accepted: { treeSize: number; rootHash: Uint8Array } | null,
  next: Checkpoint,
  note: string,
): Promise<void> {
  if (!accepted) return;
  if (next.treeSize < accepted.treeSize) {
    await keepEvidence(statePath, note);
    throw misbehaved(
      `REJECTED: the tree shrank from ${accepted.treeSize} to ${next.treeSize} entries (history was rewritten).`,
    );
  }
  if (next.treeSize === accepted.treeSize) {
    if (!bytesEqual(next.rootHash, accepted.rootHash)) {
      await keepEvidence(statePath, note);
      throw misbehaved(
        `REJECTED: two different signed roots for ${next.treeSize} entries (history was rewritten or a split view).`,
      );
    }
    return;
  }
  const proof = await fetchConsistency(doFetch, base, accepted.treeSize, next.treeSize);
  if (!verifyConsistency(accepted.treeSize, next.treeSize, accepted.rootHash, next.rootHash, proof)) {
    await keepEvidence(statePath, note);
    throw misbehaved(
      `REJECTED: the tree of ${next.treeSize} entries does not extend the one of ${accepted.treeSize} this witness saw (history was rewritten or a split view).`,
    );
  }
}

/** The log's signed checkpoints with a tree size above `after`, oldest first (every page). */
async function fetchCheckpoints(doFetch: typeof fetch, base: URL, after: number): Promise<string[]> {
  const notes: string[] = [];
  let from: number | null = after;
  while (from !== null && notes.length < MAX_FOLLOWED) {
    const url = new URL(`api/ledger/checkpoints?after=${from}`, base);
    let page: { checkpoints?: unknown; next?: unknown };
    try {
      page = JSON.parse(await fetchText(doFetch, url, MAX_PAGE_LENGTH)) as typeof page;
    } catch (err) {
      if (err instanceof WitnessFailure) throw err;
      throw unreachable(`${url.href} did not answer JSON.`);
    }
    if (!Array.isArray(page.checkpoints)) throw unreachable(`${url.href} did not list checkpoints.`);
    for (const c of page.checkpoints as { note?: unknown }[])
      if (typeof c?.note === 'string') notes.push(c.note);
    from = typeof page.next === 'number' && page.next > from ? page.next : null;
  }
  return notes;
}

/** At most this many checkpoints are followed in one run (a witness run daily sees far fewer). */
const MAX_FOLLOWED = 100_000;
const MAX_PAGE_LENGTH = 100 * MAX_NOTE_LENGTH;

function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

async function readState(
  statePath: string,
  key: VerifierKey,
): Promise<(WitnessState & { key: VerifierKey; rotations: string[] }) | null> {
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
  // The kept checkpoint is checked again, under the key reached from the pinned one through the
  // kept announcements: a state file edited by hand is not trusted.
  try {
    const rotations = Array.isArray(state.rotations) ? state.rotations.map(String) : [];
    const followed = await followSigningKey(rotations, key);
    const kept = await openCheckpoint(String(state.checkpoint), followed.key);
    return {
      ...state,
      rotations,
      key: followed.key,
      treeSize: kept.treeSize,
      rootHash: base64Encode(kept.rootHash),
    };
  } catch (err) {
    throw new WitnessFailure(
      2,
      `the state file ${statePath} does not hold a checkpoint signed by this key (${(err as Error).message}); use a new state file for another log or key.`,
    );
  }
}

async function fetchText(doFetch: typeof fetch, url: URL, maxLength = MAX_NOTE_LENGTH): Promise<string> {
  let res: Response;
  try {
    res = await doFetch(url, { signal: AbortSignal.timeout(30_000), redirect: 'error' });
  } catch (err) {
    throw unreachable(`could not reach ${url.href}: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw unreachable(`${url.href} answered ${res.status}.`);
  const text = await res.text();
  if (text.length > maxLength) throw unreachable(`${url.href} answered more than was asked for.`);
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
