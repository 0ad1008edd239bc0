// Time, once (issue 15, docs/decisions.md#time): every date and time a person reads goes through
// this module, on the server (audit texts, e-mails) and in the browser. Instants are stored in UTC;
// a hospital has an IANA time zone, and its calendar, slots and texts are in that zone. A patient
// sees times in their own zone, with the zone named when it differs from the hospital's.
import { TZDate } from '@date-fns/tz';

export { isTimeZone, localTimeZone, TIME_ZONE_MESSAGE } from './time-zone.js';

/** Every zone the runtime lists, for a picker (with UTC, which some runtimes leave out). */
export function timeZones(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return listed.includes('UTC') ? listed : ['UTC', ...listed];
}

type Instant = Date | string;
const toDate = (value: Instant) => (value instanceof Date ? value : new Date(value));

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    formatters.set(key, f);
  }
  return f;
}

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** "Nov 23, 2026" in `zone` (the runtime's zone when none is given). */
export const formatDay = (value: Instant, zone?: string) => formatter(zone, DATE).format(toDate(value));
/** "10:00 AM" in `zone`. */
export const formatClock = (value: Instant, zone?: string) => formatter(zone, TIME).format(toDate(value));
/** "Nov 23, 2026, 10:00 AM" in `zone`. */
export const formatInstant = (value: Instant, zone?: string) =>
  formatter(zone, { ...DATE, ...TIME }).format(toDate(value));
/** "Monday, November 23, 2026" in `zone`. */
export const formatLongDay = (value: Instant, zone?: string) =>
  formatter(zone, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(toDate(value));

/** "November 2026": a calendar's month heading. */
export const formatMonth = (value: Instant, zone?: string) =>
  formatter(zone, { month: 'long', year: 'numeric' }).format(toDate(value));

/** "Nov 23, 2026, 10:00 AM (Europe/Berlin)": a time in a text that outlives the screen (audit, mail). */
export const formatInstantWithZone = (value: Instant, zone: string) =>
  `${formatInstant(value, zone)} (${zone})`;

/** "in 2 days", "3 hours ago", "now": the largest whole unit, for times near today. */
export function formatRelative(value: Instant, now: Date): string {
  const seconds = Math.round((toDate(value).getTime() - now.getTime()) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 86_400],
    ['month', 30 * 86_400],
    ['week', 7 * 86_400],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return 'now';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "YYYY-MM-DD" of an instant in `zone`: the calendar day it falls on there. */
export function dayKeyIn(value: Instant, zone: string): string {
  const d = new TZDate(toDate(value).getTime(), zone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "HH:MM" (24 h) of an instant in `zone`: the slot it starts in. */
export function clockIn(value: Instant, zone: string): string {
  const d = new TZDate(toDate(value).getTime(), zone);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant of wall-clock `hhmm` on day `dayKey` ("YYYY-MM-DD") in `zone`. */
export function instantIn(dayKey: string, hhmm: string, zone: string): Date {
  const [y, m, d] = dayKey.split('-').map(Number);
  const [h, min] = hhmm.split(':').map(Number);
  return new Date(new TZDate(y ?? 1970, (m ?? 1) - 1, d ?? 1, h ?? 0, min ?? 0, zone).getTime());
}

/** The day after `dayKey`, as a key (calendar arithmetic, no zone involved). */
export function nextDayKey(dayKey: string): string {
  const [y, m, d] = dayKey.split('-').map(Number);
  const next = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}
