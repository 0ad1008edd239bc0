// What the public /verify page asks the server: an entry by its hash, or the entry that covers a
// file by the file's SHA-256, then the tree head of the proof's size to check the proof against.
import type { EntryProof, FileVerification, TreeHead } from '../../../shared/ledger/api';
import { apiJson, errorStatus } from '../../api/request';
import { checkEntryProof, type ProofCheck } from './proof';

export type LookupResult =
  | { found: true; proof: EntryProof; head: TreeHead; check: ProofCheck; matchedBy: 'entry' | 'file' }
  | { found: false };

async function entryByHash(hash: string): Promise<EntryProof | null> {
  try {
    return await apiJson<EntryProof>('GET', `/api/ledger/entries/${hash}`);
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}

async function entryByFileHash(sha256: string): Promise<EntryProof | null> {
  const answer = await apiJson<FileVerification>('GET', `/api/ledger/files/${sha256}`);
  return answer.found ? answer.entry : null;
}

/**
 * A file's SHA-256 is looked up among the files records were uploaded with; a pasted hash is
 * first taken as a ledger entry's hash (the blockchain hash shown in the app), then as a file's.
 */
export async function lookUp(hash: string, source: 'file' | 'hash'): Promise<LookupResult> {
  let proof: EntryProof | null = null;
  let matchedBy: 'entry' | 'file' = 'file';
  if (source === 'hash') {
    proof = await entryByHash(hash);
    if (proof) matchedBy = 'entry';
  }
  proof ??= await entryByFileHash(hash);
  if (!proof) return { found: false };
  const head = await apiJson<TreeHead>('GET', `/api/ledger/head?treeSize=${proof.treeSize}`);
  return { found: true, proof, head, check: checkEntryProof(proof, head), matchedBy };
}
