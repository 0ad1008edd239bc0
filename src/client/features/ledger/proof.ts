// Browser-side ledger checks: the SHA-256 of a file (computed here, the file never leaves the
// browser) and the RFC 9162 inclusion proof of an entry checked against a tree head with the
// shared Merkle functions, so the answer does not rest on the server's word alone.
import type { EntryProof, TreeHead } from '../../../shared/ledger/api';
import { leafHash, verifyInclusion } from '../../../shared/ledger/merkle';
import { fromHex, HASH_HEX, sha256, toHex } from '../../../shared/ledger/sha256';

export const KIND_LABELS: Record<string, string> = {
  record_upload: 'Medical record upload',
  profile_change: 'Profile change',
  consent_change: 'Consent change',
  appointment_cancel: 'Appointment cancellation',
  record_entered_in_error: 'Record marked as entered in error',
  content_erasure: 'Erasure of an entry’s content',
};

export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind.replace(/_/g, ' ');

/** "1 hash", "3 hashes", "1 entry", "5 entries". */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The first 16 characters of a hash, as lists show it. */
export const shortHash = (hash: string | null | undefined) => (hash ? `${hash.slice(0, 16)}…` : '');

/** A pasted hash, trimmed and lower-cased, or null when it is not 64 hex characters. */
export function normaliseHash(input: string): string | null {
  const value = input.trim().toLowerCase();
  return HASH_HEX.test(value) ? value : null;
}

/** SHA-256 of bytes: Web Crypto where the page is a secure context, the shared code otherwise. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return toHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
  return toHex(sha256(bytes));
}

export async function fileSha256(file: Blob): Promise<string> {
  return sha256Hex(new Uint8Array(await file.arrayBuffer()));
}

export interface ProofCheck {
  ok: boolean;
  /** What was checked, or what failed, in words. */
  detail: string;
}

/**
 * Does the entry's audit path lead from its leaf to the root of `head`? The head must be of the
 * same tree size as the proof (ask for /api/ledger/head?treeSize=<proof.treeSize>).
 */
export function checkEntryProof(proof: EntryProof, head: TreeHead): ProofCheck {
  if (head.treeSize !== proof.treeSize) {
    return {
      ok: false,
      detail: `The tree head is of ${head.treeSize} entries, the proof of ${proof.treeSize}.`,
    };
  }
  try {
    const ok = verifyInclusion(
      proof.leafIndex,
      proof.treeSize,
      leafHash(fromHex(proof.hash)),
      proof.auditPath.map(fromHex),
      fromHex(head.rootHash),
    );
    return ok
      ? {
          ok: true,
          detail: `The inclusion proof (${plural(proof.auditPath.length, 'hash', 'hashes')}) leads to the root of the ledger of ${plural(proof.treeSize, 'entry', 'entries')}.`,
        }
      : { ok: false, detail: 'The inclusion proof does not lead to the ledger root.' };
  } catch {
    return { ok: false, detail: 'The server sent a malformed proof.' };
  }
}
