// The one time module: zones checked by the runtime, wall-clock times placed in a zone (across a
// daylight-saving change too), days and clocks read in a zone, and relative times.
import { describe, expect, it } from 'vitest';
import {
  clockIn,
  dayKeyIn,
  formatInstantWithZone,
  formatRelative,
  instantIn,
  isTimeZone,
  nextDayKey,
  timeZones,
} from './time';
import { timeZoneSchema } from './fields';

describe('time zones', () => {
  it('accepts the zones the runtime knows and refuses anything else', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(timeZoneSchema.safeParse('Nowhere').success).toBe(false);
    expect(timeZoneSchema.parse(' europe/berlin ')).toBe('Europe/Berlin');
    expect(timeZoneSchema.parse('utc')).toBe('UTC');
    expect(timeZones()).toContain('UTC');
    expect(timeZones()).toContain('America/Los_Angeles');
  });

  it('places a wall-clock time in a zone, on both sides of a daylight-saving change', () => {
    // Berlin moves its clocks forward on 29 March 2026.
    expect(instantIn('2026-03-28', '10:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T09:00:00.000Z');
    expect(instantIn('2026-03-30', '10:00', 'Europe/Berlin').toISOString()).toBe('2026-03-30T08:00:00.000Z');
  });

  it('reads the day and the clock of an instant in a zone', () => {
    const late = new Date('2026-11-26T01:30:00.000Z');
    expect(dayKeyIn(late, 'America/Los_Angeles')).toBe('2026-11-25');
    expect(clockIn(late, 'America/Los_Angeles')).toBe('17:30');
    expect(dayKeyIn(late, 'UTC')).toBe('2026-11-26');
    expect(nextDayKey('2026-12-31')).toBe('2027-01-01');
    expect(formatInstantWithZone(late, 'Asia/Tokyo')).toBe('Nov 26, 2026, 10:30 AM (Asia/Tokyo)');
  });
});

describe('relative times', () => {
  const now = new Date('2026-11-23T12:00:00.000Z');
  it('says the largest whole unit, in words where English has them', () => {
    expect(formatRelative('2026-11-25T12:00:00.000Z', now)).toBe('in 2 days');
    expect(formatRelative('2026-11-24T12:00:00.000Z', now)).toBe('tomorrow');
    expect(formatRelative('2026-11-23T15:00:00.000Z', now)).toBe('in 3 hours');
    expect(formatRelative('2026-11-23T11:30:00.000Z', now)).toBe('30 minutes ago');
    expect(formatRelative('2026-11-23T12:00:20.000Z', now)).toBe('now');
  });
});
