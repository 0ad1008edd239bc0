// The reference implementation in this test is node:crypto, independent of the code under test.
// eslint-disable-next-line no-restricted-imports
import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import { chainHash, contentCommitments, GENESIS_CHAIN_HASH, opensCommitments } from './entry';

describe('chainHash', () => {
  it('is SHA-256 of the previous chain hash bytes followed by the entry hash bytes', () => {
    const previous = Buffer.from(GENESIS_CHAIN_HASH, 'hex');
    const entry = crypto.createHash('sha256').update('entry').digest();
    const expected = crypto.createHash('sha256').update(previous).update(entry).digest('hex');
    expect(Buffer.from(chainHash(previous, entry)).toString('hex')).toBe(expected);
    expect(Buffer.from(chainHash(entry, previous)).toString('hex')).not.toBe(expected);
  });
});

describe('opensCommitments', () => {
  const salt = 'ab'.repeat(32);
  const sameCanonicalText = (commitments: unknown, content: Record<string, unknown>) => {
    try {
      return canonicalJson(contentCommitments(salt, content)) === canonicalJson(commitments);
    } catch {
      return false;
    }
  };

  it('opens exactly when the canonical texts of the commitments agree, whatever was changed (property)', () => {
    const content = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    const change = fc.constantFrom('none', 'drop', 'add', 'alter', 'undefined', 'number', 'reorder', 'class');
    fc.assert(
      fc.property(content, change, fc.nat(), (value, how, at) => {
        const expected = contentCommitments(salt, value);
        let given: Record<string, unknown> = { ...expected };
        const names = Object.keys(expected);
        const name = names.length > 0 ? names[at % names.length] : 'x';
        if (how === 'drop') delete given[name];
        if (how === 'add') given['extra field'] = 'cd'.repeat(32);
        if (how === 'alter') given[name] = 'ef'.repeat(32);
        if (how === 'undefined') given['left out'] = undefined;
        if (how === 'number') given[name] = 7;
        if (how === 'reorder') given = Object.fromEntries(Object.entries(given).reverse());
        if (how === 'class') given = Object.assign(new (class Commitments {})(), given);
        expect(opensCommitments(given, salt, value)).toBe(sameCanonicalText(given, value));
        if (how === 'none' || how === 'undefined' || how === 'reorder')
          expect(opensCommitments(given, salt, value)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a salt that is not 64 lowercase hex characters and commitments that are not an object', () => {
    const content = { title: 'Scan' };
    const commitments = contentCommitments(salt, content);
    expect(opensCommitments(commitments, salt, content)).toBe(true);
    expect(opensCommitments(commitments, salt.toUpperCase(), content)).toBe(false);
    expect(opensCommitments([commitments], salt, content)).toBe(false);
    expect(opensCommitments(null, salt, content)).toBe(false);
  });
});
