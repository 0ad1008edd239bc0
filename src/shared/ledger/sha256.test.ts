// The reference implementation in this test is node:crypto, independent of the code under test.
// eslint-disable-next-line no-restricted-imports
import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, sha256, toHex, utf8 } from './sha256.js';

const reference = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('utf8', () => {
  it('gives the bytes TextEncoder gives, for ASCII, any Unicode (lone surrogates too) and long texts', () => {
    const reference = new TextEncoder();
    for (const text of ['', 'abc', 'é', '\u007f\u0080', 'a'.repeat(256) + 'é', 'x'.repeat(300), '\ud800']) {
      expect(utf8(text)).toEqual(reference.encode(text));
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })),
        (text) => {
          expect(utf8(text)).toEqual(reference.encode(text));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('sha256', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(toHex(sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(toHex(sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(toHex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto on every length around the block boundaries and on random input', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(toHex(sha256(bytes))).toBe(reference(bytes));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        expect(toHex(sha256(bytes))).toBe(reference(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips hex and refuses what is not hex', () => {
    expect(toHex(fromHex('00ff10Ab'))).toBe('00ff10ab');
    expect(() => fromHex('abc')).toThrow();
    expect(() => fromHex('zz')).toThrow();
  });
});
