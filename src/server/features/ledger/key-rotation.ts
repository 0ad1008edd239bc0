// Rotating the ledger's signing key (docs/decisions.md#ledger-signing-key-rotation). The rotation
// is a ledger entry (`signing_key_rotation`, naming both verifier keys) and, in the same
// transaction under the ledger lock, the checkpoint of the tree that ends with it, signed by the
// old key and the new one and naming the new one (src/shared/ledger/key-rotation.ts). From then on
// only the new key signs: a process still holding the old key refuses to sign (503) until it is
// restarted with the new one, so no checkpoint after the announcement carries the old key.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asc, desc, eq, sql } from 'drizzle-orm';
import {
  followSigningKey,
  isKeyInForce,
  rotationCheckpointText,
} from '../../../shared/ledger/key-rotation.js';
import {
  formatSignedNote,
  formatVerifierKey,
  NoteError,
  parseVerifierKey,
} from '../../../shared/ledger/note.js';
import type { Db } from '../../db/connect.js';
import { ledgerCheckpoints, ledgerContents, ledgerEntries } from '../../db/schema.js';
import { checkpointsAfter, type StoredCheckpoint } from './checkpoints.js';
import { hexOf } from './hashing.js';
import { appendLedgerEntry } from './service.js';
import { configuredNoteSigner, ledgerKeyFile, noteSigner, parseSeed, type NoteSigner } from './signing.js';
import { LEDGER_LOCK_KEY, ledgerSize, rootAt } from './tree.js';

export interface Rotation {
  treeSize: number;
  note: string;
  /** False when this rotation had already been made (a rerun after an interrupted one). */
  made: boolean;
}

/** Ledgers the rotation from `current` to `next` and stores the checkpoint that announces it. */
export async function rotateSigningKey(
  db: Db,
  current: NoteSigner,
  next: NoteSigner,
  now: Date,
): Promise<Rotation> {
  if (next.verifierKey === current.verifierKey) throw new Error('The new signing key is the current one.');
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LEDGER_LOCK_KEY}::bigint)`);
    const [latest] = await tx
      .select({ treeSize: ledgerCheckpoints.treeSize, note: ledgerCheckpoints.note })
      .from(ledgerCheckpoints)
      .orderBy(desc(ledgerCheckpoints.treeSize))
      .limit(1);
    // Already announced (a rerun after the key file could not be replaced): nothing to do again.
    if (latest && (await isKeyInForce(latest.note, next.verifierKey)))
      return { treeSize: Number(latest.treeSize), note: latest.note, made: false };
    if (!(await isKeyInForce(latest?.note ?? null, current.verifierKey)))
      throw new Error(
        'The configured signing key is not the one in force (the ledger was rotated to another key); nothing was changed.',
      );
    await appendLedgerEntry(
      tx,
      {
        kind: 'signing_key_rotation',
        content: { previousKey: current.verifierKey, nextKey: next.verifierKey },
      },
      { now },
    );
    const treeSize = await ledgerSize(tx);
    const rootHash = await rootAt(tx, treeSize);
    const text = rotationCheckpointText({ origin: current.name, treeSize, rootHash }, next.verifierKey);
    const note = formatSignedNote(text, [current.signature(text), next.signature(text)]);
    await tx.insert(ledgerCheckpoints).values({ treeSize, rootHash: hexOf(rootHash), note, createdAt: now });
    return { treeSize, note, made: true };
  });
}

/** The verifier key the ledger was first signed with: the first rotation's previous key, else `current`. */
async function firstKey(db: Db, current: string): Promise<string> {
  const [first] = await db
    .select({ content: ledgerContents.content })
    .from(ledgerEntries)
    .innerJoin(ledgerContents, eq(ledgerContents.seq, ledgerEntries.seq))
    .where(eq(ledgerEntries.kind, 'signing_key_rotation'))
    .orderBy(asc(ledgerEntries.seq))
    .limit(1);
  if (!first) return current;
  const { previousKey } = JSON.parse(first.content) as { previousKey?: unknown };
  return typeof previousKey === 'string' ? previousKey : current;
}

export interface CheckpointAudit {
  checkpoints: number;
  rotations: number;
  problems: string[];
}

/**
 * `ledger verify`'s check of every stored checkpoint: signed by the key in force at its place
 * (the first key up to its rotation's announcement, the next one after it, and so on), ending
 * at `currentKey` (the configured key), and its root the tree's root at its size.
 */
export async function auditCheckpoints(db: Db, currentKey: string): Promise<CheckpointAudit> {
  const problems: string[] = [];
  let key = parseVerifierKey(await firstKey(db, currentKey));
  const size = await ledgerSize(db);
  let count = 0;
  let rotations = 0;
  let after = -1;
  for (;;) {
    const page = await checkpointsAfter(db, after);
    for (const stored of page.checkpoints) {
      count++;
      try {
        const { key: inForce, checkpoints } = await followSigningKey([stored.note], key);
        if (checkpoints[0].nextKey) rotations++;
        key = inForce;
      } catch (err) {
        if (!(err instanceof NoteError)) throw err;
        problems.push(`Checkpoint of ${stored.treeSize} entries: ${err.message}`);
      }
      await checkRoot(db, stored, size, problems);
    }
    if (page.next === null) break;
    after = page.next;
  }
  const lastKey = formatVerifierKey(key.name, key.publicKey);
  if (count > 0 && lastKey !== currentKey)
    problems.push(
      `The checkpoints hand the log over to the key ${lastKey}, but this server signs with ${currentKey}.`,
    );
  return { checkpoints: count, rotations, problems };
}

async function checkRoot(db: Db, stored: StoredCheckpoint, size: number, problems: string[]) {
  if (stored.treeSize > size) {
    problems.push(
      `Checkpoint of ${stored.treeSize} entries: the ledger has fewer entries (history was cut).`,
    );
    return;
  }
  if (stored.treeSize > 0 && hexOf(await rootAt(db, stored.treeSize)) !== stored.rootHash)
    problems.push(`Checkpoint of ${stored.treeSize} entries: its root is not the tree's root at that size.`);
}

