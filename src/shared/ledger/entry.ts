// What a ledger entry's hash covers. The hash is SHA-256 over the UTF-8 bytes of the canonical
// JSON of this envelope: the entry's place (seq), time, kind, the ids it concerns and the content.
// The place and time are inside the hash so that two entries never share a hash and an entry
// cannot be moved in the ledger without its hash changing.
//
// Two formats (the envelope's `v`):
// - v1 (entries written before salted commitments): the content is inside the envelope.
// - v2: the envelope holds, instead of the content, one salted commitment per top-level content
//   field: SHA-256(salt || UTF-8(canonical JSON of [field name, value])), hex, with one random
//   32-byte salt per entry. The salt and the content are kept apart from the ledger (the server's
//   ledger_contents table, a receipt's `opening`); without them a commitment reveals nothing, and
//   deleting them (erasure) leaves the entry, its hash, the chain and the tree as they were.
import { canonicalJson, isPlainRecord } from './canonical.js';
import type { Hasher } from './merkle.js';
import { fromHex, sha256, toHex, utf8 } from './sha256.js';

export const LEDGER_KINDS = [
  'record_upload',
  'profile_change',
  'consent_change',
  'appointment_cancel',
  'record_entered_in_error',
  /** An erasure of another entry's opening (`npm run ledger -- erase`): which, who, why. */
  'content_erasure',
  /** A new signing key for checkpoints (`npm run ledger -- rotate-signing-key`): both verifier keys. */
  'signing_key_rotation',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Version of the envelope with the content inline (entries written before v2 keep it). */
export const LEDGER_ENTRY_VERSION = 1;
/** Version of the envelope that holds salted commitments instead of the content. */
export const LEDGER_COMMITTED_VERSION = 2;
/** Bytes of a v2 entry's salt. */
export const LEDGER_SALT_BYTES = 32;

export interface LedgerEnvelope {
  seq: number;
  createdAt: Date;
  kind: LedgerKind;
  recordId: string | null;
  patientId: string | null;
  userId: string | null;
  content: Record<string, unknown>;
}

/** The header both envelope versions share (canonicalJson sorts the keys, so order is free). */
function envelopeHeader(v: number, entry: Omit<LedgerEnvelope, 'content'>) {
  const { seq, createdAt, kind, recordId, patientId, userId } = entry;
  return { v, seq, createdAt, kind, recordId, patientId, userId };
}

export function entryCanonical(entry: LedgerEnvelope): string {
  return canonicalJson({ ...envelopeHeader(LEDGER_ENTRY_VERSION, entry), content: entry.content });
}

/** The v2 envelope: the entry's header plus the content's commitments (never the content). */
export interface CommittedEnvelope extends Omit<LedgerEnvelope, 'content'> {
  commitments: Record<string, string>;
}

export function committedEntryCanonical(entry: CommittedEnvelope): string {
  return canonicalJson({
    ...envelopeHeader(LEDGER_COMMITTED_VERSION, entry),
    commitments: entry.commitments,
  });
}

/** SHA-256(salt || UTF-8(canonical JSON of [name, value])), hex. */
export function fieldCommitment(
  salt: Uint8Array,
  name: string,
  value: unknown,
  hash: Hasher = sha256,
): string {
  const text = utf8(canonicalJson([name, value === undefined ? null : value]));
  const input = new Uint8Array(salt.length + text.length);
  input.set(salt, 0);
  input.set(text, salt.length);
  return toHex(hash(input));
}

/** The commitments of every top-level field of `content` (fields whose value is undefined are left out). */
export function contentCommitments(
  saltHex: string,
  content: Record<string, unknown>,
  hash: Hasher = sha256,
): Record<string, string> {
  const salt = fromHex(saltHex);
  const out: Record<string, string> = {};
  for (const name of Object.keys(content).sort()) {
    if (content[name] === undefined) continue;
    out[name] = fieldCommitment(salt, name, content[name], hash);
  }
  return out;
}

/** Whether the salt and content open the commitments exactly (same fields, same hashes). */
export function opensCommitments(
  commitments: unknown,
  saltHex: string,
  content: Record<string, unknown>,
  hash: Hasher = sha256,
): boolean {
  if (!isPlainRecord(commitments)) return false;
  if (!/^[0-9a-f]{64}$/.test(saltHex)) return false;
  let expected: Record<string, string>;
  try {
    expected = contentCommitments(saltHex, content, hash);
  } catch {
    return false;
  }
  // Field by field, what comparing the two canonical texts would say (a field left undefined is
  // not in a canonical text), without writing them: the audit opens every entry.
  const names = Object.keys(commitments).filter((name) => commitments[name] !== undefined);
  return (
    names.length === Object.keys(expected).length &&
    names.every((name) => Object.hasOwn(expected, name) && commitments[name] === expected[name])
  );
}

/** The format of a stored envelope (its `v`), or null when it is neither v1 nor v2. */
export function envelopeVersion(envelope: unknown): 1 | 2 | null {
  if (typeof envelope !== 'object' || envelope === null) return null;
  const v = (envelope as { v?: unknown }).v;
  return v === LEDGER_ENTRY_VERSION || v === LEDGER_COMMITTED_VERSION ? v : null;
}

/** The previous chain hash of the first entry: 32 zero bytes. */
export const GENESIS_CHAIN_HASH = '0'.repeat(64);

/** The chain rule: SHA-256(previous chain hash bytes || entry hash bytes). */
export function chainHash(previous: Uint8Array, entryHash: Uint8Array, hash: Hasher = sha256): Uint8Array {
  const input = new Uint8Array(previous.length + entryHash.length);
  input.set(previous, 0);
  input.set(entryHash, previous.length);
  return hash(input);
}
