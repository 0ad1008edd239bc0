// What a ledger entry's hash covers. The hash is SHA-256 over the UTF-8 bytes of the canonical
// JSON of this envelope: the entry's place (seq), time, kind, the ids it concerns and the content.
// The place and time are inside the hash so that two entries never share a hash and an entry
// cannot be moved in the ledger without its hash changing.
import { canonicalJson } from './canonical.js';
import type { Hasher } from './merkle.js';
import { sha256 } from './sha256.js';

export const LEDGER_KINDS = [
  'record_upload',
  'profile_change',
  'consent_change',
  'appointment_cancel',
  'record_entered_in_error',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Version of the envelope, so that the encoding can change later without breaking old entries. */
export const LEDGER_ENTRY_VERSION = 1;

export interface LedgerEnvelope {
  seq: number;
  createdAt: Date;
  kind: LedgerKind;
  recordId: string | null;
  patientId: string | null;
  userId: string | null;
  content: Record<string, unknown>;
}

export function entryCanonical(entry: LedgerEnvelope): string {
  return canonicalJson({
    v: LEDGER_ENTRY_VERSION,
    seq: entry.seq,
    createdAt: entry.createdAt,
    kind: entry.kind,
    recordId: entry.recordId,
    patientId: entry.patientId,
    userId: entry.userId,
    content: entry.content,
  });
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
