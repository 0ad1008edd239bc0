// Instants a person can mean: the database stores years up to 294276 and JavaScript to 275760, but
// an appointment or a filter outside 1900-2200 is a typing slip, and must get a clear 400 rather
// than reach PostgreSQL and fail there.
export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 2200;

/** The instant `value` names, when it lies in the years people can mean; otherwise null. */
export function instantInRange(value: string): Date | null {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  return year >= EARLIEST_YEAR && year <= LATEST_YEAR ? date : null;
}

export const yearRangeMessage = (name: string) =>
  `${name} must be a date between ${EARLIEST_YEAR} and ${LATEST_YEAR}`;
