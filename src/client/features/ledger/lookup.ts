// What the public /verify page asks the server: an entry by its hash, or the entry that covers a
// file by the file's SHA-256, then the tree head of the proof's size to check the proof against.
import type {
  EntryLookup,
  EntryProof,
  FileVerification,
  RecordFate,
  TreeHead,
} from '../../../shared/ledger/api';
import { apiJson, errorStatus } from '../../api/request';
import { checkEntryProof, type ProofCheck } from './proof';

export type LookupResult =
  | {
      found: true;
      proof: EntryProof;
      head: TreeHead;
      check: ProofCheck;
      matchedBy: 'entry' | 'file';
      /** For a file: whether its record is current, amended since, or entered in error. */
      fate: RecordFate | null;
      /** Whether the record's hospital is a verified provider; null when the entry is about no record. */
      providerVerified: boolean | null;
    }
  | { found: false };

async function entryByHash(hash: string): Promise<EntryLookup | null> {
  try {
    return await apiJson<EntryLookup>('GET', `/api/ledger/entries/${hash}`);
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}

async function entryByFileHash(
  sha256: string,
): Promise<{ entry: EntryProof; fate: RecordFate | null; providerVerified: boolean | null } | null> {
  const answer = await apiJson<FileVerification>('GET', `/api/ledger/files/${sha256}`);
  return answer.found && answer.entry
    ? { entry: answer.entry, fate: answer.fate ?? null, providerVerified: answer.providerVerified ?? null }
    : null;
}

/**
 * A file's SHA-256 is looked up among the files records were uploaded with; a pasted hash is
 * first taken as a ledger entry's hash (the blockchain hash shown in the app), then as a file's.
 */
export async function lookUp(hash: string, source: 'file' | 'hash'): Promise<LookupResult> {
  let proof: EntryProof | null = null;
  let fate: RecordFate | null = null;
  let providerVerified: boolean | null = null;
  let matchedBy: 'entry' | 'file' = 'file';
  if (source === 'hash') {
    const byEntry = await entryByHash(hash);
    if (byEntry) {
      const { providerVerified: verified, ...entry } = byEntry;
      proof = entry;
      providerVerified = verified ?? null;
      matchedBy = 'entry';
    }
  }
  if (!proof) {
    const byFile = await entryByFileHash(hash);
    proof = byFile?.entry ?? null;
    fate = byFile?.fate ?? null;
    providerVerified = byFile?.providerVerified ?? null;
  }
  if (!proof) return { found: false };
  const head = await apiJson<TreeHead>('GET', `/api/ledger/head?treeSize=${proof.treeSize}`);
  return { found: true, proof, head, check: checkEntryProof(proof, head), matchedBy, fate, providerVerified };
}
