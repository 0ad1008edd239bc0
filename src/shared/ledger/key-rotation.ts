// Rotating the log's signing key (docs/decisions.md#ledger-signing-key-rotation): the new key is
// announced in a checkpoint signed by BOTH keys, whose one extension line names the new key
// (c2sp.org/tlog-checkpoint allows extension lines; readers that do not know it ignore it). A
// verifier that trusts the old key learns the new one from that statement: checkpoints up to
// and including the announcement are signed by the old key, those after it by the new one.
// This file is the one place that rule is written; the witness, `ledger verify` and receipts use it.
import {
  checkpointText,
  NoteError,
  openCheckpoint,
  parseVerifierKey,
  type Checkpoint,
  type VerifierKey,
} from './note.js';

/** What a server process answers (503) when asked to sign with a key retired by a rotation. */
export const RETIRED_KEY_MESSAGE =
  'The ledger signing key was rotated and this server process still holds the old key: restart it with the new one.';

/** The extension line's keyword; the next verifier key follows after one space. */
export const KEY_ROTATION_KEYWORD = 'medledger-key-rotation';

/** The text of a checkpoint that announces `nextKey` (a verifier key with the same name). */
export function rotationCheckpointText(checkpoint: Checkpoint, nextKey: string): string {
  return `${checkpointText(checkpoint)}${KEY_ROTATION_KEYWORD} ${nextKey}\n`;
}

/** The verifier key a checkpoint's text announces, or null for an ordinary checkpoint. */
export function announcedKey(text: string): string | null {
  const lines = text.split('\n').slice(3, -1);
  const found = lines.filter((l) => l.startsWith(`${KEY_ROTATION_KEYWORD} `));
  if (found.length === 0) return null;
  if (found.length > 1) throw new NoteError('The checkpoint announces more than one signing key.');
  return found[0].slice(KEY_ROTATION_KEYWORD.length + 1);
}

export interface OpenedCheckpoint extends Checkpoint {
  /** The key the checkpoint was checked with. */
  key: VerifierKey;
  /** The key it announces (checked: it signed the checkpoint too), or null. */
  nextKey: VerifierKey | null;
  /** The announced key as written (`nextKey`'s text), or null. */
  nextKeyText: string | null;
}

/**
 * Opens a checkpoint signed by `key`, the key in force. An announcement must also be signed by
 * the key it names, with the same name (the log's origin): without that second signature anyone
 * holding the old key alone could hand the log to a key of their own.
 */
export async function openCheckpointWithRotation(note: string, key: VerifierKey): Promise<OpenedCheckpoint> {
  const checkpoint = await openCheckpoint(note, key);
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const nextKeyText = announcedKey(text);
  if (nextKeyText === null) return { ...checkpoint, key, nextKey: null, nextKeyText };
  const nextKey = parseVerifierKey(nextKeyText);
  if (nextKey.name !== key.name)
    throw new NoteError(`The announced key is named "${nextKey.name}", not "${key.name}".`);
  await openCheckpoint(note, nextKey).catch((err: unknown) => {
    throw new NoteError(
      `The checkpoint announces a new signing key that did not sign it: ${(err as Error).message}`,
    );
  });
  return { ...checkpoint, key, nextKey, nextKeyText };
}

/**
 * Checks checkpoints oldest first from the key in force before the first one: each is signed by
 * the key in force, and an announcement hands over to its new key for the ones after it. Answers
 * the key in force after the last (the one to expect next). Throws NoteError at the first failure.
 */
export async function followSigningKey(
  notes: readonly string[],
  key: VerifierKey,
): Promise<{ key: VerifierKey; checkpoints: OpenedCheckpoint[] }> {
  const checkpoints: OpenedCheckpoint[] = [];
  let inForce = key;
  for (const note of notes) {
    const opened = await openCheckpointWithRotation(note, inForce);
    checkpoints.push(opened);
    if (opened.nextKey) inForce = opened.nextKey;
  }
  return { key: inForce, checkpoints };
}

/**
 * Whether `verifierKey` is the key in force after the latest stored checkpoint: it signed that
 * checkpoint without announcing another, or that checkpoint announced it. True before the first.
 */
export async function isKeyInForce(latestNote: string | null, verifierKey: string): Promise<boolean> {
  if (latestNote === null) return true;
  try {
    const opened = await openCheckpointWithRotation(latestNote, parseVerifierKey(verifierKey));
    return opened.nextKeyText === null || opened.nextKeyText === verifierKey;
  } catch (err) {
    if (err instanceof NoteError) return false;
    throw err;
  }
}
