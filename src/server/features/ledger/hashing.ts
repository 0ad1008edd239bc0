// The server's one SHA-256 and the ledger's hashing rules bound to it. The rules themselves (leaf
// 0x00, node 0x01, chain) are written once in shared/ledger, so that the checkers (tree.ts,
// verify.ts, integrity.ts) and the browser all hash the same way. The one other copy is the
// append's, in the database (medledger_append, migration 0024: one statement under the ledger
// lock); the ledger tests and the audit recompute everything it writes with these.
import crypto from 'node:crypto';
import { chainHash } from '../../../shared/ledger/entry.js';
import { leafHash, nodeHash, type Hasher } from '../../../shared/ledger/merkle.js';

/**
 * SHA-256 with Node's native implementation (the shared one is pure JS, for the browser). The
 * digest is asked for as a latin1 ('binary') string and turned into bytes here: on Node 20,
 * `crypto.hash` with the output 'buffer' took 1.4 µs a call against 0.5 µs this way, and the audit
 * makes about 25 calls per record entry (its commitments, checked twice).
 */
export const sha256: Hasher = (data) => Buffer.from(crypto.hash('sha256', data, 'binary'), 'binary');
export { sha256Hex } from '../../digest.js';

export const hexOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
export const bytesOf = (hex: string): Uint8Array => Buffer.from(hex, 'hex');

export const leafOf = (entryHash: Uint8Array) => leafHash(entryHash, sha256);
export const nodeOf = (left: Uint8Array, right: Uint8Array) => nodeHash(left, right, sha256);

/** Chain hash of an entry from the previous chain hash and the entry hash, all hex. */
export const chainHashOf = (previousChainHash: string, entryHash: string): string =>
  hexOf(chainHash(bytesOf(previousChainHash), bytesOf(entryHash), sha256));
