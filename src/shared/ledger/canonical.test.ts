import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"Z":3,"z":2,"é":1}');
  });

  it('leaves out undefined values, writes dates as ISO-8601 UTC and escapes strings as JSON does', () => {
    expect(
      canonicalJson({ a: undefined, d: new Date('2025-05-06T07:08:09.010Z'), s: 'line\n"q"\u2028' }),
    ).toBe(`{"d":"2025-05-06T07:08:09.010Z","s":${JSON.stringify('line\n"q"\u2028')}}`);
  });

  it('refuses values without one obvious encoding', () => {
    expect(() => canonicalJson({ n: NaN })).toThrow(/finite/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/finite/);
    expect(() => canonicalJson({ b: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson({ m: new Map() })).toThrow(/plain objects/);
    expect(() => canonicalJson({ d: new Date('nope') })).toThrow(/invalid date/);
  });

  it('says where in the value the refused part is', () => {
    expect(() => canonicalJson({ a: [1, { n: NaN }] })).toThrow('$.a[1].n: numbers must be finite');
    expect(() => canonicalJson([{ ok: 1 }, [() => 0]])).toThrow('$[1][0]: function cannot be encoded');
    expect(() => canonicalJson({ m: { inner: new Map() } })).toThrow('$.m.inner: only plain objects');
    // A refused value inside a sibling does not leave its key on the path of the next error.
    expect(() => canonicalJson({ a: { b: 1 }, c: new Date('nope') })).toThrow('$.c: invalid date');
  });

  it('gives the same text for the same value whatever the key order, and parses back to it (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const shuffled = JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        );
        expect(canonicalJson(shuffled)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
