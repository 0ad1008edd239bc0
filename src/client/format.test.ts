import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, localDayBounds, truncateHash } from './format';

describe('hospital dashboard formatting', () => {
  it("gives a local day's bounds as 24 hours of instants", () => {
    const { from, to } = localDayBounds('2026-03-05');
    expect(new Date(from).getDate()).toBe(5);
    expect(new Date(from).getHours()).toBe(0);
    expect(new Date(to).getTime() - new Date(from).getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(new Date(to).getDate()).toBe(6);
  });

  it('shows a date of birth on its own calendar day and "Unknown" for a missing time', () => {
    expect(formatDate('2000-01-01')).toBe(new Date(2000, 0, 1).toLocaleDateString());
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(null)).toBe('Unknown');
    expect(formatDateTime('not a date')).toBe('Unknown');
  });

  it('cuts a hash to 16 characters', () => {
    expect(truncateHash('a'.repeat(64))).toBe('a'.repeat(16));
    expect(truncateHash(null)).toBe('');
  });
});
