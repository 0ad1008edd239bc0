import { describe, expect, it } from 'vitest';
import {
  foldSubtrees,
  inclusionProofRanges,
  leafHash,
  nodeHash,
  rangeSubtrees,
} from '../../../shared/ledger/merkle';
import { sha256, toHex, utf8 } from '../../../shared/ledger/sha256';
import { checkEntryProof, fileSha256, normaliseHash, sha256Hex } from './proof';

// A small ledger built in the test: entry hashes, leaves, and proofs from the shared range form.
const entryHashes = Array.from({ length: 11 }, (_, i) => sha256(utf8(`entry ${i}`)));
const leaves = entryHashes.map((h) => leafHash(h));
function mth(from: number, to: number): Uint8Array {
  if (to - from === 1) return leaves[from];
  let k = 1;
  while (k * 2 < to - from) k *= 2;
  return nodeHash(mth(from, from + k), mth(from + k, to));
}
const hashOf = (start: number, end: number) =>
  foldSubtrees(
    rangeSubtrees({ start, end }).map(({ level, index }) =>
      mth(index * 2 ** level, (index + 1) * 2 ** level),
    ),
  );
const proofFor = (index: number, size = leaves.length) => ({
  hash: toHex(entryHashes[index]),
  leafIndex: index,
  treeSize: size,
  rootHash: toHex(mth(0, size)),
  auditPath: inclusionProofRanges(index, size).map((r) => toHex(hashOf(r.start, r.end))),
  createdAt: '2025-01-01T00:00:00.000Z',
  kind: 'record_upload',
});

describe('checkEntryProof', () => {
  it('accepts the proof of every entry against the tree head', () => {
    for (let i = 0; i < leaves.length; i++) {
      const proof = proofFor(i);
      expect(checkEntryProof(proof, { treeSize: proof.treeSize, rootHash: proof.rootHash }).ok).toBe(true);
    }
  });

  it('refuses a proof against another root, another size, a changed path or a malformed hash', () => {
    const proof = proofFor(5);
    const head = { treeSize: proof.treeSize, rootHash: proof.rootHash };
    expect(checkEntryProof(proof, { ...head, rootHash: toHex(mth(0, 10)) }).ok).toBe(false);
    expect(checkEntryProof(proof, { ...head, treeSize: 10 })).toMatchObject({
      ok: false,
      detail: expect.stringContaining('10 entries'),
    });
    const changed = {
      ...proof,
      auditPath: [proof.auditPath[1], proof.auditPath[0], ...proof.auditPath.slice(2)],
    };
    expect(checkEntryProof(changed, head).ok).toBe(false);
    expect(checkEntryProof({ ...proof, leafIndex: 4 }, head).ok).toBe(false);
    expect(checkEntryProof({ ...proof, auditPath: ['zz'] }, head)).toMatchObject({
      ok: false,
      detail: 'The server sent a malformed proof.',
    });
  });
});

describe('hashing in the browser', () => {
  it('hashes a file with Web Crypto to the same value as the shared SHA-256', async () => {
    const bytes = utf8('%PDF-1.4 a small file');
    expect(await fileSha256(new Blob([bytes as Uint8Array<ArrayBuffer>]))).toBe(toHex(sha256(bytes)));
    expect(await sha256Hex(new Uint8Array(0))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('accepts a pasted hash in any case with spaces around it, and nothing else', () => {
    expect(normaliseHash(`  ${'AB'.repeat(32)} `)).toBe('ab'.repeat(32));
    expect(normaliseHash('ab'.repeat(31))).toBeNull();
    expect(normaliseHash('xy'.repeat(32))).toBeNull();
  });
});