export interface RotateKeyConfig {
  dataDir: string;
  publicUrl: string;
  /** LEDGER_SIGNING_KEY when set; the key file is used otherwise. */
  ledgerSigningKey?: string;
  /** LEDGER_NEXT_SIGNING_KEY: the new seed, required when the key comes from LEDGER_SIGNING_KEY. */
  nextSigningKey?: string;
}

/**
 * `npm run ledger -- rotate-signing-key`. With the key in DATA_DIR/secrets/ledger.key a new seed
 * is made in ledger.key.next (kept there until the announcement is committed, so an interrupted
 * run resumes with the same key), then renamed over ledger.key. With LEDGER_SIGNING_KEY, the new
 * seed is LEDGER_NEXT_SIGNING_KEY, which the operator then sets as LEDGER_SIGNING_KEY.
 */
export async function runRotateSigningKey(
  db: Db,
  config: RotateKeyConfig,
  io: { out: (line: string) => void; err: (line: string) => void },
  now = new Date(),
): Promise<number> {
  const current = configuredNoteSigner({ ...config, keyHex: config.ledgerSigningKey });
  const keyFile = ledgerKeyFile(config.dataDir);
  const nextFile = `${keyFile}.next`;
  let nextSeed: Buffer;
  if (config.ledgerSigningKey) {
    if (!config.nextSigningKey) {
      io.err(
        'rotate-signing-key: the key comes from LEDGER_SIGNING_KEY; set LEDGER_NEXT_SIGNING_KEY to the new key (64 hex characters, e.g. `openssl rand -hex 32`).',
      );
      return 2;
    }
    nextSeed = parseSeed(config.nextSigningKey, 'LEDGER_NEXT_SIGNING_KEY');
  } else if (fs.existsSync(nextFile)) {
    nextSeed = parseSeed(fs.readFileSync(nextFile, 'utf8').trim(), nextFile);
  } else {
    nextSeed = crypto.randomBytes(32);
    writeKeyFile(nextFile, nextSeed);
  }
  const next = noteSigner(current.name, nextSeed);
  let rotation: Rotation;
  try {
    rotation = await rotateSigningKey(db, current, next, now);
  } catch (err) {
    io.err(`rotate-signing-key: ${(err as Error).message}`);
    return 1;
  }
  if (!config.ledgerSigningKey) {
    fs.renameSync(nextFile, keyFile);
    syncFolder(path.dirname(keyFile));
  }
  io.out(
    `${rotation.made ? 'Announced' : 'Already announced'} in the checkpoint of ${rotation.treeSize} entries, signed by both keys:`,
  );
  io.out(`  old key ${current.verifierKey}`);
  io.out(`  new key ${next.verifierKey}`);
  io.out(
    config.ledgerSigningKey
      ? 'Now set LEDGER_SIGNING_KEY to the value of LEDGER_NEXT_SIGNING_KEY, unset LEDGER_NEXT_SIGNING_KEY, and restart every server process.'
      : `The new key is in ${keyFile}. Restart every server process: until then they answer 503 instead of signing with the old key.`,
  );
  return 0;
}

function writeKeyFile(file: string, seed: Buffer) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, seed.toString('hex'));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  syncFolder(path.dirname(file));
}

function syncFolder(dir: string) {
  try {
    const fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch {
    // Windows cannot open folders; the rename is still atomic there.
  }
}
