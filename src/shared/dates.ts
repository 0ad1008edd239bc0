// Dates the server and the database can hold (issue 16 item 4): years outside 1900-2200 are
// refused by the schemas with a 400 instead of overflowing into a 500 (e.g. year 0000, +275760,
// or 9999-12-31T23:59 whose one-hour slot ends in year 10000).
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;

/** True when the ISO date or instant parses and its UTC year lies within MIN_YEAR..MAX_YEAR. */
export function isWithinYearBounds(value: string): boolean {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

export const yearBoundsMessage = (name: string) =>
  `${name} must be between the years ${MIN_YEAR} and ${MAX_YEAR}`;
