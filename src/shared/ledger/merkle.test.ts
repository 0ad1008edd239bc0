// The reference implementation in this test is node:crypto, independent of the code under test.
// eslint-disable-next-line no-restricted-imports
import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consistencyProofRanges,
  foldSubtrees,
  inclusionProofRanges,
  leafHash,
  rangeSubtrees,
  verifyConsistency,
  verifyInclusion,
  type LeafRange,
} from './merkle.js';

// The reference: RFC 9162 section 2.1 written out as naive recursion with node:crypto, sharing no
// code with merkle.ts.
const H = (...parts: Buffer[]) => crypto.createHash('sha256').update(Buffer.concat(parts)).digest();
const k = (n: number) => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return H();
  if (d.length === 1) return H(Buffer.from([0]), d[0]);
  return H(Buffer.from([1]), mth(d.slice(0, k(d.length))), mth(d.slice(k(d.length))));
}
function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s
    ? [...path(m, d.slice(0, s)), mth(d.slice(s))]
    : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const s = k(d.length);
  return m <= s
    ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))]
    : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
}
const proof = (m: number, d: Buffer[]) => subproof(m, d, true);

const data = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`entry ${i}`));

/** Proof hashes from the range form, as the server computes them from stored subtree hashes. */
function resolve(ranges: LeafRange[], d: Buffer[]): Buffer[] {
  return ranges.map((r) =>
    Buffer.from(
      foldSubtrees(
        rangeSubtrees(r).map(({ level, index }) =>
          mth(d.slice(index * 2 ** level, (index + 1) * 2 ** level)),
        ),
      ),
    ),
  );
}

const hex = (bs: Uint8Array[]) => bs.map((b) => Buffer.from(b).toString('hex'));

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[Math.floor(bit / 8) % out.length] ^= 1 << (bit % 8);
  return out;
}

describe('Merkle tree hashes (RFC 6962 test vectors)', () => {
  // The eight leaves and the roots of their prefixes from the certificate-transparency test data.
  const leaves = [
    '',
    '00',
    '10',
    '2021',
    '3031',
    '40414243',
    '5051525354555657',
    '606162636465666768696a6b6c6d6e6f',
  ].map((h) => Buffer.from(h, 'hex'));
  const roots = [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
    '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
    'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
    '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
  ];

  it('the naive reference reproduces the published roots', () => {
    roots.forEach((root, i) => expect(mth(leaves.slice(0, i + 1)).toString('hex')).toBe(root));
  });

  it('stored-subtree folding gives the published roots at every size', () => {
    roots.forEach((root, i) => {
      expect(hex(resolve([{ start: 0, end: i + 1 }], leaves))).toEqual([root]);
    });
  });

  it('the empty tree has the hash of the empty string as its root', () => {
    expect(Buffer.from(foldSubtrees([])).toString('hex')).toBe(H().toString('hex'));
  });

  it('hashes a leaf with the 0x00 prefix', () => {
    expect(Buffer.from(leafHash(leaves[1])).toString('hex')).toBe(
      H(Buffer.from([0]), leaves[1]).toString('hex'),
    );
  });
});

