// Merkle tree of the ledger in the form of RFC 6962 / RFC 9162 (section 2.1): a leaf is
// SHA-256(0x00 || entry hash bytes), an inner node SHA-256(0x01 || left || right), and a tree of
// n leaves splits at the largest power of two below n. This file holds the pure parts: hashing,
// verifying inclusion and consistency proofs (used by the browser and the server), and the shape
// of a proof as a list of leaf ranges, which the server fills from stored subtree hashes.
import { sha256 } from './sha256.js';

export type Hasher = (data: Uint8Array) => Uint8Array;

export function leafHash(entryHash: Uint8Array, hash: Hasher = sha256): Uint8Array {
  const input = new Uint8Array(1 + entryHash.length);
  input[0] = 0x00;
  input.set(entryHash, 1);
  return hash(input);
}

export function nodeHash(left: Uint8Array, right: Uint8Array, hash: Hasher = sha256): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return hash(input);
}

/** The root of an empty tree: the hash of the empty string. */
export const emptyRoot = (hash: Hasher = sha256) => hash(new Uint8Array(0));

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Largest power of two strictly below n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isSafeCount = (n: number) => Number.isSafeInteger(n) && n >= 0;

/**
 * RFC 9162 section 2.1.3.2: does `proof` show that `leaf` (a leaf hash) is leaf number `index` of
 * the tree of `size` leaves whose root is `root`?
 */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
  hash: Hasher = sha256,
): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof, hash);
  return computed !== null && bytesEqual(computed, root);
}

/** The root an inclusion proof leads to, or null when the proof has the wrong shape. */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  hash: Hasher = sha256,
): Uint8Array | null {
  if (!isSafeCount(index) || !isSafeCount(size) || index >= size) return null;
  const at: Cursor = { fn: index, sn: size - 1 };
  let r = leaf;
  for (const p of proof) {
    if (at.sn === 0) return null;
    if (at.fn % 2 === 1 || at.fn === at.sn) {
      r = nodeHash(p, r, hash);
      shiftUntilSetBit(at);
    } else {
      r = nodeHash(r, p, hash);
    }
    shift(at);
  }
  return at.sn === 0 ? r : null;
}

/** RFC 9162's fn and sn, the two indices the proof checks walk up the tree. */
interface Cursor {
  fn: number;
  sn: number;
}
/**
 * One level up: both right-shifted by one. Numbers above 2^31 would break JavaScript's 32-bit
 * shift operators, so halve by division.
 */
function shift(at: Cursor): void {
  at.fn = Math.floor(at.fn / 2);
  at.sn = Math.floor(at.sn / 2);
}
/** "Right-shift fn and sn until LSB(fn) is set or fn is 0". */
function shiftUntilSetBit(at: Cursor): void {
  while (at.fn % 2 === 0 && at.fn !== 0) shift(at);
}

/**
 * RFC 9162 section 2.1.4.2: does `proof` show that the tree of `size2` leaves with root `root2`
 * extends the tree of `size1` leaves with root `root1`? Equal sizes need an empty proof and equal
 * roots; every tree extends the empty tree.
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  root1: Uint8Array,
  root2: Uint8Array,
  proof: readonly Uint8Array[],
  hash: Hasher = sha256,
): boolean {
  if (!isSafeCount(size1) || !isSafeCount(size2) || size1 > size2) return false;
  if (size1 === size2) return proof.length === 0 && bytesEqual(root1, root2);
  if (size1 === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  const at: Cursor = { fn: size1 - 1, sn: size2 - 1 };
  while (at.fn % 2 === 1) shift(at);
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (at.sn === 0) return false;
    if (at.fn % 2 === 1 || at.fn === at.sn) {
      fr = nodeHash(c, fr, hash);
      sr = nodeHash(c, sr, hash);
      shiftUntilSetBit(at);
    } else {
      sr = nodeHash(sr, c, hash);
    }
    shift(at);
  }
  return at.sn === 0 && bytesEqual(fr, root1) && bytesEqual(sr, root2);
}

const isPowerOfTwo = (n: number) => n > 0 && Number.isInteger(Math.log2(n)) && 2 ** Math.log2(n) === n;

/** A run of leaves [start, end) whose Merkle hash is one element of a proof. */
export interface LeafRange {
  start: number;
  end: number;
}

/** RFC 9162 section 2.1.3.1 (PATH): the ranges whose hashes form leaf `index`'s inclusion proof. */
export function inclusionProofRanges(index: number, size: number): LeafRange[] {
  if (!isSafeCount(index) || !isSafeCount(size) || index >= size) throw new RangeError('index out of range');
  const out: LeafRange[] = [];
  // Walk down from the whole tree; the proof lists siblings from the leaf up, so prepend.
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      out.unshift({ start: start + k, end });
      end = start + k;
    } else {
      out.unshift({ start, end: start + k });
      start += k;
    }
  }
  return out;
}

/** RFC 9162 section 2.1.4.1 (PROOF / SUBPROOF): the ranges of the consistency proof from size1 to size2. */
export function consistencyProofRanges(size1: number, size2: number): LeafRange[] {
  if (!isSafeCount(size1) || !isSafeCount(size2) || size1 > size2) throw new RangeError('sizes out of order');
  if (size1 === 0 || size1 === size2) return [];
  const out: LeafRange[] = [];
  let m = size1;
  let start = 0;
  let end = size2;
  let complete = true; // SUBPROOF's b: whether the old tree is this subtree exactly
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      out.unshift({ start: start + k, end });
      end = start + k;
    } else {
      out.unshift({ start, end: start + k });
      m -= k;
      start += k;
      complete = false;
    }
  }
  if (!complete) out.unshift({ start, end });
  return out;
}

/**
 * The complete subtrees (level, index: leaves [index * 2^level, (index + 1) * 2^level)) that make
 * up a range, left to right. Proof ranges always start at a multiple of a power of two at least
 * as large as themselves, so these are subtrees the server keeps.
 */
export function rangeSubtrees(range: LeafRange): Array<{ level: number; index: number }> {
  const out: Array<{ level: number; index: number }> = [];
  let pos = range.start;
  let remaining = range.end - range.start;
  while (remaining > 0) {
    let size = 1;
    let level = 0;
    while (size * 2 <= remaining) {
      size *= 2;
      level++;
    }
    if (pos % size !== 0) throw new RangeError('range is not aligned');
    out.push({ level, index: pos / size });
    pos += size;
    remaining -= size;
  }
  return out;
}

/** The Merkle hash of a range from the hashes of its complete subtrees (left to right). */
export function foldSubtrees(hashes: readonly Uint8Array[], hash: Hasher = sha256): Uint8Array {
  if (hashes.length === 0) return emptyRoot(hash);
  let acc = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i], acc, hash);
  return acc;
}
