import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pagingQuerySchema } from './paging';
import { decimalOnly } from './query-numbers';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe('decimalOnly', () => {
  const after = decimalOnly(
    z.coerce
      .number({ error: 'after must be a number' })
      .int('after must be a whole number')
      .min(-1, 'after must be -1 or more')
      .max(1000, 'after must be at most 1000')
      .default(-1),
  );

  it('passes decimal numbers, and a missing value, on to the schema', () => {
    expect(after.parse('0')).toBe(0);
    expect(after.parse('007')).toBe(7);
    expect(after.parse('-1')).toBe(-1);
    expect(after.parse('1000')).toBe(1000);
    expect(after.parse(undefined)).toBe(-1);
  });

  it("refuses what Number() would read as another number, with the schema's own messages", () => {
    for (const [value, message] of [
      ['0x10', 'after must be a number'],
      ['0b1', 'after must be a number'],
      ['0o7', 'after must be a number'],
      ['1e1', 'after must be a number'],
      [' 1', 'after must be a number'],
      ['1 ', 'after must be a number'],
      ['', 'after must be a number'],
      ['+1', 'after must be a number'],
      ['Infinity', 'after must be a number'],
      ['ten', 'after must be a number'],
      ['1.5', 'after must be a whole number'],
      ['-2', 'after must be -1 or more'],
      ['1001', 'after must be at most 1000'],
    ]) {
      expect(messages(after.safeParse(value)), value).toEqual([message]);
    }
    // A repeated key (?after=1&after=2) arrives as an array.
    expect(messages(after.safeParse(['1', '2']))).toEqual(['after must be a number']);
  });

  it('keeps paging as it was for well-formed queries', () => {
    expect(pagingQuerySchema.parse({})).toEqual({ page: 1, pageSize: 50 });
    expect(pagingQuerySchema.parse({ page: '3', pageSize: '20' })).toEqual({ page: 3, pageSize: 20 });
    expect(messages(pagingQuerySchema.safeParse({ page: '0x10' }))).toEqual(['page must be a number']);
  });
});
