// Display helpers: dates and times (through the one time module, src/shared/time.ts, in the
// viewer's zone unless one is given), sizes and labels.
import {
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  GENDER_OPTIONS,
  HASH_DISPLAY_LENGTH,
  RECORD_TYPE_LABELS,
  type RecordType,
} from '../shared/constants';
import { formatDay, formatInstant } from '../shared/time';

export function formatDate(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  // A plain date (date of birth) is a calendar day, not an instant: never shift it by time zone.
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = plain ? new Date(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : formatDay(date);
}

export function formatDateTime(
  value: string | null | undefined,
  fallback = 'Unknown',
  zone?: string,
): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : formatInstant(date, zone);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const departmentLabel = (value: string | null | undefined) =>
  value ? (DEPARTMENT_LABELS[value as (typeof DEPARTMENTS)[number]] ?? value) : '—';

export const recordTypeLabel = (value: string | null | undefined) =>
  value ? (RECORD_TYPE_LABELS[value as RecordType] ?? value) : '—';

/** "prefer not to say" -> "Prefer not to say": one label for a gender wherever it is shown. */
export const genderLabel = (value: string | null | undefined) =>
  value ? value.charAt(0).toUpperCase() + value.slice(1) : null;

export const GENDER_SELECT_OPTIONS = GENDER_OPTIONS.map((g) => ({ value: g, label: genderLabel(g)! }));

export const truncateHash = (hash: string | null | undefined) =>
  hash ? hash.slice(0, HASH_DISPLAY_LENGTH) : '';

export const DEPARTMENT_OPTIONS = DEPARTMENTS.map((d) => ({ value: d, label: DEPARTMENT_LABELS[d] }));
export const RECORD_TYPE_OPTIONS = Object.entries(RECORD_TYPE_LABELS).map(([value, label]) => ({
  value,
  label,
}));

/** The local day of `day` (YYYY-MM-DD) as [start, end) instants, for the server's period filter. */
export function localDayBounds(day: string): { from: string; to: string } {
  const [y, m, d] = day.split('-').map(Number);
  return { from: new Date(y, m - 1, d).toISOString(), to: new Date(y, m - 1, d + 1).toISOString() };
}

const pluralRules = new Intl.PluralRules('en-US');

/** "1 appointment", "2 appointments", "0 appointments" (English plural rules, not `count === 1`). */
export function plural(count: number, one: string, other: string): string {
  return `${count} ${pluralRules.select(count) === 'one' ? one : other}`;
}

/** The line under a paged list: "Showing 1–50 of 52 patients", or "No patients" when empty. */
export function showingRange(range: { from: number; to: number; total: number }, one: string, other: string) {
  if (range.total === 0) return `No ${other}`;
  return `Showing ${range.from}–${range.to} of ${plural(range.total, one, other)}`;
}
