import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, localDayBounds, plural, showingRange, truncateHash } from './format';

describe('hospital dashboard formatting', () => {
  it("gives a local day's bounds as 24 hours of instants", () => {
    const { from, to } = localDayBounds('2026-03-05');
    expect(new Date(from).getDate()).toBe(5);
    expect(new Date(from).getHours()).toBe(0);
    expect(new Date(to).getTime() - new Date(from).getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(new Date(to).getDate()).toBe(6);
  });

  it('shows a date of birth on its own calendar day and "Unknown" for a missing time', () => {
    expect(formatDate('2000-01-01')).toBe('Jan 1, 2000');
    expect(formatDateTime('2026-11-23T14:00:00.000Z', 'Unknown', 'America/Los_Angeles')).toBe(
      'Nov 23, 2026, 6:00 AM',
    );
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(null)).toBe('Unknown');
    expect(formatDateTime('not a date')).toBe('Unknown');
  });

  it('cuts a hash to 16 characters', () => {
    expect(truncateHash('a'.repeat(64))).toBe('a'.repeat(16));
    expect(truncateHash(null)).toBe('');
  });
});

describe('counts', () => {
  it('use the English plural rules', () => {
    expect(plural(1, 'appointment', 'appointments')).toBe('1 appointment');
    expect(plural(0, 'appointment', 'appointments')).toBe('0 appointments');
    expect(plural(2, 'appointment', 'appointments')).toBe('2 appointments');
  });

  it('say what part of a paged list is shown, and say so plainly when it is empty', () => {
    expect(showingRange({ from: 1, to: 50, total: 52 }, 'patient', 'patients')).toBe(
      'Showing 1–50 of 52 patients',
    );
    expect(showingRange({ from: 1, to: 1, total: 1 }, 'patient', 'patients')).toBe(
      'Showing 1–1 of 1 patient',
    );
    expect(showingRange({ from: 0, to: 0, total: 0 }, 'patient', 'patients')).toBe('No patients');
  });
});
