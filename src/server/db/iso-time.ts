// Timestamps the lists answer with go from PostgreSQL's text straight to the API's ISO 8601 form.
// Read as Dates, each one was parsed by V8's date parser and printed again by toISOString (which
// formats through snprintf): 0.6-0.7 µs a timestamp, 6-8% of the patient list's app CPU for its two
// dates on each of 50 rows (perf, bench/api-cpu). Both drivers hand timestamptz over as text.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** timestamptz as PostgreSQL prints it in UTC (DateStyle ISO): up to 6 fractional digits, or none. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * `new Date(text).toISOString()` of a timestamptz's text: milliseconds, truncated as the Date
 * truncates them. Any other form (another zone's offset, a year past 9999) goes through a Date.
 */
export function isoFromTimestamptz(text: string): string {
  const parts = UTC_TEXT.exec(text);
  if (!parts) return new Date(text).toISOString();
  const fraction = parts[3] ?? '';
  const ms = fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0');
  return `${parts[1]}T${parts[2]}.${ms}Z`;
}

/** A timestamptz column selected as its ISO string (null stays null) instead of a Date. */
export const isoTime = <C extends PgColumn>(column: C) =>
  sql`${column}`.mapWith(isoFromTimestamptz) as SQL<C['_']['notNull'] extends true ? string : string | null>;

/** The API's form of a time read either way: a Date (from a write's RETURNING) or isoTime's string. */
export const isoOf = (time: Date | string) => (typeof time === 'string' ? time : time.toISOString());
