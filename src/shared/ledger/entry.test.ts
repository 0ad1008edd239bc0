// The reference implementation in this test is node:crypto, independent of the code under test.
// eslint-disable-next-line no-restricted-imports
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainHash, GENESIS_CHAIN_HASH } from './entry';

describe('chainHash', () => {
  it('is SHA-256 of the previous chain hash bytes followed by the entry hash bytes', () => {
    const previous = Buffer.from(GENESIS_CHAIN_HASH, 'hex');
    const entry = crypto.createHash('sha256').update('entry').digest();
    const expected = crypto.createHash('sha256').update(previous).update(entry).digest('hex');
    expect(Buffer.from(chainHash(previous, entry)).toString('hex')).toBe(expected);
    expect(Buffer.from(chainHash(entry, previous)).toString('hex')).not.toBe(expected);
  });
});