describe('inclusion proofs', () => {
  it('match the naive PATH for every leaf of trees up to 70 leaves, and verify', () => {
    for (let n = 1; n <= 70; n++) {
      const d = data(n);
      const root = mth(d);
      for (let m = 0; m < n; m++) {
        const got = resolve(inclusionProofRanges(m, n), d);
        expect(hex(got)).toEqual(hex(path(m, d)));
        expect(verifyInclusion(m, n, H(Buffer.from([0]), d[m]), got, root)).toBe(true);
      }
    }
  });

  it('refuses an index outside the tree', () => {
    expect(() => inclusionProofRanges(5, 5)).toThrow(RangeError);
    expect(verifyInclusion(5, 5, H(), [], H())).toBe(false);
    expect(verifyInclusion(-1, 5, H(), [], H())).toBe(false);
  });

  it('every proof verifies and has at most ceil(log2 n) hashes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.nat(), (n, seed) => {
        const m = seed % n;
        const d = data(n);
        const got = resolve(inclusionProofRanges(m, n), d);
        expect(got.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyInclusion(m, n, H(Buffer.from([0]), d[m]), got, mth(d))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('fails when any bit of the leaf, the root or a proof hash is flipped, or the index is wrong (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }), fc.nat(), fc.nat(), fc.nat(), (n, seed, which, bit) => {
        const m = seed % n;
        const d = data(n);
        const leaf = H(Buffer.from([0]), d[m]);
        const root = mth(d);
        const p = resolve(inclusionProofRanges(m, n), d);
        const b = bit % 256;
        const target = which % (p.length + 2);
        if (target < p.length) {
          const bad = p.map((x, i) => (i === target ? flipBit(x, b) : x));
          expect(verifyInclusion(m, n, leaf, bad, root)).toBe(false);
        } else if (target === p.length) {
          expect(verifyInclusion(m, n, flipBit(leaf, b), p, root)).toBe(false);
        } else {
          expect(verifyInclusion(m, n, leaf, p, flipBit(root, b))).toBe(false);
        }
        expect(verifyInclusion((m + 1) % n, n, leaf, p, root)).toBe(false);
        expect(verifyInclusion(m, n, leaf, p.slice(0, -1), root)).toBe(false);
        expect(verifyInclusion(m, n, leaf, [...p, H()], root)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('consistency proofs', () => {
  it('match the naive PROOF for every pair of sizes up to 50, and verify', () => {
    for (let n = 1; n <= 50; n++) {
      const d = data(n);
      for (let m = 1; m <= n; m++) {
        const got = resolve(consistencyProofRanges(m, n), d);
        expect(hex(got)).toEqual(m === n ? [] : hex(proof(m, d)));
        expect(verifyConsistency(m, n, mth(d.slice(0, m)), mth(d), got)).toBe(true);
      }
    }
  });

  it('treats the empty tree as extended by every tree, and refuses sizes out of order', () => {
    expect(consistencyProofRanges(0, 9)).toEqual([]);
    expect(verifyConsistency(0, 9, H(), mth(data(9)), [])).toBe(true);
    expect(verifyConsistency(0, 9, H(), mth(data(9)), [H()])).toBe(false);
    expect(() => consistencyProofRanges(5, 4)).toThrow(RangeError);
    expect(verifyConsistency(5, 4, H(), H(), [H()])).toBe(false);
  });

  it('equal sizes need equal roots and an empty proof', () => {
    const root = mth(data(6));
    expect(verifyConsistency(6, 6, root, root, [])).toBe(true);
    expect(verifyConsistency(6, 6, root, flipBit(root, 3), [])).toBe(false);
    expect(verifyConsistency(6, 6, root, root, [root])).toBe(false);
  });

  it('every proof verifies and has at most ceil(log2 n) + 1 hashes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.nat(), (n, seed) => {
        const m = 1 + (seed % n);
        const d = data(n);
        const got = resolve(consistencyProofRanges(m, n), d);
        expect(got.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 1);
        expect(verifyConsistency(m, n, mth(d.slice(0, m)), mth(d), got)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('fails when any bit of either root or of a proof hash is flipped (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }), fc.nat(), fc.nat(), fc.nat(), (n, seed, which, bit) => {
        const m = 1 + (seed % (n - 1)); // m < n, so the proof is not empty
        const d = data(n);
        const r1 = mth(d.slice(0, m));
        const r2 = mth(d);
        const p = resolve(consistencyProofRanges(m, n), d);
        const b = bit % 256;
        const target = which % (p.length + 2);
        if (target < p.length) {
          const bad = p.map((x, i) => (i === target ? flipBit(x, b) : x));
          expect(verifyConsistency(m, n, r1, r2, bad)).toBe(false);
        } else if (target === p.length) {
          expect(verifyConsistency(m, n, flipBit(r1, b), r2, p)).toBe(false);
        } else {
          expect(verifyConsistency(m, n, r1, flipBit(r2, b), p)).toBe(false);
        }
        expect(verifyConsistency(m, n, r1, r2, p.slice(1))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
